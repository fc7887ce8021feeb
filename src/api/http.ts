/**
 * The one HTTP function every call goes through: bearer auth, JSON bodies,
 * a time-out on every call, retries of idempotent calls, error mapping.
 *
 * It uses Node's own `fetch` (no bundled URL or HTTP library): it reports a
 * body cut short inside its Content-Length at once, which node-fetch 2 did
 * only at the time-out. Bodies are read under a size cap, counted after
 * decompression, so a large answer or a gzip bomb stops at the cap.
 */
import { ApiError, detailsFromBody, kindOfStatus, messageFromBody } from './errors';
import { masker } from './secrets';
import { networkReason } from './networkErrors';
import { leavesBase } from '../model/routes';
import { l10n } from '../l10n';
import type { Fetch } from './proxyFetch';

export interface RequestLog {
  method: string;
  /** Path and query only: never the origin's credentials, never a body. */
  path: string;
  status: number | 'error';
  ms: number;
  attempt: number;
}

/** Where a request goes and the token that belongs there: read together, once per request. */
interface Endpoint {
  /** Origin plus optional path prefix, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  token?: string;
}

interface CommonOptions {
  timeoutMs?: number;
  /** Attempts for idempotent calls (1 = no retry). */
  maxAttempts?: number;
  /** First back-off in ms; doubles each attempt. */
  backoffMs?: number;
  /** Upper bound for one wait, also for a server's Retry-After. */
  maxBackoffMs?: number;
  /** Largest answer read, in bytes after decompression (default 64 MB). */
  maxResponseBytes?: number;
  log?: (entry: RequestLog) => void;
  /** The fetch for a URL when not Node's (VS Code's) own: the proxy settings VS Code leaves out (proxyFetch.ts). */
  fetchFor?: (url: URL) => Promise<Fetch> | undefined;
}

export type HttpOptions = CommonOptions &
  (
    | { endpoint: () => Endpoint | Promise<Endpoint> }
    /** A fixed origin; `token` is read once at the start of each request. */
    | { baseUrl: string; token?: () => string | undefined }
  );

export interface RequestOptions {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  /** JSON body (any JSON value, including a bare string). */
  json?: unknown;
  /** Form body, for `POST /token`. */
  form?: Record<string, string>;
  /** Send without a bearer token (sign-in, sysinfo). */
  anonymous?: boolean;
  /** Safe to repeat: GETs are; writes never are, unless the caller says so. */
  idempotent?: boolean;
  /**
   * A write sent again when the service refuses it with 429, which it gives before doing anything
   * (it is the service's own retry advice). Only for creations: a PUT sent later could overwrite,
   * unseen, a change made in the meantime.
   */
  resendWhenThrottled?: boolean;
  /** The answer's bytes as they came, neither decoded nor parsed (for a reader on another thread: a pull's pages). */
  bytes?: boolean;
  /**
   * A read again of an answer the caller holds: `etag` (when it has one) goes out as If-None-Match, and
   * the call resolves to a `Conditional` (a 304 to `unchanged`, never an error).
   */
  conditional?: { etag?: string };
  /** Sent once, never again on a 429, 5xx or network failure: the caller reads again later anyway (a poll). */
  once?: boolean;
  /** Cuts the call, even in flight. */
  signal?: AbortSignal;
  /** Ends a wait to send again (the last answer is then the outcome); never cuts a request in flight. */
  stopWaiting?: AbortSignal;
  /** One confirmation, given before, that covers this write (an operation of many requests, such as a batch add). */
  approval?: WriteApproval;
}

/** What the user agreed to send as one operation; requests that carry it need no question of their own. */
export interface WriteApproval {
  readonly what: string;
}

const retryStatuses = new Set([429, 502, 503, 504]);
/** Form fields whose values are secrets: masked like the token in any message built from an answer. */
const secretFields = ['password', 'refresh_token', 'client_secret'];
const defaultMaxResponseBytes = 64 * 1024 * 1024;

export type Http = <T = unknown>(req: RequestOptions) => Promise<T>;

/** What a conditional read resolves to: the server's 304 for the tag held, or the answer's bytes and tag. */
export type Conditional = { unchanged: true; etag: string } | { unchanged: false; bytes: Buffer; etag?: string };

export function createHttp(options: HttpOptions): Http {
  const endpoint = 'endpoint' in options ? options.endpoint : () => ({ baseUrl: options.baseUrl, token: options.token?.() });
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxAttempts = options.maxAttempts ?? 4;
  const backoffMs = options.backoffMs ?? 500;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const maxBytes = options.maxResponseBytes ?? defaultMaxResponseBytes;

  return async function request<T>(req: RequestOptions): Promise<T> {
    const { baseUrl, token } = await endpoint();
    const base = parseUrl(baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new ApiError('validation', l10n.t('Unsupported URL scheme {0}', base.protocol));
    }
    const mask = masker([req.anonymous ? undefined : token, ...secretFields.map((f) => req.form?.[f])]);
    const url = withinBase(base, req, mask);
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const logPath = mask(url.pathname + url.search);
    const idempotent = req.idempotent ?? req.method === 'GET';
    const attempts = req.once ? 1 : idempotent || req.resendWhenThrottled ? maxAttempts : 1;
    const again = (status: number) => (idempotent ? retryStatuses.has(status) : status === 429);
    const fail = (kind: ConstructorParameters<typeof ApiError>[0], message: string, status?: number) =>
      new ApiError(kind, mask(message), status, req.method, mask(req.path));

    const headers: Record<string, string> = { Accept: 'application/json' };
    let body: string | undefined;
    if (req.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(req.form).toString();
    } else if (req.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(req.json);
    }
    if (!req.anonymous && token) headers.Authorization = `Bearer ${token}`;
    if (req.conditional?.etag) headers['If-None-Match'] = req.conditional.etag;
    const send = (await options.fetchFor?.(url)) ?? fetch;

    for (let attempt = 1; ; attempt++) {
      const started = Date.now();
      const controller = new AbortController();
      const onAbort = () => controller.abort();
      req.signal?.addEventListener('abort', onAbort);
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      const log = (status: number | 'error') => options.log?.({ method: req.method, path: logPath, status, ms: Date.now() - started, attempt });
      try {
        // Never follow redirects: the bearer token must reach no other origin.
        const response = await send(url, { method: req.method, headers, body, redirect: 'manual', signal: controller.signal });
        const bytes = await readCapped(response, maxBytes);
        if (bytes === undefined) {
          log(response.status);
          throw fail(
            'tooLarge',
            l10n.t(
              'The answer of {0} to {1} {2} is larger than {3} (setting oms.maxResponseMegabytes); nothing of it was used',
              base.host,
              req.method,
              logPath,
              formatBytes(maxBytes),
            ),
            response.status,
          );
        }
        clearTimeout(timer);
        log(response.status);
        const etag = response.headers.get('etag') ?? undefined;
        if (req.conditional && response.status === 304) return { unchanged: true, etag: etag ?? req.conditional.etag ?? '' } satisfies Conditional as T;
        // Bytes asked for are not decoded here: only their start, to tell a web page.
        const text = req.bytes && response.ok ? bytes.subarray(0, 256).toString() : bytes.toString();
        const page = webPage(response, text, base, req);
        if (response.ok && !page && req.conditional) return { unchanged: false, bytes, etag } satisfies Conditional as T;
        if (response.ok && !page) return (req.bytes ? bytes : text ? parseJson(text, req, response.status) : undefined) as T;
        const error = page ?? toError(response, text, req, mask);
        const retryAfter = response.headers.get('retry-after');
        // Callers that resend themselves (the executor of many changes) wait as the server asked; a poll
        // (`once`) waits all of it, however long: it only reads again later.
        if (retryAfter && (response.status === 429 || response.status === 503)) {
          Object.assign(error, { retryAfterMs: waitFor(1, retryAfter, backoffMs, req.once ? Infinity : maxBackoffMs) });
        }
        if (attempt < attempts && again(response.status)) {
          await sleep(waitFor(attempt, response.headers.get('retry-after'), backoffMs, maxBackoffMs), req.signal, req.stopWaiting, error);
          continue;
        }
        throw error;
      } catch (e) {
        clearTimeout(timer);
        if (e instanceof ApiError) throw e;
        const cancelled = req.signal?.aborted ?? false;
        const timedOut = !cancelled && controller.signal.aborted;
        log('error');
        const below = cancelled || timedOut ? undefined : networkReason(e, base.host);
        const error = cancelled
          ? fail('network', 'Cancelled')
          : timedOut
            ? fail('timeout', l10n.t('No answer from {0} within {1} s', base.host, Math.round(timeoutMs / 1000)))
            : fail('network', below!.text);
        if (!cancelled && (timedOut || below!.transient) && idempotent && attempt < attempts) {
          await sleep(waitFor(attempt, null, backoffMs, maxBackoffMs), req.signal);
          continue;
        }
        throw error;
      } finally {
        req.signal?.removeEventListener('abort', onAbort);
      }
    }
  };
}

/** The body, or undefined (the rest left unread) once it passes `maxBytes`. */
async function readCapped(response: Response, maxBytes: number): Promise<Buffer | undefined> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  const tooLarge = declared > maxBytes && !response.headers.get('content-encoding');
  if (tooLarge || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    return tooLarge ? undefined : Buffer.alloc(0);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Chunks arrive decompressed, so the cap also bounds a compressed answer's real size.
  // Leaving the loop early cancels the body, which drops the connection.
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new ApiError('validation', l10n.t('Not a URL: {0}', url));
  }
}

/**
 * The URL of a request: the connection's origin and base path, then `req.path`. A path that could
 * leave them (model/routes.ts `leavesBase`) is refused before anything is sent, whoever built it:
 * the route builders refuse such keys too, this is the last guard.
 */
function withinBase(base: URL, req: RequestOptions, mask: (text: string) => string): URL {
  const basePath = base.pathname.replace(/\/+$/, '');
  const url = leavesBase(req.path) ? undefined : new URL(base.origin + basePath + req.path);
  if (!url || url.origin !== base.origin || !url.pathname.startsWith(`${basePath}/`)) {
    throw new ApiError(
      'validation',
      l10n.t('Refused before sending: the path {0} would leave {1}', JSON.stringify(mask(req.path)), `${base.origin}${basePath}`),
      undefined,
      req.method,
      mask(req.path),
    );
  }
  return url;
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / 1024 / 1024)} MB` : `${n} bytes`;
}

export function parseJson(text: string, req: Pick<RequestOptions, 'method' | 'path'>, status: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('server', l10n.t('The server answered {0} with a body that is not JSON', status), status, req.method, req.path);
  }
}

/**
 * A web page where the service's JSON was expected: a web server's or proxy's 404, a sign-in portal.
 * Said in one line: the page itself is no use in a message or a tree node.
 */
function webPage(response: Response, text: string, base: URL, req: RequestOptions): ApiError | undefined {
  const html = /\b(text\/html|application\/xhtml)/i.test(response.headers.get('content-type') ?? '') || /^\s*<(!doctype\s+html|html)\b/i.test(text);
  if (!html || (response.status >= 300 && response.status < 400)) return undefined;
  const address = base.origin + base.pathname.replace(/\/+$/, '');
  // A sign-in page (401, 403) still asks for sign-in; any other page is no answer of the service (a 404 page is not "object not found").
  const kind = response.status === 401 || response.status === 403 ? kindOfStatus(response.status) : 'server';
  return new ApiError(
    kind,
    l10n.t("{0} answered with a web page ({1}), not the service: check the connection's URL", address, response.status),
    response.status,
    req.method,
    req.path,
  );
}

function toError(response: Response, text: string, req: RequestOptions, mask: (text: string) => string): ApiError {
  const status = response.status;
  if (status >= 300 && status < 400) {
    return new ApiError(
      'server',
      l10n.t('The server redirected ({0}); redirects are not followed so that the token stays with its origin', status),
      status,
      req.method,
      req.path,
    );
  }
  const message = mask(messageFromBody(text, status, response.statusText));
  const details = detailsFromBody(text).map((d) => ({ ...d, message: mask(d.message) }));
  const error = new ApiError(kindOfStatus(status), message, status, req.method, req.path, details);
  // RFC 6750: the service refused the token itself, before handling the request.
  if (status === 401 && /error="?invalid_token/i.test(response.headers.get('www-authenticate') ?? '')) {
    return Object.assign(error, { tokenRefused: true });
  }
  return error;
}

/** Exponential back-off with jitter, or the server's Retry-After when it gives one. */
function waitFor(attempt: number, retryAfter: string | null, backoffMs: number, maxMs: number): number {
  if (retryAfter) {
    const seconds = Number(retryAfter);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
    if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, maxMs);
  }
  const exp = backoffMs * 2 ** (attempt - 1);
  return Math.min(exp / 2 + Math.random() * (exp / 2), maxMs);
}

/** Waits `ms`. A cancel ends it with Cancelled; a stop, with `answer` (the refusal that made it wait). */
function sleep(ms: number, cancel?: AbortSignal, stop?: AbortSignal, answer?: ApiError): Promise<void> {
  return new Promise((resolve, reject) => {
    const signals = [cancel, stop].filter((s): s is AbortSignal => !!s);
    const settle = (outcome?: ApiError) => {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener('abort', onAbort);
      if (outcome) reject(outcome);
      else resolve();
    };
    const onAbort = () => settle(cancel?.aborted || !answer ? new ApiError('network', 'Cancelled') : answer);
    const timer = setTimeout(settle, ms);
    for (const s of signals) s.addEventListener('abort', onAbort);
    if (signals.some((s) => s.aborted)) onAbort();
  });
}
