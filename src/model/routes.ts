/**
 * The service's paths, in one place: the client builds its requests from
 * them and the sandbox routes by them, so the two cannot drift apart.
 */
import type { Action, Kind } from './kinds';
import { l10n } from '../l10n';

export const tokenPath = '/token';
export const instancePath = '/api';
export const sysinfoPath = '/api/sysinfo';
/** Every folder-scoped path starts with this, then the folder key. */
const folderPrefix = '/api/f';

/**
 * A key as one path segment. `.`/`..`, empty keys and keys holding `/` or `\`
 * are refused: percent-encoded or not, servers and proxies may resolve them
 * and address another object than the one meant.
 */
export function keySegment(key: string, what = 'key'): string {
  if (typeof key !== 'string' || key === '' || key === '.' || key === '..' || /[/\\]/.test(key)) {
    throw new RangeError(l10n.t('Not a valid {0}: {1}', what, JSON.stringify(key)));
  }
  return encodeURIComponent(key);
}

/**
 * Route patterns: the same paths with `:name` for a parameter segment. The
 * sandbox routes by them; the path builders below fill them in, so both sides
 * share one spelling of every path.
 */
export const folderPattern = `${folderPrefix}/:folder`;

export function collectionPattern(kind: Pick<Kind, 'collection'>): string {
  return `${folderPattern}/${kind.collection}`;
}

export function objectPattern(kind: Pick<Kind, 'collection'>): string {
  return `${collectionPattern(kind)}/:key`;
}

/** Notes: listed and added at `.../{key}/notes`, deleted at `.../notes/{noteKey}`. */
const notesSegment = 'notes';

export function notesPattern(kind: Pick<Kind, 'collection'>, oneNote = false): string {
  const base = `${objectPattern(kind)}/${notesSegment}`;
  return oneNote ? `${base}/:noteKey` : base;
}

const parameterNames: Record<string, string> = { folder: 'folder key', key: 'key', noteKey: 'note key' };

/** Each pattern split once into text and parameter names: `['/api/f/', 'folder', '/people/', 'key', '']`. */
const patternParts = new Map<string, string[]>();

/** A pattern with its `:name` segments replaced by encoded key segments. */
function fill(pattern: string, values: Record<string, string>): string {
  let parts = patternParts.get(pattern);
  if (!parts) patternParts.set(pattern, (parts = pattern.split(/:(\w+)/)));
  let path = parts[0];
  for (let i = 1; i < parts.length; i += 2) path += keySegment(values[parts[i]], parameterNames[parts[i]]) + parts[i + 1];
  return path;
}

export function folderPath(folderKey: string): string {
  return fill(folderPattern, { folder: folderKey });
}

export function collectionPath(kind: Pick<Kind, 'collection'>, folderKey: string): string {
  return fill(collectionPattern(kind), { folder: folderKey });
}

export function objectPath(kind: Pick<Kind, 'collection'>, folderKey: string, key: string): string {
  return fill(objectPattern(kind), { folder: folderKey, key });
}

export function notesPath(kind: Pick<Kind, 'collection'>, folderKey: string, key: string, noteKey?: string): string {
  return noteKey === undefined ? fill(notesPattern(kind), { folder: folderKey, key }) : fill(notesPattern(kind, true), { folder: folderKey, key, noteKey });
}

/** Where an action of the registry is sent: on one object, on a collection, or on a folder. */
export interface ActionRoute {
  method: 'POST' | 'DELETE';
  on: 'item' | 'collection' | 'folder';
  segment: string;
}

export const actionRoutes: Readonly<Record<Exclude<Action, 'editPriorities'>, ActionRoute>> & { pushNotification: ActionRoute } = {
  // POST .../engagesites/{key}/invite, body: the e-mail address as one JSON string.
  invite: { method: 'POST', on: 'item', segment: 'invite' },
  // POST .../people/complex, body: an array of PersonInfo.
  addPeople: { method: 'POST', on: 'collection', segment: 'complex' },
  // DELETE /api/f/{folder}/pushnotifications, with a PushNotificationRequest body (as the interface shows it).
  pushNotification: { method: 'DELETE', on: 'folder', segment: 'pushnotifications' },
};

/** The pattern of an action's route; `kind` is needed for item and collection actions. */
export function actionPattern(route: ActionRoute, kind?: Pick<Kind, 'collection'>): string {
  const base = route.on === 'folder' ? folderPattern : route.on === 'collection' ? collectionPattern(kind!) : objectPattern(kind!);
  return `${base}/${route.segment}`;
}

export function itemActionPath(route: ActionRoute, kind: Pick<Kind, 'collection'>, folderKey: string, key: string): string {
  return fill(actionPattern(route, kind), { folder: folderKey, key });
}

export function collectionActionPath(route: ActionRoute, kind: Pick<Kind, 'collection'>, folderKey: string): string {
  return fill(actionPattern(route, kind), { folder: folderKey });
}

export function folderActionPath(route: ActionRoute, folderKey: string): string {
  return fill(actionPattern(route), { folder: folderKey });
}

/** What an `Href` of the service points at: a folder, an object, or something below an object (`.../notes`). */
export type HrefTarget = { folderKey: string } | { folderKey: string; collection: string; key: string; rest: string[] };

/**
 * True when a path could leave the connection's origin and base path once a server, a proxy or
 * `new URL` resolves it: not one leading `/`, a backslash or white space, a `.` or `..` segment (raw
 * or percent-encoded), an encoded slash. Links are checked with it before they are followed, and the
 * HTTP layer checks every path again (api/http.ts).
 */
export function leavesBase(path: string): boolean {
  const p = path.split(/[?#]/)[0];
  return (
    !p.startsWith('/') ||
    p.startsWith('//') ||
    /[\\\s]/.test(path) ||
    /%(2f|5c)/i.test(p) ||
    p.split('/').some((segment) => ['.', '..'].includes(segment.replace(/%2e/gi, '.')))
  );
}

/** Reads `/api/f/{folder}[/{collection}/{key}[/...]]` (query and fragment ignored); undefined for anything else. */
export function parseHref(href: string): HrefTarget | undefined {
  if (leavesBase(href)) return undefined;
  const path = href.split(/[?#]/)[0];
  if (!path.startsWith(`${folderPrefix}/`)) return undefined;
  let parts: string[];
  try {
    parts = path
      .slice(folderPrefix.length + 1)
      .split('/')
      .filter(Boolean)
      .map(decodeURIComponent);
  } catch {
    return undefined;
  }
  if (parts.length === 1) return { folderKey: parts[0] };
  if (parts.length < 3) return undefined;
  return { folderKey: parts[0], collection: parts[1], key: parts[2], rest: parts.slice(3) };
}
