/**
 * Every endpoint of the sandbox as one route table, built from the paths of
 * `src/model/routes.ts` and the kinds registry: a kind's operations (and
 * those browsing assumes), its actions and its notes. Adding a kind adds its
 * routes; adding a route is one line here.
 */
import { Kind, kinds } from '../../model/kinds';
import {
  actionPattern,
  actionRoutes,
  collectionPattern,
  folderPattern,
  instancePath,
  notesPattern,
  objectPattern,
  sysinfoPath,
  tokenPath,
} from '../../model/routes';
import { addPeople, invite, pushNotification } from './actions';
import { create, list, read, remove, servedOperations, update } from './collections';
import type { FolderRequest, Handler, RouteRequest, SandboxContext } from './context';
import { HttpError, json, noContent, notFound, parseJson, readBody, readJson, Reply } from '../http/replies';
import { addNote, deleteNote, listNotes } from './notes';
import { Router } from '../http/router';

const sandboxVersion = '0.1.0';
/** Largest body read before authentication (the form of POST /token): a form needs far less. */
const maxTokenBodyBytes = 4096;

/** A handler and whether it needs a bearer token. */
export interface Endpoint {
  handle: Handler;
  public?: boolean;
}

type KindHandler = (ctx: SandboxContext, r: FolderRequest, kind: Kind) => Promise<Reply> | Reply;

/** Resolves `:folder` (404 when it is not the instance or a folder) before the handler runs. */
function inFolder(handler: Handler<FolderRequest>): Endpoint {
  return {
    handle(ctx, r) {
      const folderKey = r.params.folder.toLowerCase();
      if (!ctx.store.container(folderKey)) throw notFound(`No folder ${folderKey}`);
      return handler(ctx, { ...r, folderKey });
    },
  };
}

/** A handler of one kind's route, in a folder. */
function ofKind(kind: Kind, handler: KindHandler): Endpoint {
  return inFolder((ctx, r) => handler(ctx, r, kind));
}

const collectionOps = [
  ['GET', 'list', list],
  ['POST', 'create', create],
] as const;
const itemOps = [
  ['GET', 'get', read],
  ['PUT', 'update', update],
  ['DELETE', 'delete', remove],
] as const;

export function endpoints(): Router<Endpoint> {
  const router = new Router<Endpoint>()
    .add('POST', tokenPath, { public: true, handle: async (ctx, r) => ctx.auth.grant(await readForm(r, maxTokenBodyBytes), r.req.socket.remoteAddress ?? '') })
    .add('GET', sysinfoPath, { public: true, handle: sysinfo })
    .add('GET', instancePath, { handle: (ctx) => json(200, ctx.store.instance) })
    .add(
      'GET',
      folderPattern,
      inFolder((ctx, r) => json(200, ctx.store.container(r.folderKey))),
    )
    .add(actionRoutes.pushNotification.method, actionPattern(actionRoutes.pushNotification), inFolder(pushNotification))
    .add('GET', '/sandbox/stats', { handle: stats })
    .add('GET', '/sandbox/outbox', { handle: (ctx) => json(200, ctx.store.outbox) })
    .add('DELETE', '/sandbox/outbox', { handle: clearOutbox })
    .add('GET', '/sandbox/faults', { handle: (ctx) => json(200, ctx.faults.list()) })
    .add('POST', '/sandbox/faults', { handle: async (ctx, r) => json(201, ctx.faults.add(await readJson(r.req, ctx.maxBodyBytes))) })
    .add('DELETE', '/sandbox/faults', {
      handle: (ctx) => {
        ctx.faults.clear();
        return noContent();
      },
    });

  for (const kind of kinds.values()) {
    const ops = servedOperations(kind);
    for (const [method, op, handler] of collectionOps) if (ops.has(op)) router.add(method, collectionPattern(kind), ofKind(kind, handler));
    for (const [method, op, handler] of itemOps) if (ops.has(op)) router.add(method, objectPattern(kind), ofKind(kind, handler));
    if (kind.actions.includes('addPeople')) router.add(actionRoutes.addPeople.method, actionPattern(actionRoutes.addPeople, kind), ofKind(kind, addPeople));
    if (kind.actions.includes('invite')) router.add(actionRoutes.invite.method, actionPattern(actionRoutes.invite, kind), ofKind(kind, invite));
    if (ops.has('get')) {
      router.add('GET', notesPattern(kind), ofKind(kind, listNotes));
      router.add('POST', notesPattern(kind), ofKind(kind, addNote));
      router.add('DELETE', notesPattern(kind, true), ofKind(kind, deleteNote));
    }
  }
  return router;
}

function sysinfo(ctx: SandboxContext): Reply {
  return json(200, { ServerTime: ctx.now().toISOString(), Version: `${sandboxVersion} (OMS sandbox)`, EventPublisherUrl: ctx.eventPublisherUrl });
}

/** What the sandbox holds: its memory (peak resident set included), connections and issued tokens. */
function stats(ctx: SandboxContext): Reply {
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  const maxRss = process.resourceUsage().maxRSS * 1024;
  return json(200, { memory: { rss, maxRss, heapUsed, external, arrayBuffers }, ...ctx.stats?.() });
}

async function clearOutbox(ctx: SandboxContext): Promise<Reply> {
  ctx.store.clearOutbox();
  await ctx.store.persist();
  return noContent();
}

/** The form of POST /token (a JSON object is accepted too). */
async function readForm(r: RouteRequest, maxBytes: number): Promise<URLSearchParams> {
  const text = (await readBody(r.req, maxBytes)).toString('utf8');
  const type = (r.req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/json')) {
    let obj: unknown;
    try {
      obj = parseJson(text);
    } catch (e) {
      const description = (e as Error).message;
      throw new HttpError(400, description, undefined, undefined, { error: 'invalid_request', error_description: description });
    }
    const fields = obj && typeof obj === 'object' && !Array.isArray(obj) ? Object.entries(obj) : [];
    return new URLSearchParams(fields.map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  }
  return new URLSearchParams(text);
}
