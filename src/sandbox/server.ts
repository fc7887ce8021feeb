/**
 * The local service: a real HTTP server on Node's `http` (or `https` with a
 * certificate and key) that implements the service interface for every kind
 * in the registry. Start and stop, connection hygiene (time-outs, connection
 * caps in all and per address, local Host names only), and one answer per
 * request: whatever a handler throws fails that request alone.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { kinds } from '../model/kinds';
import { randomToken, TokenAuthority } from './http/auth';
import { compileSchemas } from './routes/checks';
import { Connections } from './http/connections';
import { checkPreconditions, Current } from './http/etag';
import { isLocalHost, isLoopback, localNamesFor } from './http/hostCheck';
import type { RouteRequest, SandboxContext } from './routes/context';
import { Endpoint, endpoints } from './routes/endpoints';
import { Faults } from './routes/faults';
import { errorBody, hasBody, HttpError, Reply, send } from './http/replies';
import type { JournalOptions } from './store/journal';
import { randomKey } from './store/objects';
import { RequestCounts, requestLine } from './http/requestLog';
import { pathSegments, Router } from './http/router';
import { defaultInstanceName, seedStore } from './store/seed';
import { Store } from './store/store';

export interface SandboxOptions {
  /** Interface to listen on; default 127.0.0.1. Anything but a loopback address needs `allowRemote`. */
  host?: string;
  /** Listen on a non-loopback `host`: anyone who reaches this machine can then try to sign in. */
  allowRemote?: boolean;
  /** Serve HTTPS with this certificate (chain) and private key, both PEM; plain HTTP without. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The static bearer token, which never expires; default a random one. */
  token?: string;
  /** Password grant credentials: user default admin; no password, no password grant (4xx). */
  user?: string;
  password?: string;
  /** CommonName of the instance when seeding; default "Demo Instance". */
  instanceName?: string;
  /** JSON file holding the data; loaded at start, written durably on every change. Memory only without it. */
  dataFile?: string;
  /** Data of a new store (no data file, or one that does not exist yet); default 'demo'. */
  seed?: 'demo' | 'empty';
  /** Largest request body; default 10 MiB. Larger ones get 413. */
  maxBodyBytes?: number;
  /** Lifetime of tokens issued by POST /token; default 86399 s. */
  tokenTtlSeconds?: number;
  /** Called with one line per request (method, path, status, time); never tokens or bodies. */
  log?: (line: string) => void;
  /** Time to receive a request's headers (default 10 s) and the whole request (default 30 s); then 408. */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Open connections beyond this close an idle one, else get a 503 (default 256); from one address, `maxConnectionsPerAddress` (default 128). */
  maxConnections?: number;
  maxConnectionsPerAddress?: number;
  /** With a data file: when the journal is compacted, and how it writes (tests make it fail). */
  journal?: JournalOptions;
}

export interface Sandbox {
  /** Origin, no trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  token: string;
  instanceKey: string;
  close(): Promise<void>;
}

export const defaultUser = 'admin';
export const defaultMaxBodyBytes = 10 * 1024 * 1024;
/** What is discarded of a refused body before the connection is closed: unauthenticated, and authenticated (over the limit). */
const unauthenticatedDrainBytes = 64 * 1024;
export const defaultTokenTtlSeconds = 86399;
const defaultHeadersTimeoutMs = 10_000;
const defaultRequestTimeoutMs = 30_000;
const defaultMaxConnections = 256;
const defaultMaxConnectionsPerAddress = 128;
/** How long `close()` lets requests in flight finish. */
const closeGraceMs = 3000;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const bindHost = options.host ?? '127.0.0.1';
  if (!options.allowRemote && !isLoopback(bindHost)) {
    throw new Error(
      `Refusing to listen on ${bindHost}: not a loopback address. ` +
        'The sandbox is for this machine; allow other machines explicitly (allowRemote, --allow-remote)',
    );
  }
  const store = await Store.open(options.dataFile, () => seedStore(options.seed ?? 'demo', options.instanceName ?? defaultInstanceName), options.journal);
  const token = options.token || randomToken();
  const ctx: SandboxContext = {
    store,
    maxBodyBytes: options.maxBodyBytes ?? defaultMaxBodyBytes,
    newKey: randomKey,
    now: () => new Date(),
    auth: new TokenAuthority({
      staticToken: token,
      user: options.user ?? defaultUser,
      password: options.password || undefined,
      tokenTtlSeconds: options.tokenTtlSeconds ?? defaultTokenTtlSeconds,
      instance: () => ({ key: store.instanceKey, name: String(store.instance.CommonName ?? '') }),
    }),
    faults: new Faults(),
    eventPublisherUrl: '',
  };
  const router = endpoints();
  compileSchemas(kinds.values());
  const localNames = localNamesFor(!!options.allowRemote);
  const requests = new RequestCounts();

  let inFlight = 0;
  let onDrained: (() => void) | undefined;
  const requestTimeout = options.requestTimeoutMs ?? defaultRequestTimeoutMs;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? defaultHeadersTimeoutMs, requestTimeout);
  const serverOptions = {
    headersTimeout,
    requestTimeout,
    // Time-outs are checked this often (Node's default is 30 s, which would stretch them).
    connectionsCheckingInterval: Math.max(100, Math.min(1000, headersTimeout / 2)),
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    res.on('close', () => {
      inFlight--;
      if (inFlight === 0) onDrained?.();
    });
    respond(ctx, router, localNames, req, res, requests, options.log).catch(() => res.destroy());
  };
  const server = options.tls
    ? createTlsServer({ ...serverOptions, cert: options.tls.cert, key: options.tls.key }, handle)
    : createServer(serverOptions, handle);
  server.keepAliveTimeout = 5000;
  const connections = new Connections(
    {
      max: options.maxConnections ?? defaultMaxConnections,
      perAddress: options.maxConnectionsPerAddress ?? defaultMaxConnectionsPerAddress,
    },
    !!options.tls,
  );
  connections.attach(server);
  ctx.stats = () => ({ connections: connections.counts, tokens: ctx.auth.held, requests: requests.snapshot() });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
  const url = `${options.tls ? 'https' : 'http'}://${host}:${address.port}`;
  ctx.eventPublisherUrl = `${url}/events`;
  localNames.add(host.toLowerCase());

  let closing: Promise<void> | undefined;
  return {
    url,
    token,
    instanceKey: store.instanceKey,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        if (inFlight > 0) {
          await Promise.race([
            new Promise<void>((resolve) => {
              onDrained = resolve;
            }),
            new Promise<void>((resolve) => setTimeout(resolve, closeGraceMs).unref()),
          ]);
        }
        server.closeAllConnections();
        await closed;
        await store.close();
      })();
      return closing;
    },
  };
}

async function respond(
  ctx: SandboxContext,
  router: Router<Endpoint>,
  names: ReadonlySet<string>,
  req: IncomingMessage,
  res: ServerResponse,
  requests: RequestCounts,
  log?: (line: string) => void,
): Promise<void> {
  const started = Date.now();
  const target = req.url ?? '/';
  const q = target.indexOf('?');
  const pathname = q >= 0 ? target.slice(0, q) : target;
  const r: Routed = { authenticated: false };
  let reply: Reply;
  try {
    // Most handlers answer at once: awaited only when they did not (no turn of the event loop for a read).
    const routed = route(ctx, router, names, req, pathname, q >= 0 ? target.slice(q + 1) : '', r);
    reply = routed instanceof Promise ? await routed : routed;
  } catch (e) {
    reply =
      e instanceof HttpError
        ? { status: e.status, body: errorBody(e), headers: e.headers }
        : { status: 500, body: { Message: `Internal sandbox error: ${(e as Error)?.message ?? String(e)}` } };
  }
  if (hasBody(req) && !req.complete) {
    // A body left unread (refused, too large, or sent where none is read): discard a bounded
    // amount so the client can read the answer, then close. Never buffered.
    reply.headers = { ...reply.headers, Connection: 'close' };
    drain(req, r.authenticated ? ctx.maxBodyBytes : unauthenticatedDrainBytes);
  }
  if (!res.headersSent && !res.destroyed) {
    try {
      send(res, reply);
    } catch (e) {
      send(res, { status: 500, body: { Message: `Internal sandbox error: the answer could not be written (${(e as Error).message})` } });
    }
  }
  const method = (req.method ?? 'GET').toUpperCase();
  requests.count(method, r.route);
  log?.(requestLine(method, pathname, reply.status, Date.now() - started));
}

/** What routing learnt about a request, also when it failed. */
interface Routed {
  authenticated: boolean;
  /** The route pattern matched, for the counters (none: no route fitted, or the Host was refused). */
  route?: string;
}

/** Discards the rest of a refused body; gives up (closes) on clients that send far more than `limit`. */
function drain(req: IncomingMessage, limit: number): void {
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limit) req.socket.destroy();
  });
  req.resume();
}

/** Host check, routing, authentication, then injected faults (authenticated requests only), a write's preconditions, then the handler. */
function route(
  ctx: SandboxContext,
  router: Router<Endpoint>,
  names: ReadonlySet<string>,
  req: IncomingMessage,
  pathname: string,
  search: string,
  routed: Routed,
): Reply | Promise<Reply> {
  if (!isLocalHost(req.headers.host, names)) {
    throw new HttpError(421, 'This sandbox answers only to local names (localhost, 127.0.0.1, [::1] or its bound address) in the Host header');
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const segments = pathSegments(pathname);
  const { handler, params, pattern } = router.match(method, segments);
  routed.route = pattern;
  const r: RouteRequest = { req, method, params, query: new URLSearchParams(search) };
  const handle = () => {
    if (method !== 'GET' && (req.headers['if-match'] !== undefined || req.headers['if-none-match'] !== undefined)) {
      const current = currentOf(ctx, router, segments, r);
      // A target that is not there (a 404 to its GET) is answered by the write's own 404 (RFC 9110 §13.2.1).
      if (current !== 'missing') checkPreconditions(req, current);
    }
    return handler.handle(ctx, r);
  };
  if (!handler.public) {
    const auth = ctx.auth.check(req.headers.authorization);
    if ('denied' in auth) throw new HttpError(401, auth.denied, undefined, { 'WWW-Authenticate': 'Bearer' });
    routed.authenticated = true;
    r.userName = auth.user;
    if (segments[0] !== 'sandbox') {
      const fault = ctx.faults.take(method, pathname);
      if (fault?.delayMs) return late(fault.delayMs, () => fault.reply ?? handle());
      if (fault?.reply) return fault.reply;
    }
  }
  return handle();
}

/**
 * A write's target as a GET of its path answers now (its handlers answer at once: the check and the write
 * run in the same turn, or, for a body, the write's version check keeps it atomic). No GET route: nothing
 * to match; a 404: `missing`.
 */
function currentOf(ctx: SandboxContext, router: Router<Endpoint>, segments: readonly string[], r: RouteRequest): Current | 'missing' {
  let read;
  try {
    read = router.match('GET', segments);
  } catch {
    return undefined;
  }
  try {
    const reply = read.handler.handle(ctx, { ...r, method: 'GET', params: read.params });
    if (reply instanceof Promise) throw new Error("a GET handler that does not answer at once cannot be a write's precondition");
    return { etag: reply.headers?.ETag };
  } catch (e) {
    if (e instanceof HttpError && e.status === 404) return 'missing';
    throw e;
  }
}

/** A slow service (a fault rule's delay): the request is handled now, its answer (or error) goes `ms` later. */
async function late(ms: number, answer: () => Reply | Promise<Reply>): Promise<Reply> {
  try {
    return await answer();
  } finally {
    await new Promise((r) => setTimeout(r, ms));
  }
}
