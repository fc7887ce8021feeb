/** One error type for every failed call, with a kind the UI can act on. */

export type ApiErrorKind =
  | 'auth' // 401: token missing, expired or refused
  | 'permission' // 403
  | 'notFound' // 404
  | 'conflict' // 409 (version or duplicate)
  | 'validation' // 400, 413, 415, 422
  | 'rateLimit' // 429
  | 'server' // 5xx and anything else unexpected
  | 'tooLarge' // the answer passed the size cap (never retried)
  | 'network' // no answer, or an answer cut short: refused, reset, DNS
  | 'timeout'; // no answer in time

export class ApiError extends Error {
  /** A 401 whose challenge says the token itself was refused (RFC 6750 `invalid_token`): nothing was done. */
  readonly tokenRefused?: boolean;
  /** No token is held (signed out): the request was not sent. */
  readonly notSignedIn?: boolean;
  /** The server's Retry-After of a 429 or 503, in ms (capped by the HTTP function's longest wait). */
  readonly retryAfterMs?: number;

  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status?: number,
    readonly method?: string,
    readonly path?: string,
    /** JSON pointers and messages when the server named the failing fields. */
    readonly details: ReadonlyArray<{ pointer?: string; message: string }> = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function kindOfStatus(status: number): ApiErrorKind {
  switch (status) {
    case 401:
      return 'auth';
    case 403:
      return 'permission';
    case 404:
      return 'notFound';
    case 409:
    case 412:
      return 'conflict';
    case 400:
    case 413:
    case 415:
    case 422:
      return 'validation';
    case 429:
      return 'rateLimit';
    default:
      return 'server';
  }
}

const messageKeys = ['Message', 'message', 'error_description', 'ExceptionMessage', 'error', 'title', 'detail'];

/**
 * A readable message from an error body of any shape: a JSON string, an object
 * with one of the usual message fields, nested `error` objects, or plain text.
 */
export function messageFromBody(body: string, status: number, statusText: string): string {
  const fallback = `${status} ${statusText || 'error'}`.trim();
  const text = body.trim();
  if (!text) return fallback;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Plain text or HTML: keep the first line, without markup, short.
    const plain = text
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return plain ? plain.slice(0, 300) : fallback;
  }
  return findMessage(parsed) ?? fallback;
}

function findMessage(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (!value || typeof value !== 'object' || depth > 3) return undefined;
  for (const key of messageKeys) {
    const found = findMessage((value as Record<string, unknown>)[key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Field-level details (`Errors: [{pointer, message}]`) when the body has them. */
export function detailsFromBody(body: string): Array<{ pointer?: string; message: string }> {
  try {
    const parsed = JSON.parse(body) as { Errors?: unknown };
    if (!Array.isArray(parsed?.Errors)) return [];
    return parsed.Errors.filter((e): e is { pointer?: string; message: string } => typeof (e as { message?: unknown } | null)?.message === 'string');
  } catch {
    return [];
  }
}
