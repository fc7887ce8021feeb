/**
 * An object as a file of a pulled folder: what a user may change, in one
 * canonical text (fixed key order, 2 spaces, LF, final newline), so pulling
 * again with nothing changed writes the same bytes and reformatting a file is
 * no change (hashes are taken of the canonical text).
 */
import { createHash } from 'node:crypto';
import type { Kind } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';

/** The server's to set: kept in the manifest (version) or not at all, never in a file. */
const notInFiles = ['ConcurrencyVersion', 'Notes', 'Links', 'Href', 'InFolderHref', 'InFolderKey'] as const;

/**
 * Stands for a secret the pull did not write; apply keeps the live value (auth0-deploy-cli #437).
 * @internal Exported for its unit test.
 */
export const secretPlaceholder = '(secret kept on the server: replace this text to send a new value)';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The file form of a live object: no server-owned fields, secrets as the placeholder. */
export function fileForm(kind: Kind, live: BaseInfo): BaseInfo {
  const out: BaseInfo = { ...live };
  for (const f of notInFiles) delete out[f];
  for (const f of kind.sensitiveFields ?? []) if (out[f] !== null && out[f] !== undefined) out[f] = secretPlaceholder;
  return out;
}

/** Top level: `$type`, `Key`, `CommonName`, the kind's own fields in schema order, the rest A–Z. Nested: `$type`, then A–Z. */
function ordered(value: Json, front: readonly string[]): Json {
  if (Array.isArray(value)) return value.map((v) => ordered(v, nestedFront));
  if (!value || typeof value !== 'object') return value;
  const out: { [key: string]: Json } = {};
  for (const k of orderOf(Object.keys(value), front)) out[k] = ordered(value[k], nestedFront);
  return out;
}
const nestedFront = ['$type'];

/** Key orders by the keys an object has (most objects of a folder share a few shapes: sorting once per shape). */
const orders = new Map<readonly string[], Map<string, readonly string[]>>();

function orderOf(keys: string[], front: readonly string[]): readonly string[] {
  let byShape = orders.get(front);
  if (!byShape) orders.set(front, (byShape = new Map<string, readonly string[]>()));
  const shape = keys.join('\u0000');
  let order = byShape.get(shape);
  if (!order) {
    const first = front.filter((k) => keys.includes(k));
    order = [...first, ...keys.filter((k) => !first.includes(k)).sort()];
    if (byShape.size < 1000) byShape.set(shape, order);
  }
  return order;
}

const fronts = new Map<string, readonly string[]>();

export function canonicalText(kind: Kind, object: BaseInfo): string {
  let front = fronts.get(kind.id);
  if (!front) fronts.set(kind.id, (front = ['$type', 'Key', 'CommonName', ...Object.keys(kind.template())]));
  return JSON.stringify(ordered(object as Json, front), null, 2) + '\n';
}

export function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/**
 * The PUT body: the live object with the file's fields laid over it, minus the
 * fields the file dropped since the pull (a PUT replaces the whole object);
 * server-owned fields and placeholder secrets from the live object.
 */
export function bodyToSend(kind: Kind, live: BaseInfo, base: BaseInfo | undefined, local: BaseInfo): BaseInfo {
  const body: BaseInfo = { ...live };
  for (const f of Object.keys(base ?? {})) if (!(f in local) && !isServerOwned(f)) delete body[f];
  for (const [f, v] of Object.entries(local)) if (!isServerOwned(f)) body[f] = v;
  for (const f of kind.sensitiveFields ?? []) if (local[f] === secretPlaceholder) body[f] = live[f];
  return body;
}

/** A new object's body from its file: a placeholder secret means "none". */
export function createBody(kind: Kind, local: BaseInfo): BaseInfo {
  const body: BaseInfo = { ...local };
  for (const f of notInFiles) delete body[f];
  for (const f of kind.sensitiveFields ?? []) if (body[f] === secretPlaceholder) body[f] = null;
  return body;
}

export function isServerOwned(field: string): boolean {
  return (notInFiles as readonly string[]).includes(field);
}

/** For people: NFC, lower case, `[a-z0-9-]`, at most 60 characters. */
export function slug(name: string | null | undefined): string {
  const s = (name ?? '').normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60).replace(/-+$/, '');
  return s || 'unnamed';
}

/** `<slug(CommonName)>.<Key>.json`: the Key inside the file identifies, the name is for people (and stays inside its directory). */
export function objectFileName(object: BaseInfo): string {
  return `${slug(object.CommonName)}.${(object.Key ?? 'new').replace(/[^\w-]/g, '_')}.json`;
}

/** One changed value between two objects, by JSON pointer (arrays by position). */
export interface FieldChange {
  pointer: string;
  from?: unknown;
  to?: unknown;
}

export function fieldChanges(from: unknown, to: unknown, pointer = ''): FieldChange[] {
  if (from === to) return [];
  const bothObjects = from && to && typeof from === 'object' && typeof to === 'object' && Array.isArray(from) === Array.isArray(to);
  if (!bothObjects) return [{ pointer, from, to }];
  const a = from as Record<string, unknown>, b = to as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.flatMap((k) => fieldChanges(a[k], b[k], `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`));
}
