/**
 * Bulk Edit…: one operation on many objects, previewed before anything is sent.
 * On: all results of a Go to Object query (args `{ connectionId, query }`; objects the tree
 * never loaded included: a fresh walk of everything), a multi-selection in the tree, a group,
 * or a folder with its subfolders. Operations by keyboard: set a field; set a reporting
 * priority's Priority or StatusCode on the row with a given resistance range; replace a value
 * only where it equals a given one; add or remove a tag.
 */
import * as vscode from 'vscode';
import { BulkOperation, bulkChanges, describeOperation, Target } from '../changes/bulk';
import type { Connection } from '../connection/connection';
import { Kind, kind as kindOf, objectKinds, serverOwnedFields, supports } from '../model/kinds';
import type { BaseInfo, InputScannerInfo } from '../model/types';
import { sourceOf } from '../search/indexes';
import { matches, queryWords } from '../search/match';
import { ObjectIndex } from '../search/objectIndex';
import { confirmPreview, makePreview, runWithProgress } from './bulkRun';
import { activeConnectionTarget, ConnectionTarget, targeted } from './framework/commandTargets';
import { namedBy } from './framework/namedBy';

export const bulkEdit = targeted({
  id: 'oms.bulkEdit',
  target: activeConnectionTarget,
  async run(s, { connection }: ConnectionTarget, arg?: unknown, selected?: unknown) {
    const all = await targetsOf(connection, arg, selected);
    const targets = await oneKind(all);
    if (!targets.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Bulk Edit: nothing selected to edit.'));
      return;
    }
    const kind = targets[0].kind;
    if (!supports(kind, 'update')) throw new Error(vscode.l10n.t('The service cannot update {0}.', kind.pluralLabel.toLowerCase()));
    const sample = await connection.client.get(kind, targets[0].folderKey, targets[0].key);
    const op = await pickOperation(kind, sample);
    const title = vscode.l10n.t('Bulk edit of {0} {1}: {2}', targets.length, kind.pluralLabel.toLowerCase(), describeOperation(op));
    // The selection is frozen here: these objects, whatever the tree or the index shows later.
    const changes = bulkChanges(targets, op);
    const entries = await makePreview(connection, title, changes);
    if (!entries) return;
    const confirmed = await confirmPreview(s, connection, title, entries, vscode.l10n.t('Apply to'));
    if (!confirmed) return;
    const toSend = new Set(entries.filter((e) => e.status === 'change').map((e) => e.change.id));
    await runWithProgress(s, connection, title, changes.filter((c) => toSend.has(c.id)), confirmed.stopOnError);
  },
});

/** Every object the argument names; a query or a group reads all of it, not what the tree loaded. */
async function targetsOf(connection: Connection, arg: unknown, selected: unknown): Promise<Target[]> {
  const nodes = Array.isArray(selected) && selected.length > 1 ? selected : [arg];
  const query = (arg as { query?: unknown } | undefined)?.query;
  if (typeof query === 'string' && query.trim()) return queryResults(connection, query);
  // Nothing typed yet (or the palette): ask; an empty query would select everything.
  if (arg === undefined || typeof arg === 'string' || typeof query === 'string') {
    const typed = await vscode.window.showInputBox({ title: vscode.l10n.t('Bulk Edit: objects whose name holds'), prompt: vscode.l10n.t('Every object that matches, in every folder, is selected'), ignoreFocusOut: true });
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
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Finding every object that matches “{0}”', query), cancellable: true }, async (_p, token) => {
    token.onCancellationRequested(() => index.stop());
    await index.ensure();
    if (token.isCancellationRequested) throw new vscode.CancellationError();
  });
  const words = queryWords(query);
  return [...index.entries].filter((e) => e.kind.id !== 'folder' && matches(e, words)).map((e) => ({ kind: e.kind, folderKey: e.folderKey, key: e.key, name: e.name }));
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
  const pick = await vscode.window.showQuickPick(kinds.map((k) => ({ label: k.pluralLabel, description: vscode.l10n.t('{0} selected', targets.filter((t) => t.kind === k).length), k })), { title: vscode.l10n.t('Bulk Edit: which kind of the selection?') });
  if (!pick) throw new vscode.CancellationError();
  return targets.filter((t) => t.kind === pick.k);
}

async function pickKind(title: string): Promise<Kind> {
  const pick = await vscode.window.showQuickPick(objectKinds.filter((k) => supports(k, 'update')).map((k) => ({ label: k.pluralLabel, k })), { title });
  if (!pick) throw new vscode.CancellationError();
  return pick.k;
}

async function pickOperation(kind: Kind, sample: BaseInfo): Promise<BulkOperation> {
  const rows = (sample as InputScannerInfo).InputScannerReportingPriorities;
  const ops = [
    ...(Array.isArray(rows) ? [{ label: vscode.l10n.t('Set a reporting priority row…'), detail: vscode.l10n.t('Priority or StatusCode on the row with a given resistance range'), type: 'setRow' as const }] : []),
    { label: vscode.l10n.t('Set a field…'), type: 'set' as const },
    { label: vscode.l10n.t('Replace a value…'), detail: vscode.l10n.t('only where the field holds a given value'), type: 'replace' as const },
    { label: vscode.l10n.t('Add a tag…'), type: 'addTag' as const },
    { label: vscode.l10n.t('Remove a tag…'), type: 'removeTag' as const },
  ];
  const op = await must(vscode.window.showQuickPick(ops, { title: vscode.l10n.t('Bulk Edit {0}: operation', kind.pluralLabel.toLowerCase()) }));
  switch (op.type) {
    case 'setRow': {
      const row = await must(vscode.window.showQuickPick(rows.map((r) => ({ label: `${r.MinResistanceCode} – ${r.MaxResistanceCode}`, description: r.CommonName ?? '', r })), { title: vscode.l10n.t('Which row (by resistance range; each object\'s row with this range)') }));
      const field = await must(vscode.window.showQuickPick(['Priority', 'StatusCode'], { title: vscode.l10n.t('Which value of the row') })) as 'Priority' | 'StatusCode';
      const value = Number(await must(vscode.window.showInputBox({ title: vscode.l10n.t('New {0} for rows {1} – {2}', field, row.r.MinResistanceCode, row.r.MaxResistanceCode), validateInput: (v) => (/^-?\d+$/.test(v.trim()) ? undefined : vscode.l10n.t('A whole number')) })));
      return { type: 'setRow', min: row.r.MinResistanceCode, max: row.r.MaxResistanceCode, field, value };
    }
    case 'set': case 'replace': {
      const fields = Object.keys(sample).filter((f) => !serverOwnedFields.includes(f));
      const field = (await must(vscode.window.showQuickPick(fields.map((f) => ({ label: f, description: JSON.stringify(sample[f])?.slice(0, 60) })), { title: vscode.l10n.t('Which field') }))).label;
      if (op.type === 'set') return { type: 'set', field, value: await valueInput(vscode.l10n.t('New value of {0} (JSON, or text)', field)) };
      const from = await valueInput(vscode.l10n.t('Replace {0} only where it is (JSON, or text)', field));
      return { type: 'replace', field, from, to: await valueInput(vscode.l10n.t('… by (JSON, or text)')) };
    }
    case 'addTag': case 'removeTag': {
      const tag = await must(vscode.window.showInputBox({ title: op.label, validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A tag')) }));
      return { type: op.type, tag: tag.trim() };
    }
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
