/**
 * Bulk Edit…: one operation of the registry (src/changes/operations.ts) on many objects, previewed
 * before anything is sent. On: all results of a Go to Object query (args `{ connectionId, query }`;
 * objects the tree never loaded included: a fresh walk of everything), a multi-selection in the
 * tree, a group, or a folder with its subfolders. The operation is asked by its questions, or
 * given: `{ connectionId, query, operation: { type: 'addTag', tag: 'x' }, stopOnError? }` (with
 * `stopOnError` the preview is not asked about: scripts and tests).
 */
import vscode = require('vscode');
import { bulkChanges, Target } from '../../changes/bulk';
import {
  BulkOperation,
  describeOperation,
  editableFields,
  operationFromArgument,
  operations,
  OperationType,
  Question,
  tagProblem,
} from '../../changes/operations';
import type { Connection } from '../../connection/connection';
import { Kind, KindId, kind as kindOf, kinds, objectKinds, supports } from '../../model/kinds';
import type { BaseInfo, InputScannerInfo } from '../../model/types';
import { previewAndRun } from '../../runs/core/changesRun';
import { machineJournal, runHost } from '../../runs/vscodeHost';
import { sourceOf } from '../../search/indexes';
import { matches, queryWords } from '../../search/match';
import { ObjectIndex } from '../../search/objectIndex';
import { activeConnectionTarget, ConnectionTarget, targeted } from '../framework/commandTargets';
import { namedBy } from '../framework/namedBy';

export const bulkEdit = targeted({
  id: 'oms.bulkEdit',
  target: activeConnectionTarget,
  async run(s, { connection }: ConnectionTarget, arg?: unknown, selected?: unknown) {
    const given = arg as { operation?: unknown; stopOnError?: unknown } | undefined;
    const operation = given?.operation === undefined ? undefined : operationFromArgument(given.operation);
    const targets = await oneKind(await targetsOf(connection, arg, selected));
    if (!targets.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Bulk Edit: nothing selected to edit.'));
      return;
    }
    const kind = targets[0].kind;
    if (!supports(kind, 'update')) throw new Error(vscode.l10n.t('The service cannot update {0}.', kind.pluralLabel.toLowerCase()));
    const op = operation ?? (await askOperation(kind, await connection.client.get(kind, targets[0].folderKey, targets[0].key)));
    const title = vscode.l10n.t('Bulk edit of {0} {1}: {2}', targets.length, kind.pluralLabel.toLowerCase(), describeOperation(op));
    // The selection is frozen here: these objects, whatever the tree or the index shows later.
    return previewAndRun(
      runHost(s),
      {
        connection,
        journal: machineJournal(s),
        title,
        changes: bulkChanges(targets, op),
        header: { recipe: { type: 'bulk', operation: op } },
        words: { runLabel: vscode.l10n.t('Apply to') },
      },
      typeof given?.stopOnError === 'boolean' ? given.stopOnError : undefined,
    );
  },
});

/** Every object the argument names; a query or a group reads all of it, not what the tree loaded. */
async function targetsOf(connection: Connection, arg: unknown, selected: unknown): Promise<Target[]> {
  const nodes = Array.isArray(selected) && selected.length > 1 ? selected : [arg];
  const query = (arg as { query?: unknown } | undefined)?.query;
  if (typeof query === 'string' && query.trim()) return queryResults(connection, query);
  // The results of Find Objects Where…, as they were found: `{ connectionId, targets: [{ kind, folderKey, key, name }] }`.
  const given = (arg as { targets?: unknown } | undefined)?.targets;
  if (Array.isArray(given)) return given.map(givenTarget);
  // Nothing typed yet (or the palette): ask; an empty query would select everything.
  if (arg === undefined || typeof arg === 'string' || typeof query === 'string') {
    const typed = await vscode.window.showInputBox({
      title: vscode.l10n.t('Bulk Edit: objects whose name holds'),
      prompt: vscode.l10n.t('Every object that matches, in every folder, is selected'),
      ignoreFocusOut: true,
    });
    if (!typed?.trim()) throw new vscode.CancellationError();
    return queryResults(connection, typed);
  }
  const out: Target[] = [];
  for (const node of nodes) {
    const n = namedBy(node);
    if (n.key && n.kind && n.folderKey) out.push({ kind: n.kind, folderKey: n.folderKey, key: n.key, name: n.name ?? n.key });
    else if (n.kind && n.folderKey) out.push(...(await listed(connection, n.kind, [n.folderKey])));
    else if (n.folderKey) {
      const kind = await pickKind(vscode.l10n.t('Bulk Edit: which objects of this folder and its subfolders?'));
      out.push(...(await listed(connection, kind, await withSubfolders(connection, n.folderKey))));
    }
  }
  return out;
}

/** Every match as the server holds it now: a walk of its own, not the Go to Object index (which may be a minute old). */
async function queryResults(connection: Connection, query: string): Promise<Target[]> {
  const index = new ObjectIndex(sourceOf(connection));
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Finding every object that matches “{0}”', query), cancellable: true },
    async (_p, token) => {
      token.onCancellationRequested(() => index.stop());
      await index.ensure();
      if (token.isCancellationRequested) throw new vscode.CancellationError();
    },
  );
  const words = queryWords(query);
  return [...index.entries]
    .filter((e) => e.kind.id !== 'folder' && matches(e, words))
    .map((e) => ({ kind: e.kind, folderKey: e.folderKey, key: e.key, name: e.name }));
}

function givenTarget(t: unknown): Target {
  const { kind, folderKey, key, name } = (t ?? {}) as Record<string, unknown>;
  const k = typeof kind === 'string' ? kinds.get(kind as KindId) : undefined;
  if (!k || typeof folderKey !== 'string' || typeof key !== 'string') throw new Error(vscode.l10n.t('Bulk Edit: a target names no known kind, folder and key'));
  return { kind: k, folderKey, key, name: typeof name === 'string' ? name : key };
}

async function listed(connection: Connection, kind: Kind, folderKeys: string[]): Promise<Target[]> {
  const out: Target[] = [];
  for (const folderKey of folderKeys) {
    for (const o of await connection.client.listAll(kind, folderKey)) if (o.Key) out.push({ kind, folderKey, key: o.Key, name: o.CommonName || o.Key });
  }
  return out;
}

async function withSubfolders(connection: Connection, folderKey: string): Promise<string[]> {
  const out = [folderKey];
  for (let i = 0; i < out.length; i++) {
    for (const f of await connection.client.listAll(kindOf('folder'), out[i])) if (f.Key) out.push(f.Key);
  }
  return out;
}

/** Operations are per kind: with several kinds selected, the user picks one. */
async function oneKind(targets: Target[]): Promise<Target[]> {
  const kinds = [...new Set(targets.map((t) => t.kind))];
  if (kinds.length <= 1) return targets;
  const pick = await vscode.window.showQuickPick(
    kinds.map((k) => ({ label: k.pluralLabel, description: vscode.l10n.t('{0} selected', targets.filter((t) => t.kind === k).length), k })),
    { title: vscode.l10n.t('Bulk Edit: which kind of the selection?') },
  );
  if (!pick) throw new vscode.CancellationError();
  return targets.filter((t) => t.kind === pick.k);
}

async function pickKind(title: string): Promise<Kind> {
  const pick = await vscode.window.showQuickPick(
    objectKinds.filter((k) => supports(k, 'update')).map((k) => ({ label: k.pluralLabel, k })),
    { title },
  );
  if (!pick) throw new vscode.CancellationError();
  return pick.k;
}

/** The operation picked, then its questions in order (src/changes/operations.ts). */
async function askOperation(kind: Kind, sample: BaseInfo): Promise<BulkOperation> {
  const offered = (Object.keys(operations) as OperationType[]).filter((t) => operations[t].offeredFor?.(sample) ?? true);
  const items = offered.map((type) => ({ label: operations[type].label(), detail: operations[type].detail?.(), type }));
  const picked = await must(
    vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Bulk Edit {0}: operation', kind.pluralLabel.toLowerCase()),
    }),
  );
  const answers: Record<string, unknown> = { type: picked.type };
  for (const q of operations[picked.type].questions) Object.assign(answers, await ask(q, answers, sample));
  return answers as BulkOperation;
}

async function ask(q: Question, answers: Record<string, unknown>, sample: BaseInfo): Promise<Record<string, unknown>> {
  const title = q.title(answers);
  switch (q.type) {
    case 'row': {
      const rows = (sample as InputScannerInfo).InputScannerReportingPriorities;
      const row = await must(
        vscode.window.showQuickPick(
          rows.map((r) => ({ label: `${r.MinResistanceCode} – ${r.MaxResistanceCode}`, description: r.CommonName ?? '', r })),
          { title },
        ),
      );
      return { min: row.r.MinResistanceCode, max: row.r.MaxResistanceCode };
    }
    case 'choice':
      return { [q.name]: await must(vscode.window.showQuickPick([...(q.options ?? [])], { title })) };
    case 'field': {
      const fields = editableFields(sample).map((f) => ({ label: f, description: JSON.stringify(sample[f])?.slice(0, 60) }));
      return { [q.name]: (await must(vscode.window.showQuickPick(fields, { title }))).label };
    }
    case 'number': {
      const typed = await must(
        vscode.window.showInputBox({ title, validateInput: (v) => (/^-?\d+$/.test(v.trim()) ? undefined : vscode.l10n.t('A whole number')) }),
      );
      return { [q.name]: Number(typed) };
    }
    case 'tag':
      return { [q.name]: (await must(vscode.window.showInputBox({ title, validateInput: (v) => tagProblem(v.trim()) }))).trim() };
    case 'json':
      return { [q.name]: await valueInput(title) };
  }
}

/** JSON where the text is JSON (2, true, null, "x", [..]), else the text itself. */
async function valueInput(title: string): Promise<unknown> {
  const text = await must(vscode.window.showInputBox({ title, ignoreFocusOut: true }));
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function must<T>(value: Thenable<T | undefined>): Promise<T> {
  const v = await value;
  if (v === undefined) throw new vscode.CancellationError();
  return v;
}
