/**
 * An object as a file of a pulled folder: what a user may change, in one
 * canonical text (fixed key order, 2 spaces, LF, final newline), so pulling
 * again with nothing changed writes the same bytes and reformatting a file is
 * no change (hashes are taken of the canonical text).
 */
import { createHash } from 'node:crypto';
import { type Kind, serverOwnedFields } from '../../model/kinds';
import { sameJson } from '../../model/saveChecks';
import type { BaseInfo } from '../../model/types';
import { keyPart } from './safePaths';

/**
 * The server's to set (`$type` and `Key` identify the object, so a file keeps them): in the manifest (version) or nowhere.
 * @internal Also read by scripts/fileSchemas.ts (the schema of pulled files).
 */
export const notInFiles: readonly string[] = serverOwnedFields.filter((f) => f !== '$type' && f !== 'Key');

/** Stands for a secret the pull did not write; apply keeps the live value (auth0-deploy-cli #437). A plan shows it as it is. */
export const secretPlaceholder = '(secret kept on the server: replace this text to send a new value)';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The file form of a live object: no server-owned fields, secrets as the placeholder. */
export function fileForm(kind: Kind, live: BaseInfo): BaseInfo {
  const out = {} as BaseInfo;
  // Copied field by field rather than spread and deleted from: an object with deleted fields is a slow one to serialise.
  for (const f of Object.keys(live)) if (!serverOwned.has(f)) out[f] = live[f];
  for (const f of kind.sensitiveFields ?? []) if (out[f] !== null && out[f] !== undefined) out[f] = secretPlaceholder;
  return out;
}
const serverOwned: ReadonlySet<string> = new Set(notInFiles);

/**
 * Top level: `$type`, `Key`, `CommonName`, the kind's own fields in schema order, the rest A–Z. Nested: `$type`, then A–Z.
 * A value already in that order is returned as it is (no copy: most nested objects of a pull are). `levels`: how many
 * more levels of objects and arrays it may nest (its walk is the depth check a pull makes of each object it writes).
 */
function ordered(value: Json, front: readonly string[], levels: number): Json {
  if (!value || typeof value !== 'object') return value;
  if (levels < 0) throw new TooDeep();
  if (Array.isArray(value)) {
    let out: Json[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = ordered(value[i], nestedFront, levels - 1);
      if (!out && v !== value[i]) out = value.slice(0, i);
      out?.push(v);
    }
    return out ?? value;
  }
  const { keys, inOrder } = orderOf(Object.keys(value), front);
  let out: { [key: string]: Json } | undefined = inOrder ? undefined : {};
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const v = ordered(value[k], nestedFront, levels - 1);
    if (!out && v !== value[k]) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]] = value[keys[j]];
    }
    if (out) out[k] = v;
  }
  return out ?? value;
}
const nestedFront = ['$type'];

/** Key orders by the keys an object has (most objects of a folder share a few shapes: sorting once per shape). */
interface Order {
  from: readonly string[];
  keys: readonly string[];
  inOrder: boolean;
}
interface Orders {
  byShape: Map<string, Order>;
  recent: Order[];
}
const orders = new Map<readonly string[], Orders>();

function orderOf(keys: string[], front: readonly string[]): Order {
  let known = orders.get(front);
  if (!known) orders.set(front, (known = { byShape: new Map(), recent: [] }));
  // The few shapes seen last, compared key by key: no shape string to build for most objects.
  for (const o of known.recent) if (sameKeys(o.from, keys)) return o;
  const shape = keys.join('\u0000');
  let order = known.byShape.get(shape);
  if (!order) {
    const first = front.filter((k) => keys.includes(k));
    const sorted = [...first, ...keys.filter((k) => !first.includes(k)).sort()];
    order = { from: keys, keys: sorted, inOrder: sorted.every((k, i) => k === keys[i]) };
    if (known.byShape.size < 1000) known.byShape.set(shape, order);
  }
  known.recent.unshift(order);
  if (known.recent.length > 4) known.recent.pop();
  return order;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const fronts = new Map<string, readonly string[]>();

/** The file's text of an object; throws `TooDeep` when it nests more than `maxDepth` levels below its top. */
export function canonicalText(kind: Kind, object: BaseInfo, maxDepth = Infinity): string {
  let front = fronts.get(kind.id);
  if (!front) fronts.set(kind.id, (front = ['$type', 'Key', 'CommonName', ...Object.keys(kind.template())]));
  return JSON.stringify(ordered(object as Json, front, maxDepth), null, 2) + '\n';
}

export class TooDeep extends Error {}

/** Of the text, or of its UTF-8 bytes (the same hash). */
export function hashOf(text: string | Buffer): string {
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
  return serverOwned.has(field);
}

/** For people: NFC, lower case, `[a-z0-9-]`, at most 60 characters. */
export function slug(name: unknown): string {
  const s = (typeof name === 'string' ? name : '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return s || 'unnamed';
}

/** `<slug(CommonName)>.<Key>.json`: the Key inside the file identifies, the name is for people (and stays inside its directory). */
export function objectFileName(object: BaseInfo): string {
  return `${slug(object.CommonName)}.${keyPart(typeof object.Key === 'string' && object.Key ? object.Key : 'new')}.json`;
}

/** `<slug(CommonName)>.<Key>`: a folder's directory, one component whatever the server calls it. */
export function folderDirName(folder: BaseInfo, key: string): string {
  return `${slug(folder.CommonName)}.${keyPart(key)}`;
}

/** One changed value between two objects, by JSON pointer. */
export interface FieldChange {
  pointer: string;
  from?: unknown;
  to?: unknown;
}

/** Leaf by leaf: objects field by field, arrays of the same length item by item, other arrays whole; not the top-level version. */
export function fieldChanges(from: unknown, to: unknown, pointer = ''): FieldChange[] {
  if (from === to || sameJson(from, to)) return [];
  const bothObjects = isPlain(from) && isPlain(to);
  const sameLengthArrays = Array.isArray(from) && Array.isArray(to) && from.length === to.length;
  if (!bothObjects && !sameLengthArrays) return [{ pointer, from, to }];
  const a = from as Record<string, unknown>,
    b = to as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => k !== 'ConcurrencyVersion' || pointer !== '')
    .flatMap((k) => fieldChanges(a[k], b[k], `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`));
}

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
