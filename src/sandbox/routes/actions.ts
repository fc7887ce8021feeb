/**
 * Operations beyond CRUD: the invite (engage sites), the people batch and the
 * push notification. `endpoints.ts` routes them by the registry's actions and
 * `actionRoutes` of `src/model/routes.ts`.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kind } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import { bodyErrors, checkBody, describeErrors, maxListed, typeFromCollection } from './checks';
import { storedObject } from './collections';
import type { FolderRequest, SandboxContext } from './context';
import { createObject } from '../store/creation';
import { ErrorDetail, HttpError, json, noContent, readJson, readJsonSized, Reply } from '../http/replies';
import { inputErrors, inviteSchema } from './inputs';

/** POST .../engagesites/{key}/invite with a JSON string body: the e-mail address. */
export async function invite(ctx: SandboxContext, r: FolderRequest, kind: Kind): Promise<Reply> {
  const target = storedObject(ctx, r, kind);
  const body = await readJson(r.req, ctx.maxBodyBytes);
  if (typeof body !== 'string') {
    throw new HttpError(400, 'The invite body must be a single JSON string holding an e-mail address, e.g. "user@example.com"', [
      { pointer: '', message: 'must be a string' },
    ]);
  }
  const address = body.trim();
  if (inputErrors(inviteSchema, address).length) {
    throw new HttpError(400, `${JSON.stringify(body.slice(0, 200))} is not an e-mail address`, [{ pointer: '', message: 'must be an e-mail address' }]);
  }
  ctx.store.addToOutbox({ kind: 'invite', at: ctx.now().toISOString(), folderKey: r.folderKey, objectKey: target.Key as string, body: address });
  await ctx.store.persist();
  return noContent();
}

/** Failing items named in a refused batch. */
const maxFailedItems = 10;
/** Items checked between two turns of the event loop, so a huge batch does not hold up other requests. */
const itemsPerTurn = 2000;

/**
 * POST /api/f/{folder}/people/complex: all or nothing; answers the count added.
 * Items are checked one by one, each stopping at its first error, and the
 * check stops after `maxFailedItems` failing items: linear in the body.
 */
export async function addPeople(ctx: SandboxContext, r: FolderRequest, kind: Kind): Promise<Reply> {
  const body = await readJson(r.req, ctx.maxBodyBytes);
  if (!Array.isArray(body)) {
    throw new HttpError(400, `The batch body must be a JSON array of ${kind.typeName} objects`, [{ pointer: '', message: 'must be an array' }]);
  }
  const errors: ErrorDetail[] = [];
  const failed: number[] = [];
  for (let i = 0; i < body.length && failed.length < maxFailedItems; i++) {
    if (i > 0 && i % itemsPerTurn === 0) await nextTurn();
    typeFromCollection(kind, body[i], ctx.store.instance);
    const itemErrors = bodyErrors(kind.schema, body[i], kind.typeName, `/${i}`, true);
    if (itemErrors.length) {
      failed.push(i);
      errors.push(...itemErrors);
    }
  }
  if (failed.length) {
    const which =
      failed.length === 1
        ? `Item ${failed[0]} of the batch is invalid`
        : `Items ${failed.join(', ')}${failed.length === maxFailedItems ? ' (and maybe more)' : ''} of the batch are invalid`;
    throw new HttpError(400, `${which}: ${describeErrors(errors)}. Nobody was added.`, errors.slice(0, maxListed));
  }
  for (const item of body) createObject(ctx, kind, r.folderKey, item as BaseInfo);
  await ctx.store.persist();
  return json(200, body.length);
}

/** `DELETE /api/f/{folder}/pushnotifications` with a PushNotificationRequest body: recorded in the outbox. */
export async function pushNotification(ctx: SandboxContext, r: FolderRequest): Promise<Reply> {
  const { value: body, bytes } = await readJsonSized(r.req, ctx.maxBodyBytes);
  checkBody('pushNotificationRequest.schema.json', body, 'push notification request', bytes);
  ctx.store.addToOutbox({ kind: 'push', at: ctx.now().toISOString(), folderKey: r.folderKey, body });
  await ctx.store.persist();
  return noContent();
}
