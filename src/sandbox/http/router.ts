/**
 * The sandbox's route table: method + pattern + handler. Patterns are the
 * service's paths from `src/model/routes.ts` (`:name` marks a parameter);
 * a path that matches with another method is a 405 naming the allowed ones.
 */
import { HttpError, methodNotAllowed, notFound } from './replies';

export type Params = Readonly<Record<string, string>>;

export interface Route<H> {
  method: string;
  pattern: string;
  handler: H;
}

interface Compiled<H> extends Route<H> {
  /** Literal segments in lower case; parameters as `:name`. */
  segments: string[];
  /** How many segments are literal: the more, the better a match. */
  literals: number;
}

interface Match<H> {
  handler: H;
  params: Params;
}

/** The decoded segments of a path, empty ones dropped; `.`/`..` (encoded or not) and bad encodings are refused. */
export function pathSegments(pathname: string): string[] {
  const segments: string[] = [];
  for (const raw of pathname.split('/')) {
    if (!raw) continue;
    let s = raw;
    if (raw.includes('%')) {
      try {
        s = decodeURIComponent(raw);
      } catch {
        throw new HttpError(400, 'The request path is not valid URL encoding');
      }
    }
    if (s === '.' || s === '..') throw new HttpError(400, 'The request path must not hold "." or ".." segments');
    segments.push(s);
  }
  return segments;
}

export class Router<H> {
  /** Routes by their number of segments: a path is compared with those of its length only. */
  private readonly byLength = new Map<number, Compiled<H>[]>();

  add(method: string, pattern: string, handler: H): this {
    const segments = pattern.split('/').filter(Boolean).map((s) => (s.startsWith(':') ? s : s.toLowerCase()));
    const literals = segments.filter((s) => !s.startsWith(':')).length;
    const list = this.byLength.get(segments.length) ?? [];
    list.push({ method, pattern, handler, segments, literals });
    this.byLength.set(segments.length, list);
    return this;
  }

  /**
   * The handler for this method and path; 404 when no pattern fits, 405 when
   * only other methods do. Literal segments win over parameters
   * (`people/complex` is the batch, whatever the method, not a person's key).
   */
  match(method: string, segments: readonly string[]): Match<H> {
    let best = -1;
    let found: Match<H> | undefined;
    let allowed: string[] = [];
    const lower = segments.map((s) => s.toLowerCase());
    for (const route of this.byLength.get(segments.length) ?? []) {
      const params = matchSegments(route.segments, segments, lower);
      if (!params) continue;
      const literals = route.literals;
      if (literals < best) continue;
      if (literals > best) {
        best = literals;
        found = undefined;
        allowed = [];
      }
      if (route.method === method) found ??= { handler: route.handler, params };
      else if (!allowed.includes(route.method)) allowed.push(route.method);
    }
    if (found) return found;
    if (allowed.length) throw methodNotAllowed(method, allowed);
    throw notFound(`No route /${segments.map(encodeURIComponent).join('/')}`);
  }
}

/** The parameters when `pattern` fits (literals compared with the segments in lower case), else undefined. */
function matchSegments(pattern: readonly string[], segments: readonly string[], lower: readonly string[]): Record<string, string> | undefined {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i].charCodeAt(0) !== 0x3a && pattern[i] !== lower[i]) return undefined;
  }
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) if (pattern[i].charCodeAt(0) === 0x3a) params[pattern[i].slice(1)] = segments[i];
  return params;
}
