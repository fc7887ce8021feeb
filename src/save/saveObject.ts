/**
 * The one save operation, below every surface (editor save, quick edit,
 * restore from history): the edited object and the version it is based on in,
 * a typed outcome out. It costs at most one read before the write and one
 * after. Nothing is sent unless every check passed.
 */
import type { OmsClient } from '../api/client';
import { ApiError } from '../api/errors';
import { Kind, supports } from '../model/kinds';
import { changedImmutableFields, sameJson } from '../model/saveChecks';
import type { BaseInfo } from '../model/types';
import { formatErrors, validate } from '../validation/validator';
import type { Refusal, SaveOutcome } from './outcome';

export interface SaveTarget {
  kind: Kind;
  folderKey: string;
  /** Absent for a new object: the save creates it. */
  key?: string;
}

export interface SaveOptions {
  /** The user chose to overwrite the server's newer version. */
  overwrite?: boolean;
  /**
   * The object as just read from the server (a run that read it to build the
   * edit): no second read before the write. Its version still decides the conflict.
   */
  current?: BaseInfo;
  /**
   * Notes and Links in the edit: 'refuse' an edit of them (a user's text, the
   * default), or 'ignore' them (an edit built on an older copy: Restore, a
   * table or quick edit read a while ago): the server's are kept.
   */
  notStored?: 'refuse' | 'ignore';
}

/** Fields the service keeps out of a PUT: it never stores an edit of them. */
const notStoredFields = ['Notes', 'Links'] as const;

/** What to do instead of editing a field a PUT does not store. */
const notStoredAdvice: Record<(typeof notStoredFields)[number], string> = {
  Notes: 'use Add Note… on the object to add a note (notes are never changed by a save)',
  Links: 'the server sets Links itself',
};

export async function saveObject(client: OmsClient, target: SaveTarget, edited: string | BaseInfo, base: number | null, options: SaveOptions = {}): Promise<SaveOutcome> {
  const parsed = parseEdit(edited);
  if ('refusal' in parsed) return { status: 'refused', refusal: parsed.refusal };
  const object = parsed.object;
  try {
    if (target.key === undefined) {
      const invalid = schemaRefusal(target.kind, object);
      if (invalid) return { status: 'refused', refusal: invalid };
      if (!supports(target.kind, 'create')) return refused('readonly', `The service cannot create ${target.kind.pluralLabel.toLowerCase()}.`);
      const { ConcurrencyVersion: _v, ...body } = object;
      const created = await client.create(target.kind, target.folderKey, body);
      if (!created?.Key) return refused('server', 'The service created the object but did not return its Key: refresh the tree to find it.');
      return { status: 'saved', object: created, created: true };
    }
    if (!supports(target.kind, 'update')) return refused('readonly', `The service cannot update ${target.kind.pluralLabel.toLowerCase()}.`);

    const current = options.current ?? await client.get(target.kind, target.folderKey, target.key);
    // What to do instead (Add Note…, undo a Key edit) says more than the schema's complaint about the same field.
    const edit = options.notStored === 'ignore' ? withServerFields(object, current) : object;
    const problem = unsendable(current, edit) ?? schemaRefusal(target.kind, edit);
    if (problem) return { status: 'refused', refusal: problem };
    const version = current.ConcurrencyVersion ?? null;
    if (version !== base && !options.overwrite) return { status: 'conflict', server: current, base };
    if (sameJson(withoutVersion(edit), withoutVersion(current))) return { status: 'unchanged', object: current };

    const body = { ...edit, Key: target.key, InFolderKey: current.InFolderKey ?? target.folderKey, ConcurrencyVersion: version };
    try {
      await client.update(target.kind, body);
    } catch (e) {
      // Someone saved between our read and our write: the server's check caught it.
      if (e instanceof ApiError && e.kind === 'conflict') {
        return { status: 'conflict', server: await client.get(target.kind, target.folderKey, target.key), base };
      }
      throw e;
    }
    const after = await client.get(target.kind, target.folderKey, target.key);
    return { status: 'saved', object: after, created: false, replaced: current };
  } catch (e) {
    if (e instanceof ApiError) return { status: 'refused', refusal: refusalOf(e) };
    throw e;
  }
}

function parseEdit(edited: string | BaseInfo): { object: BaseInfo } | { refusal: Refusal } {
  let value: unknown = edited;
  if (typeof edited === 'string') {
    try {
      value = JSON.parse(edited);
    } catch (e) {
      return { refusal: { kind: 'invalid', message: `The document is not valid JSON (${(e as Error).message}): fix it and save again.` } };
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return { refusal: { kind: 'invalid', message: 'The document must hold one JSON object: fix it and save again.' } };
  }
  return { object: value as BaseInfo };
}

function schemaRefusal(kind: Kind, object: BaseInfo): Refusal | undefined {
  const errors = validate(kind.schema, object);
  if (!errors.length) return undefined;
  const first = formatErrors(errors, 1).split('\n')[0];
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return { kind: 'invalid', message: `${errors.length} schema problem${errors.length > 1 ? 's' : ''}: ${first}${more}. Fix them (Problems view) and save again.`, pointers: errors.map((e) => e.pointer) };
}

/** Edits no PUT can carry: identifying fields moved, or fields the service does not store. */
export function unsendable(current: BaseInfo, edited: BaseInfo): Refusal | undefined {
  const moved = changedImmutableFields(current, edited);
  if (moved.length) {
    return {
      kind: 'identity',
      message: `${moved.join(', ')} cannot be changed (they identify the object; the server has ${moved.map((f) => JSON.stringify(current[f] ?? null)).join(', ')}): undo that edit and save again.`,
      pointers: moved.map((f) => `/${f}`),
    };
  }
  const notStored = changedNotStoredFields(current, edited);
  if (notStored.length) {
    return {
      kind: 'notStored',
      message: `A save does not store ${notStored.join(' or ')}: undo that edit and ${notStored.map((f) => notStoredAdvice[f]).join('; ')}.`,
      pointers: notStored.map((f) => `/${f}`),
    };
  }
  return undefined;
}

/** Notes or Links that differ from the server's (an absent field counts as empty). */
function changedNotStoredFields(current: BaseInfo, edited: BaseInfo): Array<(typeof notStoredFields)[number]> {
  return notStoredFields.filter((f) => f in edited && !sameJson(edited[f] ?? [], current[f] ?? []));
}

/**
 * The edit with the server's Notes and Links, in their place: an edit built on
 * an older copy carries old ones, and a PUT does not store them anyway (the
 * one place they are set aside).
 */
function withServerFields(object: BaseInfo, current: BaseInfo): BaseInfo {
  const edit: BaseInfo = { ...object };
  if ('Notes' in object || 'Notes' in current) edit.Notes = current.Notes;
  if ('Links' in object || 'Links' in current) edit.Links = current.Links;
  return edit;
}

function withoutVersion(object: BaseInfo): BaseInfo {
  const { ConcurrencyVersion: _v, ...rest } = object;
  return rest;
}

function refused(kind: Refusal['kind'], message: string): SaveOutcome {
  return { status: 'refused', refusal: { kind, message } };
}

/** One line per kind of failure, saying what to do next. */
function refusalOf(e: ApiError): Refusal {
  const reason = e.message.replace(/\s+/g, ' ').replace(/[.\s]+$/, '');
  const pointers = e.details.map((d) => d.pointer).filter((p): p is string => !!p);
  switch (e.kind) {
    case 'auth': return e.notSignedIn
      ? { kind: 'auth', message: `Not sent: you are signed out (${reason}): sign in, then save again; your text is kept.` }
      : { kind: 'auth', message: `The service did not accept your sign-in (${reason}): sign in and save again.` };
    case 'permission': return { kind: 'permission', message: `The service does not let you change this object (${reason}): ask for access; your text is kept.` };
    case 'notFound': return { kind: 'notFound', message: `The object is gone from the server (${reason}): copy your text if you need it, then close the editor.` };
    case 'network': case 'timeout': return { kind: 'unreachable', message: `The service did not answer (${reason}): save again when it is reachable.` };
    default: return { kind: 'server', message: `The service refused the save: ${reason}. Fix it and save again.`, pointers };
  }
}
