/**
 * The one collection handler: serves every kind of the registry at
 * `/api/f/{folder}/{collection}[/{key}]` according to the kind's operations
 * (and the operations browsing assumes). Adding a kind is a registry entry.
 */
import type { Kind, Operation } from '../model/kinds';
import { namingOf } from '../model/typeName';
import type { BaseInfo } from '../model/types';
import { collectionActions, itemActions } from './actions';
import { checkObject } from './checks';
import type { FolderRequest, SandboxContext } from './context';
import { ErrorDetail, HttpError, json, methodNotAllowed, noContent, notFound, readJson, Reply } from './http';
import { handleNotes } from './notes';
import { createObject } from './creation';
import { keyAddresses, placeObject } from './objects';

const defaultPageSize = 100;
const maxPageSize = 1000;

const collectionMethods: Record<string, Operation> = { GET: 'list', POST: 'create' };
const itemMethods: Record<string, Operation> = { GET: 'get', PUT: 'update', DELETE: 'delete' };

/**
 * Operations the sandbox serves for a kind: those the service offers and those browsing assumes.
 * @internal Exported for its unit test.
 */
export function servedOperations(kind: Kind): Set<Operation> {
  return new Set(kind.operations);
}

function allowedMethods(table: Record<string, Operation>, ops: Set<Operation>): string[] {
  return Object.entries(table).filter(([, op]) => ops.has(op)).map(([m]) => m);
}

export async function handleCollection(ctx: SandboxContext, r: FolderRequest, kind: Kind, rest: string[]): Promise<Reply> {
  const ops = servedOperations(kind);
  if (rest.length === 0) {
    const op = collectionMethods[r.method];
    if (!op || !ops.has(op)) throw methodNotAllowed(r.method, allowedMethods(collectionMethods, ops));
    return op === 'list' ? list(ctx, r, kind) : create(ctx, r, kind);
  }

  if (rest.length === 1) {
    const action = collectionActions.find((a) => a.segment === rest[0] && kind.actions.includes(a.action));
    if (action) {
      if (r.method !== action.method) throw methodNotAllowed(r.method, [action.method]);
      return action.run(ctx, r, kind);
    }
  }

  const key = rest[0].toLowerCase();
  if (rest.length === 1) {
    const op = itemMethods[r.method];
    if (!op || !ops.has(op)) throw methodNotAllowed(r.method, allowedMethods(itemMethods, ops));
    const found = ctx.store.get(r.folderKey, kind.id, key);
    if (!found) throw notFound(`No ${kind.label.toLowerCase()} ${key} in folder ${r.folderKey}`);
    if (op === 'get') return json(200, found);
    if (op === 'delete') return remove(ctx, key);
    return update(ctx, r, kind, key);
  }

  if (!ops.has('get')) throw notFound(`No route ${rest.join('/')} under ${kind.collection}`);
  if (rest[1] === 'notes') return handleNotes(ctx, r, kind, key, rest.slice(2));
  const action = itemActions.find((a) => a.segment === rest[1] && kind.actions.includes(a.action));
  if (!action || rest.length !== 2) throw notFound(`No route ${rest.join('/')} under ${kind.collection}`);
  if (r.method !== action.method) throw methodNotAllowed(r.method, [action.method]);
  const target = ctx.store.get(r.folderKey, kind.id, key);
  if (!target) throw notFound(`No ${kind.label.toLowerCase()} ${key} in folder ${r.folderKey}`);
  return action.run(ctx, r, kind, target);
}

function pagingNumber(query: URLSearchParams, name: string, fallback: number, min: number): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new HttpError(400, `Query parameter ${name} must be an integer of at least ${min} (got "${raw}")`);
  return n;
}

/** `?page=` (0-based) and `?pageSize=` (default 100, larger values are cut to 1000); creation order. */
function list(ctx: SandboxContext, r: FolderRequest, kind: Kind): Reply {
  const page = pagingNumber(r.query, 'page', 0, 0);
  const pageSize = Math.min(pagingNumber(r.query, 'pageSize', defaultPageSize, 1), maxPageSize);
  const all = ctx.store.list(r.folderKey, kind.id);
  return json(200, all.slice(page * pageSize, (page + 1) * pageSize));
}

function asObject(body: unknown): BaseInfo {
  return body as BaseInfo;
}

async function create(ctx: SandboxContext, r: FolderRequest, kind: Kind): Promise<Reply> {
  const body = await readJson(r.req, ctx.maxBodyBytes);
  checkObject(kind, body);
  const placed = createObject(ctx, kind, r.folderKey, asObject(body));
  await ctx.store.persist();
  return json(201, placed, { Location: placed.Href as string });
}

/**
 * Full replacement. Key must equal the path's key, Href (when sent) the
 * object's Href, and ConcurrencyVersion the stored version: a missing or
 * different version is a 409. Notes and Links stay as stored (notes are added
 * with POST .../notes, never by a PUT). The version goes up by one.
 */
async function update(ctx: SandboxContext, r: FolderRequest, kind: Kind, key: string): Promise<Reply> {
  const body = await readJson(r.req, ctx.maxBodyBytes);
  checkObject(kind, body);
  const b = asObject(body);
  const errors: ErrorDetail[] = [];
  if (typeof b.Key !== 'string' || b.Key.toLowerCase() !== key) {
    errors.push({ pointer: '/Key', message: `must be the key in the path, ${key} (got ${JSON.stringify(b.Key ?? null)})` });
  }
  // Everything from here to the store's replace runs without awaiting: the check-and-set is atomic.
  const stored = ctx.store.get(r.folderKey, kind.id, key);
  if (!stored) throw notFound(`No ${kind.label.toLowerCase()} ${key} in folder ${r.folderKey}`);
  if (b.Href != null && b.Href !== stored.Href) {
    errors.push({ pointer: '/Href', message: `must be ${stored.Href} (got ${JSON.stringify(b.Href)})` });
  }
  if (b.InFolderKey != null && b.InFolderKey !== stored.InFolderKey) {
    errors.push({ pointer: '/InFolderKey', message: `must be ${stored.InFolderKey}: objects cannot be moved by an update` });
  }
  if (errors.length) throw new HttpError(400, `The update does not match the object at this path: ${errors.map((e) => `${e.pointer} ${e.message}`).join('; ')}`, errors);
  const current = stored.ConcurrencyVersion ?? 0;
  if (b.ConcurrencyVersion === undefined || b.ConcurrencyVersion === null) {
    throw new HttpError(409, `ConcurrencyVersion is required on update: send the version you read (the stored version is ${current})`,
      [{ pointer: '/ConcurrencyVersion', message: 'is required' }]);
  }
  if (b.ConcurrencyVersion !== current) {
    throw new HttpError(409, `The ${kind.label.toLowerCase()} was changed by someone else: your ConcurrencyVersion is ${b.ConcurrencyVersion}, the stored version is ${current}. Read it again and reapply your changes.`,
      [{ pointer: '/ConcurrencyVersion', message: `is ${b.ConcurrencyVersion}, stored is ${current}` }]);
  }
  const next = placeObject({ ...b, Notes: stored.Notes ?? [] }, {
    kind, folderKey: r.folderKey, key, version: current + 1, naming: namingOf(b),
    instance: { key: ctx.store.instanceKey, name: String(ctx.store.instance.CommonName ?? '') },
  });
  keyAddresses(next, ctx.newKey);
  ctx.store.replace(key, next);
  await ctx.store.persist();
  return noContent();
}

async function remove(ctx: SandboxContext, key: string): Promise<Reply> {
  ctx.store.remove(key);
  await ctx.store.persist();
  return noContent();
}
