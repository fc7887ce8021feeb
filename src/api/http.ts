/**
 * The one HTTP function every call goes through: bearer auth, JSON bodies,
 * a time-out on every call, retries of idempotent calls, error mapping.
 */
import fetch, { Response } from 'node-fetch';
import { ApiError, detailsFromBody, kindOfStatus, messageFromBody } from './errors';

export interface RequestLog {
  method: string;
  /** Path and query only: never the origin's credentials, never a body. */
  path: string;
  status: number | 'error';
  ms: number;
  attempt: number;
}

export interface HttpOptions {
  /** Origin plus optional path prefix, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** Current access token; called for each request so a refresh is picked up. */
  token?: () => Promise<string | undefined> | string | undefined;
  timeoutMs?: number;
  /** Attempts for idempotent calls (1 = no retry). */
  maxAttempts?: number;
  /** First back-off in ms; doubles each attempt. */
  backoffMs?: number;
  /** Upper bound for one wait, also for a server's Retry-After. */
  maxBackoffMs?: number;
  log?: (entry: RequestLog) => void;
}

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
  signal?: AbortSignal;
}

const retryStatuses = new Set([429, 502, 503, 504]);

export type Http = <T = unknown>(req: RequestOptions) => Promise<T>;

export function createHttp(options: HttpOptions): Http {
  const base = new URL(options.baseUrl);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new ApiError('validation', `Unsupported URL scheme ${base.protocol}`);
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxAttempts = options.maxAttempts ?? 4;
  const backoffMs = options.backoffMs ?? 500;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;

  return async function request<T>(req: RequestOptions): Promise<T> {
    const url = new URL(base.origin + prefix + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const logPath = url.pathname + url.search;
    const idempotent = req.idempotent ?? req.method === 'GET';
    const attempts = idempotent ? maxAttempts : 1;

    for (let attempt = 1; ; attempt++) {
      const started = Date.now();
      const headers: Record<string, string> = { Accept: 'application/json' };
      let body: string | undefined;
      if (req.form) {
        headers['Content-Type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(req.form).toString();
      } else if (req.json !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(req.json);
      }
      if (!req.anonymous) {
        const token = await options.token?.();
        if (token) headers.Authorization = `Bearer ${token}`;
      }

      let response: Response;
      const controller = new AbortController();
      const onAbort = () => controller.abort();
      req.signal?.addEventListener('abort', onAbort);
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      try {
        // Never follow redirects: the bearer token must reach no other origin.
        response = await fetch(url.href, { method: req.method, headers, body, redirect: 'manual', signal: controller.signal });
        const text = await response.text();
        clearTimeout(timer);
        options.log?.({ method: req.method, path: logPath, status: response.status, ms: Date.now() - started, attempt });
        if (response.ok) return (text ? parseJson(text, req, response.status) : undefined) as T;
        const error = toError(response, text, req);
        if (attempt < attempts && retryStatuses.has(response.status)) {
          await sleep(waitFor(attempt, response.headers.get('retry-after'), backoffMs, maxBackoffMs), req.signal);
          continue;
        }
        throw error;
      } catch (e) {
        clearTimeout(timer);
        if (e instanceof ApiError) throw e;
        const cancelled = req.signal?.aborted ?? false;
        const timedOut = !cancelled && controller.signal.aborted;
        options.log?.({ method: req.method, path: logPath, status: 'error', ms: Date.now() - started, attempt });
        const error = cancelled
          ? new ApiError('network', 'Cancelled', undefined, req.method, req.path)
          : timedOut
            ? new ApiError('timeout', `No answer from ${base.host} within ${Math.round(timeoutMs / 1000)} s`, undefined, req.method, req.path)
            : new ApiError('network', `Cannot reach ${base.host}: ${(e as Error).message.replace(url.href, logPath)}`, undefined, req.method, req.path);
        if (!cancelled && attempt < attempts) {
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

function parseJson(text: string, req: RequestOptions, status: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('server', `The server answered ${status} with a body that is not JSON`, status, req.method, req.path);
  }
}

function toError(response: Response, text: string, req: RequestOptions): ApiError {
  const status = response.status;
  if (status >= 300 && status < 400) {
    return new ApiError('server', `The server redirected (${status}); redirects are not followed so that the token stays with its origin`, status, req.method, req.path);
  }
  const message = messageFromBody(text, status, response.statusText);
  return new ApiError(kindOfStatus(status), message, status, req.method, req.path, detailsFromBody(text));
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

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ApiError('network', 'Cancelled'));
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => { clearTimeout(t); reject(new ApiError('network', 'Cancelled')); }, { once: true });
  });
}
