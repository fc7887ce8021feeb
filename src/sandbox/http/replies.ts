/**
 * HTTP helpers of the sandbox: replies, errors, bounded body reading.
 * Every handler returns a `Reply` or throws an `HttpError`; the server sends it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface ErrorDetail {
  pointer: string;
  message: string;
}

/** What a handler answers. No `body`, `text` or `bytes`: no body (204 and the like); `text` and `bytes` are a body already in JSON. */
export interface Reply {
  status: number;
  body?: unknown;
  text?: string;
  bytes?: Buffer;
  headers?: Record<string, string>;
}

/**
 * A failed request. The body sent is `{"Message": ..., "Errors"?: [{pointer, message}]}`,
 * or `raw` as is when given (the OAuth error shape of `POST /token`).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: ErrorDetail[],
    readonly headers?: Record<string, string>,
    readonly raw?: unknown,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function errorBody(err: HttpError): unknown {
  if (err.raw !== undefined) return err.raw;
  return err.errors && err.errors.length ? { Message: err.message, Errors: err.errors } : { Message: err.message };
}

export function send(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...reply.headers };
  if (reply.body === undefined && reply.text === undefined && reply.bytes === undefined) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const content = reply.bytes ?? reply.text ?? JSON.stringify(reply.body);
  headers['Content-Type'] = 'application/json; charset=utf-8';
  headers['Content-Length'] = String(typeof content === 'string' ? Buffer.byteLength(content) : content.length);
  res.writeHead(reply.status, headers);
  res.end(content);
}

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return { status, body, headers };
}

export function noContent(): Reply {
  return { status: 204 };
}

/** True when the request announces a body (a non-zero length or a chunked transfer). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/**
 * Reads the whole body, or throws 413 as soon as it passes `maxBytes`
 * (without buffering the rest; the server drains and closes the connection).
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    return Promise.reject(tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        chunks.length = 0;
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = (e: Error) => {
      cleanup();
      reject(new HttpError(400, `Could not read the request body: ${e.message}`));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, `The request body is larger than the limit of ${maxBytes} bytes`);
}

function isJsonContentType(req: IncomingMessage): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** Deepest nesting of arrays and objects a body may have; deeper ones are refused before anything is stored. */
const maxDepth = 64;

/**
 * Refuses JSON text nested deeper than `maxDepth`: one pass over the
 * characters, before parsing (so neither parsing nor anything later recurses
 * deep). String contents are skipped with `indexOf`, most of a body's bytes.
 */
function checkDepth(text: string): void {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = stringEnd(text, i);
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) throw new HttpError(400, `The request body is nested deeper than ${maxDepth} levels`);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/** Index of the quote closing the string opened at `open` (the text's length when there is none). */
function stringEnd(text: string, open: number): number {
  for (let q = text.indexOf('"', open + 1); q !== -1; q = text.indexOf('"', q + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return q;
  }
  return text.length;
}

/**
 * The JSON body of a request that needs one: 400 when absent, malformed or
 * nested deeper than `maxDepth`, 415 when it is not `application/json`, 413
 * when too large. `bytes` is the body's size.
 */
export async function readJsonSized(req: IncomingMessage, maxBytes: number): Promise<{ value: unknown; bytes: number }> {
  if (!hasBody(req)) throw new HttpError(400, 'A JSON request body is required');
  if (!isJsonContentType(req)) {
    const type = req.headers['content-type'] ?? 'none';
    throw new HttpError(415, `Request bodies must be application/json (got ${type})`);
  }
  const buffer = await readBody(req, maxBytes);
  const text = buffer.toString('utf8').replace(/^\uFEFF/, '');
  if (!text.trim()) throw new HttpError(400, 'A JSON request body is required');
  return { value: parseJson(text), bytes: buffer.length };
}

/** JSON text of a request: 400 when nested deeper than `maxDepth` or malformed. */
export function parseJson(text: string): unknown {
  checkDepth(text);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new HttpError(400, `The request body is not valid JSON: ${(e as Error).message}`);
  }
}

/** `readJsonSized` without the size. */
export async function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  return (await readJsonSized(req, maxBytes)).value;
}

export function methodNotAllowed(method: string, allowed: readonly string[]): HttpError {
  const list = allowed.length ? allowed.join(', ') : 'none';
  return new HttpError(405, `Method ${method} is not allowed here (allowed: ${list})`, undefined, { Allow: allowed.join(', ') });
}

export function notFound(what: string): HttpError {
  return new HttpError(404, what);
}
