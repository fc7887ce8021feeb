/**
 * The sandbox's route table: method + pattern + handler. Patterns are the
 * service's paths from `src/model/routes.ts` (`:name` marks a parameter);
 * a path that matches with another method is a 405 naming the allowed ones.
 */
import { HttpError, methodNotAllowed, notFound } from './replies';

export type Params = Readonly<Record<string, string>>;

/** A node of the route tree: one per path segment position. */
interface Node<H> {
  /** Children by literal segment, in lower case. */
  literals: Map<string, Node<H>>;
  /** The child for a parameter segment (`:name`). */
  param?: Node<H>;
  /** Where a pattern ends: its handler by method, with its parameters' names in order and the pattern itself. */
  ends: Map<string, { handler: H; names: string[]; pattern: string }>;
}

interface Match<H> {
  handler: H;
  params: Params;
  /** The pattern matched (`/api/f/:folder/...`): what the sandbox's counters count by. */
  pattern: string;
}

const node = <H>(): Node<H> => ({ literals: new Map(), ends: new Map() });

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

/**
 * Patterns as a tree of segments, so a lookup walks the path once instead of
 * comparing it with every pattern of its length (bench/libraries.bench.ts
 * measures it beside find-my-way).
 */
export class Router<H> {
  private readonly root = node<H>();

  add(method: string, pattern: string, handler: H): this {
    let at = this.root;
    const names: string[] = [];
    for (const segment of pattern.split('/').filter(Boolean)) {
      if (segment.startsWith(':')) {
        names.push(segment.slice(1));
        at = at.param ??= node();
      } else {
        const literal = segment.toLowerCase();
        let next = at.literals.get(literal);
        if (!next) at.literals.set(literal, (next = node()));
        at = next;
      }
    }
    at.ends.set(method, { handler, names, pattern });
    return this;
  }

  /**
   * The handler for this method and path; 404 when no pattern fits, 405 when
   * only other methods do. Literal segments win over parameters
   * (`people/complex` is the batch, whatever the method, not a person's key).
   */
  match(method: string, segments: readonly string[]): Match<H> {
    const values: string[] = [];
    const end = find(this.root, segments, 0, values);
    const route = end?.ends.get(method);
    if (route) {
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        params[name] = values[i];
      });
      return { handler: route.handler, params, pattern: route.pattern };
    }
    if (end) throw methodNotAllowed(method, [...end.ends.keys()]);
    throw notFound(`No route /${segments.map(encodeURIComponent).join('/')}`);
  }
}

/** The node where a pattern fitting `segments` ends, literals tried before parameters; `values` gets the parameters. */
function find<H>(at: Node<H>, segments: readonly string[], i: number, values: string[]): Node<H> | undefined {
  if (i === segments.length) return at.ends.size ? at : undefined;
  const segment = segments[i];
  const literal = at.literals.get(segment) ?? at.literals.get(segment.toLowerCase());
  const found = literal && find(literal, segments, i + 1, values);
  if (found) return found;
  if (!at.param) return undefined;
  values.push(segment);
  const viaParam = find(at.param, segments, i + 1, values);
  if (!viaParam) values.pop();
  return viaParam;
}
