/**
 * The save operation, below every surface (editor save, quick edit,
 * restore from history): the edited object and the version it is based on in,
 * a typed outcome out. It costs at most one read before the write and one
 * after. Nothing is sent unless every check passed.
 */
import type { OmsClient } from '../api/client';
import { ApiError } from '../api/errors';
import { l10n } from '../l10n';
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
const notStoredAdvice: Record<(typeof notStoredFields)[number], () => string> = {
  Notes: () => l10n.t('use Add Note… on the object to add a note (notes are never changed by a save)'),
  Links: () => l10n.t('the server sets Links itself'),
};

export async function saveObject(
  client: OmsClient,
  target: SaveTarget,
  edited: string | BaseInfo,
  base: number | null,
  options: SaveOptions = {},
): Promise<SaveOutcome> {
  const parsed = parseEdit(edited);
  if ('refusal' in parsed) return { status: 'refused', refusal: parsed.refusal };
  const object = parsed.object;
  try {
    if (target.key === undefined) {
      const invalid = schemaRefusal(target.kind, object);
      if (invalid) return { status: 'refused', refusal: invalid };
      if (!supports(target.kind, 'create')) return refused('readonly', l10n.t('The service cannot create {0}.', l10n.t(target.kind.pluralLabel).toLowerCase()));
      const { ConcurrencyVersion: _v, ...body } = object;
      const created = await client.create(target.kind, target.folderKey, body);
      if (!created?.Key) return refused('server', l10n.t('The service created the object but did not return its Key: refresh the tree to find it.'));
      return { status: 'saved', object: created, created: true };
    }
    if (!supports(target.kind, 'update')) return refused('readonly', l10n.t('The service cannot update {0}.', l10n.t(target.kind.pluralLabel).toLowerCase()));

    const current = options.current ?? (await client.get(target.kind, target.folderKey, target.key));
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
      return { refusal: { kind: 'invalid', message: l10n.t('The document is not valid JSON ({0}): fix it and save again.', (e as Error).message) } };
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return { refusal: { kind: 'invalid', message: l10n.t('The document must hold one JSON object: fix it and save again.') } };
  }
  return { object: value as BaseInfo };
}

function schemaRefusal(kind: Kind, object: BaseInfo): Refusal | undefined {
  const errors = validate(kind.schema, object);
  if (!errors.length) return undefined;
  const first = formatErrors(errors, 1).split('\n')[0];
  const message =
    errors.length === 1
      ? l10n.t('1 schema problem: {0}. Fix them (Problems view) and save again.', first)
      : l10n.t('{0} schema problems: {1} (and {2} more). Fix them (Problems view) and save again.', errors.length, first, errors.length - 1);
  return { kind: 'invalid', message, pointers: errors.map((e) => e.pointer) };
}

/** Edits no PUT can carry: identifying fields moved, or fields the service does not store. */
export function unsendable(current: BaseInfo, edited: BaseInfo): Refusal | undefined {
  const moved = changedImmutableFields(current, edited);
  if (moved.length) {
    return {
      kind: 'identity',
      message: l10n.t(
        '{0} cannot be changed (they identify the object; the server has {1}): undo that edit and save again.',
        moved.join(', '),
        moved.map((f) => JSON.stringify(current[f] ?? null)).join(', '),
      ),
      pointers: moved.map((f) => `/${f}`),
    };
  }
  const notStored = changedNotStoredFields(current, edited);
  if (notStored.length) {
    return {
      kind: 'notStored',
      message: l10n.t(
        'A save does not store {0}: undo that edit and {1}.',
        notStored.join(l10n.t(' or ')),
        notStored.map((f) => notStoredAdvice[f]()).join('; '),
      ),
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
    case 'auth':
      return e.notSignedIn
        ? { kind: 'auth', message: l10n.t('Not sent: you are signed out ({0}): sign in, then save again; your text is kept.', reason) }
        : { kind: 'auth', message: l10n.t('The service did not accept your sign-in ({0}): sign in and save again.', reason) };
    case 'permission':
      return { kind: 'permission', message: l10n.t('The service does not let you change this object ({0}): ask for access; your text is kept.', reason) };
    case 'notFound':
      return { kind: 'notFound', message: l10n.t('The object is gone from the server ({0}): copy your text if you need it, then close the editor.', reason) };
    case 'network':
    case 'timeout':
      return { kind: 'unreachable', message: l10n.t('The service did not answer ({0}): save again when it is reachable.', reason) };
    default:
      return { kind: 'server', message: l10n.t('The service refused the save: {0}. Fix it and save again.', reason), pointers };
  }
}
