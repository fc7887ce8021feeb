/**
 * Undo Run…: a journalled run (bulk edit, apply, retry, undo) reversed as a new run, previewed
 * first: updates go back, creates are deleted, deletes are created again from the journal's copy,
 * and what cannot be put back is said per object. An object changed by someone since is stale
 * and never overwritten: Merge offers the three-way merge (src/changes/merge3.ts) of the run's
 * result, the object before it and the server's copy, also when every object is stale.
 * Args: `{ runId?, connectionId?, stopOnError? }` (with `stopOnError` no preview question).
 */
import * as vscode from 'vscode';
import { mergedUndo, undoPlan } from '../../changes/bulk';
import type { Change } from '../../changes/executor';
import type { JournalEntry, RunJournal } from '../../changes/runJournal';
import type { Connection } from '../../connection/connection';
import { kind as kindOf } from '../../model/kinds';
import { sendChanges } from '../../runs/changesRun';
import { runHost } from '../../runs/host';
import { confirmPreview, makePreview } from '../../runs/preview';
import type { RunHost } from '../../runs/run';
import { objectsText, outcomesText, previewCountsText } from '../../runs/words';
import { activeConnectionTarget, ConnectionTarget, targeted } from '../framework/commandTargets';

export const undoRun = targeted({
  id: 'oms.undoRun',
  target: activeConnectionTarget,
  async run(s, { connection }: ConnectionTarget, arg?: unknown) {
    const args = arg as { runId?: string; stopOnError?: boolean } | undefined;
    const host = runHost(s);
    const runId = args?.runId ?? (await pickRun(host.journal, connection));
    const run = await host.journal.read(runId);
    const title = vscode.l10n.t('Undo of “{0}”', run.header.title);
    const { changes, notes } = undoPlan(run.entries, (id) => kindOf(id));
    if (!changes.length) {
      const why = notes.map((n) => `${n.label}: ${n.note}`).join('; ');
      void vscode.window.showInformationMessage(why ? vscode.l10n.t('{0}: nothing can be put back. {1}', title, why) : vscode.l10n.t('{0}: the run changed nothing that can be put back.', title));
      return;
    }
    const entries = await makePreview(connection, title, changes);
    if (!entries) return;
    const stale = new Set(entries.filter((e) => e.status === 'stale').map((e) => e.change.id));
    const confirmed = args?.stopOnError !== undefined ? { stopOnError: args.stopOnError } : await confirmPreview(connection, title, entries, { runLabel: vscode.l10n.t('Put back'), notes });
    const toSend = new Set(entries.filter((e) => e.status === 'change').map((e) => e.change.id));
    if (confirmed && toSend.size) {
      const done = await sendChanges(host, { connection, title, changes: changes.filter((c) => toSend.has(c.id)), header: { of: runId, recipe: { type: 'undo' } }, words: { runLabel: '' } }, confirmed.stopOnError);
      for (const r of done.results) if (r.outcome === 'stale') stale.add(r.id);
    }
    // Offered also when the preview was cancelled: with every object stale, Merge is the one way on.
    if (stale.size) await offerMerge(host, connection, title, run.entries.filter((e) => stale.has(e.id)), runId);
  },
});

async function pickRun(journal: RunJournal, connection: Connection): Promise<string> {
  const runs = (await journal.runs(connection.id)).filter((r) => r.counts.applied || r.counts.unknown);
  if (!runs.length) throw new Error(vscode.l10n.t('No run on {0} to undo (runs are kept on this machine).', connection.info.label));
  const pick = await vscode.window.showQuickPick(runs.map((r) => ({
    label: r.header.title,
    description: new Date(r.header.startedAt).toLocaleString(),
    detail: outcomesText(r.counts),
    runId: r.header.runId,
  })), { title: vscode.l10n.t('Undo which run?') });
  if (!pick) throw new vscode.CancellationError();
  return pick.runId;
}

/** Stale objects: merge the undo (mine) with what changed since (theirs) over what the run left (base). */
async function offerMerge(host: RunHost, connection: Connection, title: string, stale: JournalEntry[], runId: string): Promise<void> {
  const merge = vscode.l10n.t('Merge…');
  const message = stale.length === 1
    ? vscode.l10n.t('{0}: 1 object was changed by someone since the run and was left as it is.', title)
    : vscode.l10n.t('{0}: {1} objects were changed by someone since the run and were left as they are.', title, stale.length);
  if ((await vscode.window.showWarningMessage(message, merge)) !== merge) return;
  const conflicts: string[] = [];
  const changes: Change[] = [];
  for (const e of stale.filter((x) => x.op === 'update' && x.before && x.key)) {
    const kind = kindOf(e.kind);
    const merged = mergedUndo(e, kind, await connection.client.get(kind, e.folderKey, e.key!));
    if ('change' in merged) changes.push(merged.change);
    else conflicts.push(`${e.label}: ${merged.conflicts.join(', ')}`);
  }
  if (conflicts.length) {
    void vscode.window.showWarningMessage(vscode.l10n.t('{0} have edits since the run on the same fields and stay as they are: {1}', objectsText(conflicts.length), conflicts.join('; ')));
  }
  if (!changes.length) return;
  const mergeTitle = vscode.l10n.t('Merged undo of {0}', objectsText(changes.length));
  const entries = await makePreview(connection, mergeTitle, changes);
  if (!entries) return;
  const confirmed = await confirmPreview(connection, mergeTitle, entries, { runLabel: vscode.l10n.t('Put back') });
  if (!confirmed) return;
  const toSend = new Set(entries.filter((x) => x.status === 'change').map((x) => x.change.id));
  await sendChanges(host, {
    connection, title: `${mergeTitle} (${previewCountsText(entries)})`, changes: changes.filter((c) => toSend.has(c.id)),
    header: { of: runId, recipe: { type: 'undo' } }, words: { runLabel: '' },
  }, confirmed.stopOnError);
}
