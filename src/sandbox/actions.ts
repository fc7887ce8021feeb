/**
 * Operations beyond CRUD. Item and collection actions are enabled by the
 * kind's `actions` in the registry; the push notification is a folder command.
 */
import type { Action, Kind } from '../model/kinds';
import type { BaseInfo } from '../model/types';
import { bodyErrors, describeErrors } from './checks';
import { createObject } from './creation';
import type { FolderRequest, SandboxContext } from './context';
import { ErrorDetail, HttpError, json, methodNotAllowed, noContent, readJson, Reply } from './http';

export interface ItemAction {
  action: Action;
  /** Path segment after `{collection}/{key}/`. */
  segment: string;
  method: string;
  run(ctx: SandboxContext, r: FolderRequest, kind: Kind, target: BaseInfo): Promise<Reply>;
}

export interface CollectionAction {
  action: Action;
  /** Path segment after `{collection}/`. */
  segment: string;
  method: string;
  run(ctx: SandboxContext, r: FolderRequest, kind: Kind): Promise<Reply>;
}

const emailPattern = /^[^\s@"<>(),;:]+@[^\s@"<>(),;:]+\.[^\s@"<>(),;:]+$/;

export const itemActions: readonly ItemAction[] = [
  {
    // POST .../engagesites/{key}/invite with a JSON string body: the e-mail address.
    action: 'invite', segment: 'invite', method: 'POST',
    async run(ctx, r, _kind, target) {
      const body = await readJson(r.req, ctx.maxBodyBytes);
      if (typeof body !== 'string') {
        throw new HttpError(400, 'The invite body must be a single JSON string holding an e-mail address, e.g. "user@example.com"',
          [{ pointer: '', message: 'must be a string' }]);
      }
      if (!emailPattern.test(body.trim())) {
        throw new HttpError(400, `"${body}" is not an e-mail address`, [{ pointer: '', message: 'must be an e-mail address' }]);
      }
      ctx.store.outbox.push({ kind: 'invite', at: ctx.now().toISOString(), folderKey: r.folderKey, objectKey: target.Key as string, body: body.trim() });
      await ctx.store.persist();
      return noContent();
    },
  },
];

export const collectionActions: readonly CollectionAction[] = [
  {
    // POST /api/f/{folder}/people/complex: all or nothing; answers the count added.
    action: 'addPeople', segment: 'complex', method: 'POST',
    async run(ctx, r, kind) {
      const body = await readJson(r.req, ctx.maxBodyBytes);
      if (!Array.isArray(body)) {
        throw new HttpError(400, `The batch body must be a JSON array of ${kind.typeName} objects`, [{ pointer: '', message: 'must be an array' }]);
      }
      const errors = batchErrors(kind, body);
      if (errors.length) {
        const index = /^\/(\d+)(\/|$)/.exec(errors[0].pointer)?.[1];
        const where = index !== undefined ? `Item ${index} of the batch is invalid` : 'The batch is invalid';
        throw new HttpError(400, `${where}: ${describeErrors(errors)}. Nobody was added.`, errors.slice(0, 50));
      }
      for (const item of body) createObject(ctx, kind, r.folderKey, item as BaseInfo);
      await ctx.store.persist();
      return json(200, body.length);
    },
  },
];

/** Errors of the batch schema and of each item against the kind's schema, in item order, without repeats. */
function batchErrors(kind: Kind, items: unknown[]): ErrorDetail[] {
  const seen = new Set<string>();
  const all: ErrorDetail[] = [];
  const add = (e: ErrorDetail) => {
    const id = `${e.pointer}\u0000${e.message}`;
    if (!seen.has(id)) { seen.add(id); all.push(e); }
  };
  bodyErrors('peopleBatch.schema.json', items).forEach(add);
  items.forEach((item, i) => bodyErrors(kind.schema, item, kind.typeName, `/${i}`).forEach(add));
  const indexOf = (p: string) => Number(/^\/(\d+)/.exec(p)?.[1] ?? -1);
  return all.sort((a, b) => indexOf(a.pointer) - indexOf(b.pointer));
}

/** `DELETE /api/f/{folder}/pushnotifications` with a PushNotificationRequest body: recorded in the outbox. */
export async function pushNotification(ctx: SandboxContext, r: FolderRequest): Promise<Reply> {
  if (r.method !== 'DELETE') throw methodNotAllowed(r.method, ['DELETE']);
  const body = await readJson(r.req, ctx.maxBodyBytes);
  const errors = bodyErrors('pushNotificationRequest.schema.json', body);
  if (errors.length) throw new HttpError(400, `The push notification request is invalid: ${describeErrors(errors)}`, errors.slice(0, 50));
  ctx.store.outbox.push({ kind: 'push', at: ctx.now().toISOString(), folderKey: r.folderKey, body });
  await ctx.store.persist();
  return noContent();
}
