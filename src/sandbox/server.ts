/**
 * The local service: a real HTTP server on Node's `http` that implements the
 * service interface for every kind in the registry. Routing, start and stop.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { kindByCollection, kinds } from '../model/kinds';
import { pushNotification } from './actions';
import { randomToken, TokenAuthority } from './auth';
import { handleCollection } from './collections';
import type { FolderRequest, SandboxContext } from './context';
import { Faults } from './faults';
import { errorBody, HttpError, json, methodNotAllowed, noContent, notFound, readBody, readJson, Reply, send } from './http';
import { randomKey } from './objects';
import { defaultInstanceName, seedStore } from './seed';
import { Store } from './store';

export interface SandboxOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The static bearer token, which never expires; default a random one. */
  token?: string;
  /** Password grant credentials; default admin / admin. */
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
}

export interface Sandbox {
  /** Origin, no trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  token: string;
  instanceKey: string;
  close(): Promise<void>;
}

const sandboxVersion = '0.1.0';
export const defaultUser = 'admin';
export const defaultPassword = 'admin';
export const defaultMaxBodyBytes = 10 * 1024 * 1024;
export const defaultTokenTtlSeconds = 86399;

interface Services {
  ctx: SandboxContext;
  auth: TokenAuthority;
  faults: Faults;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const store = await Store.open(options.dataFile, () => seedStore(options.seed ?? 'demo', options.instanceName ?? defaultInstanceName));
  const token = options.token || randomToken();
  const services: Services = {
    ctx: { store, maxBodyBytes: options.maxBodyBytes ?? defaultMaxBodyBytes, newKey: randomKey, now: () => new Date() },
    auth: new TokenAuthority({
      staticToken: token,
      user: options.user ?? defaultUser,
      password: options.password ?? defaultPassword,
      tokenTtlSeconds: options.tokenTtlSeconds ?? defaultTokenTtlSeconds,
      instance: () => ({ key: store.instanceKey, name: String(store.instance.CommonName ?? '') }),
    }),
    faults: new Faults(),
  };

  let inFlight = 0;
  let onDrained: (() => void) | undefined;
  const server = createServer((req, res) => {
    inFlight++;
    res.on('close', () => {
      inFlight--;
      if (inFlight === 0) onDrained?.();
    });
    void respond(services, req, res, options.log);
  });
  server.keepAliveTimeout = 5000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    token,
    instanceKey: store.instanceKey,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        if (inFlight > 0) {
          await Promise.race([
            new Promise<void>((resolve) => { onDrained = resolve; }),
            new Promise<void>((resolve) => setTimeout(resolve, 5000).unref()),
          ]);
        }
        server.closeAllConnections();
        await closed;
        await store.flushed();
      })();
      return closing;
    },
  };
}

async function respond(s: Services, req: IncomingMessage, res: ServerResponse, log?: (line: string) => void): Promise<void> {
  const started = Date.now();
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  let reply: Reply;
  try {
    reply = await route(s, req, url);
  } catch (e) {
    if (e instanceof HttpError) {
      reply = { status: e.status, body: errorBody(e), headers: e.headers };
    } else {
      reply = { status: 500, body: { Message: `Internal sandbox error: ${(e as Error)?.message ?? String(e)}` } };
    }
  }
  if (reply.status === 413) {
    // Stop buffering; let the client finish sending (discarded, bounded) so it can read the answer, then close.
    reply.headers = { ...reply.headers, Connection: 'close' };
    drain(req, s.ctx.maxBodyBytes);
  }
  if (!res.headersSent && !res.destroyed) send(res, reply);
  log?.(`${req.method} ${url.pathname}${url.search} ${reply.status} ${Date.now() - started}ms`);
}

/** Discards the rest of a refused body; gives up on clients that send far more than the limit. */
function drain(req: IncomingMessage, limit: number): void {
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > 4 * limit + 1024 * 1024) req.socket.destroy();
  });
  req.resume();
}

async function route(s: Services, req: IncomingMessage, url: URL): Promise<Reply> {
  const method = (req.method ?? 'GET').toUpperCase();
  let segs: string[];
  try {
    segs = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    throw new HttpError(400, 'The request path is not valid URL encoding');
  }
  const { ctx, auth, faults } = s;

  if (segs[0] !== 'sandbox') {
    const fault = faults.take(url.pathname);
    if (fault) return fault;
  }

  if (segs.length === 1 && segs[0] === 'token') {
    if (method !== 'POST') throw methodNotAllowed(method, ['POST']);
    return auth.grant(await readForm(req, ctx.maxBodyBytes));
  }
  if (segs.length === 2 && segs[0] === 'api' && segs[1] === 'sysinfo') {
    if (method !== 'GET') throw methodNotAllowed(method, ['GET']);
    return json(200, { ServerTime: ctx.now().toISOString(), Version: `${sandboxVersion} (OMS sandbox)` });
  }

  const denied = auth.check(req.headers.authorization);
  if (denied) throw new HttpError(401, denied, undefined, { 'WWW-Authenticate': 'Bearer' });

  if (segs[0] === 'sandbox') return sandboxRoute(s, req, method, segs.slice(1));
  if (segs[0] !== 'api') throw notFound(`No route ${url.pathname}`);
  if (segs.length === 1) {
    if (method !== 'GET') throw methodNotAllowed(method, ['GET']);
    return json(200, ctx.store.instance);
  }
  if (segs[1] !== 'f' || segs.length < 3) throw notFound(`No route ${url.pathname}`);

  const folderKey = segs[2].toLowerCase();
  const container = ctx.store.container(folderKey);
  if (!container) throw notFound(`No folder ${folderKey}`);
  if (segs.length === 3) {
    if (method !== 'GET') throw methodNotAllowed(method, ['GET']);
    return json(200, container);
  }
  const r: FolderRequest = { req, method, folderKey, query: url.searchParams };
  if (segs[3].toLowerCase() === 'pushnotifications' && segs.length === 4) return pushNotification(ctx, r);
  const kind = kindByCollection(segs[3]);
  if (!kind) throw notFound(`No collection ${segs[3]} (known: ${[...[...kinds.values()].map((k) => k.collection), 'pushnotifications'].join(', ')})`);
  return handleCollection(ctx, r, kind, segs.slice(4));
}

/** The form of POST /token (a JSON object is accepted too). */
async function readForm(req: IncomingMessage, maxBytes: number): Promise<URLSearchParams> {
  const text = (await readBody(req, maxBytes)).toString('utf8');
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/json')) {
    try {
      const obj = JSON.parse(text) as Record<string, unknown>;
      return new URLSearchParams(Object.entries(obj ?? {}).map(([k, v]): [string, string] => [k, String(v)]));
    } catch {
      throw new HttpError(400, 'invalid JSON', undefined, undefined, { error: 'invalid_request', error_description: 'The body is not valid JSON' });
    }
  }
  return new URLSearchParams(text);
}

/** Sandbox-only endpoints: the outbox of invites and pushes, and injected faults. */
async function sandboxRoute(s: Services, req: IncomingMessage, method: string, segs: string[]): Promise<Reply> {
  const { store } = s.ctx;
  if (segs.length === 1 && segs[0] === 'outbox') {
    if (method === 'GET') return json(200, store.outbox);
    if (method === 'DELETE') {
      store.outbox.length = 0;
      await store.persist();
      return noContent();
    }
    throw methodNotAllowed(method, ['GET', 'DELETE']);
  }
  if (segs.length === 1 && segs[0] === 'faults') {
    if (method === 'GET') return json(200, s.faults.list());
    if (method === 'POST') return json(201, s.faults.add(await readJson(req, s.ctx.maxBodyBytes)));
    if (method === 'DELETE') {
      s.faults.clear();
      return noContent();
    }
    throw methodNotAllowed(method, ['GET', 'POST', 'DELETE']);
  }
  throw notFound(`No sandbox route /sandbox/${segs.join('/')}`);
}
