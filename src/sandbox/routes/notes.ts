/**
 * Notes of an object: `GET|POST .../{collection}/{key}/notes`,
 * `DELETE .../{collection}/{key}/notes/{noteKey}`. Notes do not change the
 * object's ConcurrencyVersion and a PUT of the object does not touch them.
 * A stored note names its author (`User`, the signed-in user) and `CreatedOn`.
 */
import { createHash } from 'node:crypto';
import type { Kind } from '../../model/kinds';
import { notesPath } from '../../model/routes';
import { makeType, namingOf } from '../../model/typeName';
import type { NoteInfo, ObjectLinkItem } from '../../model/types';
import { storedObject } from './collections';
import type { FolderRequest, SandboxContext } from './context';
import { HttpError, json, noContent, notFound, readJson, Reply } from '../http/replies';
import { inputErrors, noteSchema } from './inputs';

export function listNotes(ctx: SandboxContext, r: FolderRequest, kind: Kind): Reply {
  return json(200, storedObject(ctx, r, kind).Notes ?? []);
}

export async function addNote(ctx: SandboxContext, r: FolderRequest, kind: Kind): Promise<Reply> {
  storedObject(ctx, r, kind);
  const body = await readJson(r.req, ctx.maxBodyBytes);
  if (inputErrors(noteSchema, body).length) {
    throw new HttpError(400, 'A note needs NoteText: send a NoteInfo object or a JSON string', [
      { pointer: typeof body === 'string' ? '' : '/NoteText', message: 'must be a non-empty string' },
    ]);
  }
  const text = typeof body === 'string' ? body : (body as { NoteText: string }).NoteText;
  const obj = storedObject(ctx, r, kind);
  const noteKey = ctx.newKey();
  const note: NoteInfo = {
    $type: makeType('NoteInfo', namingOf(typeof body === 'object' && body ? body : obj)),
    Key: noteKey,
    Href: notesPath(kind, r.folderKey, obj.Key as string, noteKey),
    NoteText: text,
    CreatedOn: ctx.now().toISOString(),
    User: r.userName ? userLink(r.userName, ctx.store.instance) : null,
  };
  ctx.store.replace(obj.Key as string, { ...obj, Notes: [...(obj.Notes ?? []), note] });
  await ctx.store.persist();
  return json(201, note, { Location: note.Href as string });
}

export async function deleteNote(ctx: SandboxContext, r: FolderRequest, kind: Kind): Promise<Reply> {
  const obj = storedObject(ctx, r, kind);
  const noteKey = r.params.noteKey.toLowerCase();
  const notes = obj.Notes ?? [];
  if (!notes.some((n) => n?.Key === noteKey)) throw notFound(`No note ${noteKey} on ${kind.label.toLowerCase()} ${obj.Key}`);
  ctx.store.replace(obj.Key as string, { ...obj, Notes: notes.filter((n) => n?.Key !== noteKey) });
  await ctx.store.persist();
  return noContent();
}

/** The signed-in user as notes name it: an object link with a key derived from the name. */
function userLink(userName: string, instance: unknown): ObjectLinkItem {
  return {
    $type: makeType('ObjectLinkItem', namingOf(instance)),
    Href: null,
    LinkedObjectKey: createHash('sha256').update(userName).digest('hex').slice(0, 24),
    CommonName: userName,
    Relation: 'User',
    MetaDataBson: null,
  };
}
