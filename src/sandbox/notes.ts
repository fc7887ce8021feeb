/**
 * Notes of an object: `GET|POST .../{collection}/{key}/notes`,
 * `DELETE .../{collection}/{key}/notes/{noteKey}`. Notes do not change the
 * object's ConcurrencyVersion and a PUT of the object does not touch them.
 */
import type { Kind } from '../model/kinds';
import { makeType, namingOf } from '../model/typeName';
import type { NoteInfo } from '../model/types';
import type { FolderRequest, SandboxContext } from './context';
import { HttpError, json, methodNotAllowed, noContent, notFound, readJson, Reply } from './http';

export async function handleNotes(ctx: SandboxContext, r: FolderRequest, kind: Kind, key: string, rest: string[]): Promise<Reply> {
  const label = kind.label.toLowerCase();
  const missing = () => notFound(`No ${label} ${key} in folder ${r.folderKey}`);
  if (!ctx.store.get(r.folderKey, kind.id, key)) throw missing();
  const base = `/api/f/${r.folderKey}/${kind.collection}/${key}/notes`;

  if (rest.length === 0) {
    if (r.method === 'GET') return json(200, ctx.store.get(r.folderKey, kind.id, key)?.Notes ?? []);
    if (r.method !== 'POST') throw methodNotAllowed(r.method, ['GET', 'POST']);
    const body = await readJson(r.req, ctx.maxBodyBytes);
    const text = typeof body === 'string' ? body : (body as { NoteText?: unknown } | null)?.NoteText;
    if (typeof text !== 'string' || !text.trim()) {
      throw new HttpError(400, 'A note needs NoteText: send a NoteInfo object or a JSON string', [{ pointer: typeof body === 'string' ? '' : '/NoteText', message: 'must be a non-empty string' }]);
    }
    const obj = ctx.store.get(r.folderKey, kind.id, key);
    if (!obj) throw missing();
    const noteKey = ctx.newKey();
    const note: NoteInfo = {
      $type: makeType('NoteInfo', namingOf(typeof body === 'object' && body ? body : obj)),
      Key: noteKey,
      Href: `${base}/${noteKey}`,
      NoteText: text,
      CreatedOn: ctx.now().toISOString(),
      User: null,
    };
    ctx.store.replace(key, { ...obj, Notes: [...(obj.Notes ?? []), note] });
    await ctx.store.persist();
    return json(201, note, { Location: note.Href as string });
  }

  if (rest.length === 1) {
    if (r.method !== 'DELETE') throw methodNotAllowed(r.method, ['DELETE']);
    const obj = ctx.store.get(r.folderKey, kind.id, key);
    if (!obj) throw missing();
    const noteKey = rest[0].toLowerCase();
    const notes = obj.Notes ?? [];
    if (!notes.some((n) => n?.Key === noteKey)) throw notFound(`No note ${noteKey} on ${label} ${key}`);
    ctx.store.replace(key, { ...obj, Notes: notes.filter((n) => n?.Key !== noteKey) });
    await ctx.store.persist();
    return noContent();
  }
  throw notFound(`No route ${base}/${rest.join('/')}`);
}
