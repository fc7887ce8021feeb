/**
 * Bulk edits and undo as previews and runs, without `vscode`: the changes of an operation of the
 * registry (./operations.ts) on many objects, the preview that reads each object and says what would change,
 * and the changes the executor (./executor.ts) sends. The selection is frozen when the
 * preview is made; the operation is applied again to each object as read right before it is
 * sent, so a change made meanwhile elsewhere is kept, not overwritten.
 */
import type { OmsClient } from '../api/client';
import { Kind, serverOwnedFields } from '../model/kinds';
import { changedImmutableFields, sameJson } from '../model/saveChecks';
import type { BaseInfo } from '../model/types';
import { formatErrors, validate } from '../validation/validator';
import { Change, isSkip } from './executor';
import { inBatches } from './code/localFiles';
import { fieldChanges, type FieldChange } from './code/fileForm';
import { applyOperation, type BulkOperation } from './operations';
import { merge3 } from './merge3';
import type { JournalEntry } from './runJournal';
import { l10n } from '../l10n';

/** An object chosen for a bulk edit (from Go to Object, the tree, a group or a folder). */
export interface Target {
  kind: Kind;
  folderKey: string;
  key: string;
  name: string;
}

export type PreviewStatus = 'change' | 'noop' | 'invalid' | 'notApplicable' | 'stale';

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

/** One change per target: the operation applied to the object as read right before sending. */
export function bulkChanges(targets: readonly Target[], op: BulkOperation): Change[] {
  return targets.map((t) => ({
    id: t.key,
    label: t.name,
    kind: t.kind,
    folderKey: t.folderKey,
    key: t.key,
    op: 'update',
    build: (live) => {
      const after = applyOperation(live!, op);
      if (isSkip(after)) return after;
      return sameJson(after, live) ? { skip: l10n.t('already as wanted') } : after;
    },
  }));
}

/** What an undo sends, and per object what it cannot put back and why (said to the user before anything is sent). */
export interface UndoPlan {
  changes: Change[];
  notes: Array<{ label: string; note: string }>;
}

/**
 * The reverse of a run: an object the run updated goes back to what it was before, one it created
 * is deleted, one it deleted is created again from the journal's copy; each on condition that it
 * is still as the run left it (else stale: someone changed it since; never overwritten). An
 * outcome the journal does not know (the run died between sending and hearing back) is put back
 * only where the server holds exactly what was sent. Secrets are not in the journal: they keep
 * the value they have now, and the notes say where that differs from before the run.
 */
export function undoPlan(entries: readonly JournalEntry[], kindOf: (id: JournalEntry['kind']) => Kind): UndoPlan {
  const plan: UndoPlan = { changes: [], notes: [] };
  const note = (e: JournalEntry, text: string) => plan.notes.push({ label: e.label, note: text });
  for (const e of entries) {
    const kind = kindOf(e.kind);
    const common = { id: e.id, label: e.label, kind, folderKey: e.folderKey };
    const secrets = (e.secretsChanged ?? []).join(', ');
    if (e.outcome === 'applied' && e.op === 'update' && e.before && e.key) {
      if (secrets) note(e, l10n.t('{0} cannot be put back: the journal keeps no secret (it keeps its value now)', secrets));
      plan.changes.push({
        ...common,
        key: e.key,
        op: 'update',
        baseVersion: e.afterVersion ?? null,
        build: backTo(kind, e.before, l10n.t('already as before the run')),
      });
    } else if (e.outcome === 'applied' && e.op === 'create') {
      const key = e.after?.Key ?? e.key;
      if (!key) note(e, l10n.t('created, but its Key was never read back: delete it by hand'));
      else plan.changes.push({ ...common, id: key, key, op: 'delete', baseVersion: e.afterVersion ?? null, build: (live) => live! });
    } else if (e.outcome === 'applied' && e.op === 'delete') {
      if (!e.before) {
        note(e, l10n.t('deleted, and the journal holds no copy of it: it cannot be created again'));
        continue;
      }
      const left = (e.secretsLeftOut ?? []).join(', ');
      if (left) note(e, l10n.t('created again without {0}: the journal keeps no secret', left));
      const body = withoutServerFields(e.before);
      plan.changes.push({ ...common, op: 'create', build: () => body });
    } else if (e.outcome === 'unknown') {
      unknownUndo(e, kind, plan);
    }
  }
  return plan;
}

/** A write the run sent and never heard back from: undone where the server shows it landed, else said. */
function unknownUndo(e: JournalEntry, kind: Kind, plan: UndoPlan): void {
  const say = (note: string) => plan.notes.push({ label: e.label, note });
  if (e.op === 'create') return void say(l10n.t('the run may have created it (no answer came, so no Key is known): look for it'));
  if (e.op === 'delete') return void say(l10n.t('the run may have deleted it (no answer came): check before creating it again from the journal'));
  if (!e.before || !e.key || !e.sent) return void say(l10n.t('the run may have changed it (no answer came), and the journal holds no copy of it before'));
  const sent = e.sent,
    before = e.before;
  say(l10n.t('the run may have changed it (no answer came): put back only if the server holds what was sent'));
  plan.changes.push({
    id: e.id,
    label: e.label,
    kind,
    folderKey: e.folderKey,
    key: e.key,
    op: 'update',
    build: (live) => {
      if (sameFields(kind, live!, before)) return { skip: l10n.t('not written by the run: already as before it') };
      if (!sameFields(kind, live!, sent))
        return { skip: l10n.t('not as the run would have left it: changed by someone else, or never written'), notApplicable: true };
      return backTo(kind, before, '')(live);
    },
  });
}

/** The object back to `before`, with the server's own fields and the secrets as `live` has them. */
function backTo(kind: Kind, before: BaseInfo, already: string): Change['build'] {
  return (live) => {
    const back = withServerFields(before, live!);
    for (const f of kind.sensitiveFields ?? []) if (!Object.hasOwn(before, f) && Object.hasOwn(live!, f)) back[f] = live![f];
    return sameJson(back, live) ? { skip: already } : back;
  };
}

/** Equal in every field but the server's own and the secrets (which the journal does not hold). */
function sameFields(kind: Kind, a: BaseInfo, b: BaseInfo): boolean {
  const skipped = new Set([...serverOwnedFields, ...(kind.sensitiveFields ?? [])]);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].every((k) => skipped.has(k) || sameJson(a[k], b[k]));
}

/** A copy fit for a create: without the fields the server sets (its Key, version, links…), `$type` kept. */
function withoutServerFields(object: BaseInfo): BaseInfo {
  const out: BaseInfo = { ...object };
  for (const f of serverOwnedFields) if (f !== '$type') delete out[f];
  return out;
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
      id: entry.id,
      label: entry.label,
      kind,
      folderKey: entry.folderKey,
      key: entry.key,
      op: 'update',
      baseVersion: live.ConcurrencyVersion ?? null,
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
    const group = groups.get(id);
    if (group) group.push(i);
    else groups.set(id, [i]);
  });
  const work = [...groups.values()].map((indexes) => async () => {
    if (indexes.length >= (options.listFrom ?? 10)) return listed(indexes);
    for (const i of indexes) {
      if (options.signal?.aborted) return;
      const change = changes[i];
      let live: BaseInfo | undefined;
      try {
        live = change.key ? await client.get(change.kind, change.folderKey, change.key) : undefined;
      } catch (e) {
        settle(i, { change, status: 'notApplicable', reason: l10n.t('could not be read: {0}', (e as Error).message), changes: [] });
        continue;
      }
      settle(i, classify(change, live));
    }
  });
  /**
   * A group read by listing its collection: each object compared as its page arrives, while the next page is read (the
   * comparing took a preview of 10,000 0.3 s, after the whole listing); one the listing did not hold is gone.
   */
  const listed = async (indexes: number[]) => {
    const { kind, folderKey } = changes[indexes[0]];
    const byKey = new Map<string, number[]>();
    for (const i of indexes) {
      const key = changes[i].key;
      if (key === undefined)
        settle(i, classify(changes[i], undefined)); // a create: nothing to read
      else if (byKey.has(key)) byKey.get(key)!.push(i);
      else byKey.set(key, [i]);
    }
    for await (const page of client.listPages(kind, folderKey, 1000, options.signal)) {
      if (options.signal?.aborted) return;
      for (const live of page) {
        const key = live.Key ?? '';
        const waiting = byKey.get(key);
        if (!waiting) continue;
        byKey.delete(key);
        for (const i of waiting) settle(i, classify(changes[i], live));
      }
    }
    for (const waiting of byKey.values()) for (const i of waiting) settle(i, classify(changes[i], undefined));
  };
  await inBatches(work, 4, (w) => w());
  return entries.filter(Boolean);
}

export function previewCounts(entries: readonly PreviewEntry[]): PreviewCounts {
  const counts: PreviewCounts = { change: 0, noop: 0, invalid: 0, notApplicable: 0, stale: 0 };
  for (const e of entries) counts[e.status]++;
  return counts;
}

/** What sending `change` to an object now read as `live` would do. */
function classify(change: Change, live: BaseInfo | undefined): PreviewEntry {
  const base = { change, before: live, changes: [] as FieldChange[] };
  if (change.op !== 'create' && !live) return { ...base, status: 'notApplicable', reason: l10n.t('gone from the server') };
  if (live && change.baseVersion !== undefined && (live.ConcurrencyVersion ?? null) !== change.baseVersion) {
    return {
      ...base,
      status: 'stale',
      reason: l10n.t('changed since: version {0} expected, {1} found', change.baseVersion ?? l10n.t('none'), live.ConcurrencyVersion ?? l10n.t('none')),
    };
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
