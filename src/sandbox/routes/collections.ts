/**
 * The collection handlers: list/get/create/update/delete of every kind of the
 * registry at `/api/f/{folder}/{collection}[/{key}]`. `endpoints.ts` routes a
 * kind's operations (and those browsing assumes) here.
 */
import type { Kind, Operation } from '../../model/kinds';
import { namingOf } from '../../model/typeName';
import type { BaseInfo } from '../../model/types';
import { checkObject, typeFromCollection } from './checks';
import type { FolderRequest, SandboxContext } from './context';
import { createObject } from '../store/creation';
import { ErrorDetail, HttpError, noContent, notFound, readJsonSized, Reply } from '../http/replies';
import { checkInput, pagingSchema } from './inputs';
import { conditional } from '../http/etag';
import { digestOf } from '../store/pageCache';
import { keyAddresses, placeObject } from '../store/objects';

const defaultPageSize = 100;
const maxPageSize = 1000;

/** Operations the sandbox serves for a kind: those the registry says the service offers. */
export function servedOperations(kind: Kind): Set<Operation> {
  return new Set(kind.operations);
}

/** The stored object at `{folder}/{collection}/{key}`, else 404. */
export function storedObject(ctx: SandboxContext, r: FolderRequest, kind: Kind): BaseInfo {
  const key = r.params.key.toLowerCase();
  const obj = ctx.store.get(r.folderKey, kind.id, key);
  if (!obj) throw notFound(`No ${kind.label.toLowerCase()} ${key} in folder ${r.folderKey}`);
  return obj;
}

/** `?page=` (0-based) and `?pageSize=` (default 100, larger values are cut to 1000); creation order. With an ETag (304 when unchanged). */
export function list(ctx: SandboxContext, r: FolderRequest, kind: Kind): Reply {
  const query = Object.fromEntries(['page', 'pageSize'].filter((n) => r.query.get(n)).map((n) => [n, r.query.get(n)]));
  checkInput(pagingSchema, query, 'Query parameters page and pageSize must be whole numbers (pageSize at least 1)');
  const page = Number(query.page ?? 0);
  const pageSize = Math.min(Number(query.pageSize ?? defaultPageSize), maxPageSize);
  const from = page * pageSize;
  const digest = ctx.store.pageDigest(r.folderKey, kind.id, from, pageSize);
  return conditional(r.req, digest, () => ({ status: 200, bytes: ctx.store.pageBytes(r.folderKey, kind.id, from, pageSize) }));
}

/** The object, with an ETag (304 when unchanged). */
export function read(ctx: SandboxContext, r: FolderRequest, kind: Kind): Reply {
  const text = ctx.store.text(storedObject(ctx, r, kind));
  return conditional(r.req, digestOf(text), () => ({ status: 200, text }));
}

export async function create(ctx: SandboxContext, r: FolderRequest, kind: Kind): Promise<Reply> {
  const { value, bytes } = await readJsonSized(r.req, ctx.maxBodyBytes);
  typeFromCollection(kind, value, ctx.store.instance);
  checkObject(kind, value, bytes);
  const placed = createObject(ctx, kind, r.folderKey, value as BaseInfo);
  await ctx.store.persist();
  return { status: 201, text: ctx.store.text(placed), headers: { Location: placed.Href as string } };
}

/**
 * Full replacement. Key must equal the path's key, Href (when sent) the
 * object's Href, and ConcurrencyVersion the stored version: a missing or
 * different version is a 409. Notes and Links stay as stored (notes are added
 * with POST .../notes, never by a PUT). The version goes up by one.
 */
export async function update(ctx: SandboxContext, r: FolderRequest, kind: Kind): Promise<Reply> {
  storedObject(ctx, r, kind);
  const key = r.params.key.toLowerCase();
  const { value, bytes } = await readJsonSized(r.req, ctx.maxBodyBytes);
  checkObject(kind, value, bytes);
  const b = value as BaseInfo;
  const errors: ErrorDetail[] = [];
  if (typeof b.Key !== 'string' || b.Key.toLowerCase() !== key) {
    errors.push({ pointer: '/Key', message: `must be the key in the path, ${key} (got ${JSON.stringify(b.Key ?? null)})` });
  }
  // Everything from here to the store's replace runs without awaiting: the check-and-set is atomic.
  const stored = storedObject(ctx, r, kind);
  if (b.Href != null && b.Href !== stored.Href) {
    errors.push({ pointer: '/Href', message: `must be ${stored.Href} (got ${JSON.stringify(b.Href)})` });
  }
  if (b.InFolderKey != null && b.InFolderKey !== stored.InFolderKey) {
    errors.push({ pointer: '/InFolderKey', message: `must be ${stored.InFolderKey}: objects cannot be moved by an update` });
  }
  if (errors.length)
    throw new HttpError(400, `The update does not match the object at this path: ${errors.map((e) => `${e.pointer} ${e.message}`).join('; ')}`, errors);
  const current = stored.ConcurrencyVersion ?? 0;
  if (b.ConcurrencyVersion === undefined || b.ConcurrencyVersion === null) {
    throw new HttpError(409, `ConcurrencyVersion is required on update: send the version you read (the stored version is ${current})`, [
      { pointer: '/ConcurrencyVersion', message: 'is required' },
    ]);
  }
  if (b.ConcurrencyVersion !== current) {
    throw new HttpError(
      409,
      `The ${kind.label.toLowerCase()} was changed by someone else: your ConcurrencyVersion is ${b.ConcurrencyVersion}, the stored version is ${current}. ` +
        'Read it again and reapply your changes.',
      [{ pointer: '/ConcurrencyVersion', message: `is ${b.ConcurrencyVersion}, stored is ${current}` }],
    );
  }
  const next = placeObject(
    { ...b, Notes: stored.Notes ?? [] },
    {
      kind,
      folderKey: r.folderKey,
      key,
      version: current + 1,
      naming: namingOf(b),
      instance: { key: ctx.store.instanceKey, name: String(ctx.store.instance.CommonName ?? '') },
    },
  );
  keyAddresses(next, ctx.newKey);
  ctx.store.replace(key, next);
  await ctx.store.persist();
  return noContent();
}

export async function remove(ctx: SandboxContext, r: FolderRequest, kind: Kind): Promise<Reply> {
  ctx.store.remove(storedObject(ctx, r, kind).Key as string);
  await ctx.store.persist();
  return noContent();
}
