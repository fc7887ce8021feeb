/**
 * Bulk edits and undo as previews and runs (issue 22), without `vscode`: the operations a user
 * applies to many objects, the preview that reads each object and says what would change,
 * and the changes the executor (./executor.ts) sends. The selection is frozen when the
 * preview is made; the operation is applied again to each object as read right before it is
 * sent, so a change made meanwhile elsewhere is kept, not overwritten.
 */
import type { OmsClient } from '../api/client';
import { Kind, serverOwnedFields } from '../model/kinds';
import { changedImmutableFields, sameJson } from '../model/saveChecks';
import type { BaseInfo, InputScannerInfo } from '../model/types';
import { formatErrors, validate } from '../validation/validator';
import { Change, isSkip, Skip } from './executor';
import { merge3 } from './merge3';
import type { JournalEntry } from './runJournal';
import { l10n } from '../l10n';

/** What a bulk edit does to each object (pointer-free: fields of the object's top level). */
export type BulkOperation =
  | { type: 'set'; field: string; value: unknown }
  /** A reporting priority's Priority or StatusCode on the row with this resistance range (matched by range, not position). */
  | { type: 'setRow'; min: number; max: number; field: 'Priority' | 'StatusCode'; value: number }
  /** Only where the field holds `from` now. */
  | { type: 'replace'; field: string; from: unknown; to: unknown }
  | { type: 'addTag'; tag: string }
  | { type: 'removeTag'; tag: string };

/** An object chosen for a bulk edit (from Go to Object, the tree, a group or a folder). */
export interface Target { kind: Kind; folderKey: string; key: string; name: string }

export type PreviewStatus = 'change' | 'noop' | 'invalid' | 'notApplicable' | 'stale';

export interface FieldChange { pointer: string; from: unknown; to: unknown }

export interface PreviewEntry {
  change: Change;
  status: PreviewStatus;
  reason?: string;
  /** As read for the preview, and as it would be sent. */
  before?: BaseInfo;
  after?: BaseInfo;
  changes: FieldChange[];
}

export type PreviewCounts = Record<PreviewStatus, number>;

export function describeOperation(op: BulkOperation): string {
  const v = (x: unknown) => JSON.stringify(x);
  switch (op.type) {
    case 'set': return l10n.t('set {0} = {1}', op.field, v(op.value));
    case 'setRow': return l10n.t('set {0} = {1} on the priority row {2}–{3}', op.field, op.value, op.min, op.max);
    case 'replace': return l10n.t('replace {0} {1} → {2}', op.field, v(op.from), v(op.to));
    case 'addTag': return l10n.t('add tag {0}', v(op.tag));
    case 'removeTag': return l10n.t('remove tag {0}', v(op.tag));
  }
}

/**
 * The object with the operation applied, or why it does not apply to it.
 * @internal Exported for its unit test.
 */
export function applyOperation(object: BaseInfo, op: BulkOperation): BaseInfo | Skip {
  const notApplicable = (skip: string): Skip => ({ skip, notApplicable: true });
  switch (op.type) {
    case 'set':
      if (!Object.hasOwn(object, op.field)) return notApplicable(l10n.t('has no field {0}', op.field));
      return { ...object, [op.field]: op.value };
    case 'replace':
      if (!Object.hasOwn(object, op.field)) return notApplicable(l10n.t('has no field {0}', op.field));
      if (!sameJson(object[op.field], op.from)) return notApplicable(l10n.t('{0} is {1}, not {2}', op.field, JSON.stringify(object[op.field]), JSON.stringify(op.from)));
      return { ...object, [op.field]: op.to };
    case 'setRow': {
      const rows = (object as InputScannerInfo).InputScannerReportingPriorities;
      if (!Array.isArray(rows)) return notApplicable(l10n.t('has no reporting priorities'));
      const at = rows.findIndex((r) => r.MinResistanceCode === op.min && r.MaxResistanceCode === op.max);
      if (at < 0) return notApplicable(l10n.t('has no priority row {0}–{1}', op.min, op.max));
      return { ...object, InputScannerReportingPriorities: rows.map((r, i) => (i === at ? { ...r, [op.field]: op.value } : r)) };
    }
    case 'addTag':
      return (object.Tags ?? []).includes(op.tag) ? object : { ...object, Tags: [...(object.Tags ?? []), op.tag] };
    case 'removeTag':
      return (object.Tags ?? []).includes(op.tag) ? { ...object, Tags: (object.Tags ?? []).filter((t) => t !== op.tag) } : object;
  }
}

/** One change per target: the operation applied to the object as read right before sending. */
export function bulkChanges(targets: readonly Target[], op: BulkOperation): Change[] {
  return targets.map((t) => ({
    id: t.key, label: t.name, kind: t.kind, folderKey: t.folderKey, key: t.key, op: 'update',
    build: (live) => {
      const after = applyOperation(live!, op);
      if (isSkip(after)) return after;
      return sameJson(after, live) ? { skip: l10n.t('already as wanted') } : after;
    },
  }));
}

/**
 * The reverse of a run: each applied object back to what it was before, on condition that it
 * is still at the version the run left (else stale: someone changed it since; never overwritten).
 */
export function undoChanges(entries: readonly JournalEntry[], kindOf: (id: JournalEntry['kind']) => Kind): Change[] {
  return entries.filter((e) => e.outcome === 'applied' && e.op === 'update' && e.before && e.key).map((e) => ({
    id: e.id, label: e.label, kind: kindOf(e.kind), folderKey: e.folderKey, key: e.key, op: 'update' as const,
    baseVersion: e.afterVersion ?? null,
    build: (live) => {
      const back = withServerFields(e.before!, live!);
      return sameJson(back, live) ? { skip: l10n.t('already as before the run') } : back;
    },
  }));
}

/**
 * An undo that met a later change (stale): the three-way merge of what the run left (base),
 * what it was before (mine) and the server's copy now (theirs). Clean: a change sending the
 * merge on condition of the version just read. Else the conflicting pointers; nothing to send.
 */
export function mergedUndo(entry: JournalEntry, kind: Kind, live: BaseInfo): { change: Change } | { conflicts: string[] } {
  const result = merge3(kind, entry.after ?? entry.before!, entry.before!, live);
  if (result.conflicts.length) return { conflicts: result.conflicts.map((c) => c.pointer) };
  return {
    change: {
      id: entry.id, label: entry.label, kind, folderKey: entry.folderKey, key: entry.key, op: 'update', baseVersion: live.ConcurrencyVersion ?? null,
      build: (now) => {
        const merged = withServerFields(result.merged, now!);
        return sameJson(merged, now) ? { skip: l10n.t('already as merged') } : merged;
      },
    },
  };
}

/** `object` with the server-owned fields (version, notes, links…) as `live` has them. */
function withServerFields(object: BaseInfo, live: BaseInfo): BaseInfo {
  const out: BaseInfo = { ...object };
  for (const f of serverOwnedFields) {
    if (Object.hasOwn(live, f)) out[f] = live[f];
    else delete out[f];
  }
  return out;
}

export interface PreviewOptions {
  /** Each entry as soon as it is known (first diff before the full count). */
  onEntry?(entry: PreviewEntry, done: number, total: number): void;
  signal?: AbortSignal;
  /** Groups of at least this many objects of one kind in one folder are read by listing pages. */
  listFrom?: number;
}

/**
 * Reads every object of the changes (pages of a collection where many share one, else one
 * by one) and says per object what sending would do: change (with its field diffs), no-op,
 * invalid (schema, identifying or server-owned fields), not applicable, stale. Sends nothing.
 */
export async function previewChanges(client: OmsClient, changes: readonly Change[], options: PreviewOptions = {}): Promise<PreviewEntry[]> {
  const entries = new Array<PreviewEntry>(changes.length);
  let done = 0;
  const settle = (i: number, entry: PreviewEntry) => {
    entries[i] = entry;
    options.onEntry?.(entry, ++done, changes.length);
  };
  const groups = new Map<string, number[]>();
  changes.forEach((c, i) => {
    const id = `${c.kind.id}\n${c.folderKey}`;
    groups.set(id, [...(groups.get(id) ?? []), i]);
  });
  const work = [...groups.values()].map((indexes) => async () => {
    const first = changes[indexes[0]];
    let listed: Map<string, BaseInfo> | undefined;
    if (indexes.length >= (options.listFrom ?? 10)) {
      listed = new Map((await client.listAll(first.kind, first.folderKey, 1000, options.signal)).map((o) => [o.Key ?? '', o]));
    }
    for (const i of indexes) {
      if (options.signal?.aborted) return;
      const change = changes[i];
      let live: BaseInfo | undefined;
      try {
        live = listed ? listed.get(change.key ?? '') : change.key ? await client.get(change.kind, change.folderKey, change.key) : undefined;
      } catch (e) {
        settle(i, { change, status: 'notApplicable', reason: l10n.t('could not be read: {0}', (e as Error).message), changes: [] });
        continue;
      }
      settle(i, classify(change, live));
    }
  });
  await inParallel(work, 4);
  return entries.filter(Boolean);
}

export function countsOf(entries: readonly PreviewEntry[]): PreviewCounts {
  const counts: PreviewCounts = { change: 0, noop: 0, invalid: 0, notApplicable: 0, stale: 0 };
  for (const e of entries) counts[e.status]++;
  return counts;
}

/** What sending `change` to an object now read as `live` would do. */
function classify(change: Change, live: BaseInfo | undefined): PreviewEntry {
  const base = { change, before: live, changes: [] as FieldChange[] };
  if (change.op !== 'create' && !live) return { ...base, status: 'notApplicable', reason: l10n.t('gone from the server') };
  if (live && change.baseVersion !== undefined && (live.ConcurrencyVersion ?? null) !== change.baseVersion) {
    return { ...base, status: 'stale', reason: l10n.t('changed since: version {0} expected, {1} found', change.baseVersion ?? l10n.t('none'), live.ConcurrencyVersion ?? l10n.t('none')) };
  }
  const after = change.build(live);
  if (isSkip(after)) return { ...base, status: after.notApplicable ? 'notApplicable' : 'noop', reason: after.skip };
  const changes = live ? fieldChanges(live, after) : [];
  const problem = live ? invalidity(change.kind, live, after) : undefined;
  return { ...base, after, changes, status: problem ? 'invalid' : 'change', ...(problem ? { reason: problem } : {}) };
}

/** Why the service would refuse the edited object: identifying or server-owned fields moved, or the schema. */
function invalidity(kind: Kind, live: BaseInfo, after: BaseInfo): string | undefined {
  const moved = [...changedImmutableFields(live, after), ...['Notes', 'Links'].filter((f) => !sameJson(live[f] ?? [], after[f] ?? []))];
  if (moved.length) return l10n.t('would change {0}, which a save cannot change', moved.join(', '));
  const errors = validate(kind.schema, after);
  return errors.length ? l10n.t('schema: {0}', formatErrors(errors, 1).split('\n')[0]) : undefined;
}

/** Leaf-by-leaf differences (arrays of the same length item by item, else whole). */
function fieldChanges(from: unknown, to: unknown, pointer = ''): FieldChange[] {
  if (sameJson(from, to)) return [];
  const bothObjects = isPlain(from) && isPlain(to);
  const sameLengthArrays = Array.isArray(from) && Array.isArray(to) && from.length === to.length;
  if (!bothObjects && !sameLengthArrays) return [{ pointer, from, to }];
  const a = from as Record<string, unknown>, b = to as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => k !== 'ConcurrencyVersion' || pointer !== '')
    .flatMap((k) => fieldChanges(a[k], b[k], `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`));
}

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

async function inParallel(work: Array<() => Promise<void>>, width: number): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, work.length) }, async () => {
    while (next < work.length) await work[next++]();
  }));
}
