/**
 * Undo Run…: a journalled run (bulk edit, apply, retry, undo) reversed as a new run, previewed
 * first. Each object goes back to what it was before the run only if it is still at the version
 * the run left; one changed by someone since is stale and never overwritten: Merge offers the
 * three-way merge (src/changes/merge3.ts) of the run's result, the object before it and the
 * server's copy, and sends the clean merges after their own preview.
 * Args: `{ runId?, connectionId? }`.
 */
import * as vscode from 'vscode';
import { mergedUndo, PreviewEntry, undoChanges } from '../changes/bulk';
import type { Change } from '../changes/executor';
import type { JournalEntry } from '../changes/runJournal';
import type { Connection } from '../connection/connection';
import { kind as kindOf } from '../model/kinds';
import { confirmPreview, countsText, journalOf, makePreview, runWithProgress } from './bulkRun';
import { activeConnectionTarget, ConnectionTarget, targeted } from './framework/commandTargets';
import type { Services } from './framework/command';

export const undoRun = targeted({
  id: 'oms.undoRun',
  target: activeConnectionTarget,
  async run(s, { connection }: ConnectionTarget, arg?: unknown) {
    const args = arg as { runId?: string } | undefined;
    const journal = journalOf(s);
    const runId = args?.runId ?? (await pickRun(s, connection));
    const run = await journal.read(runId);
    const title = vscode.l10n.t('Undo of “{0}”', run.header.title);
    const changes = undoChanges(run.entries, (id) => kindOf(id));
    if (!changes.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('{0}: the run changed nothing that can be put back.', title));
      return;
    }
    const entries = await makePreview(connection, title, changes);
    if (!entries) return;
    const stale = entries.filter((e) => e.status === 'stale');
    const confirmed = await confirmPreview(s, connection, title, entries, vscode.l10n.t('Put back'));
    if (!confirmed) return;
    const toSend = new Set(entries.filter((e) => e.status === 'change').map((e) => e.change.id));
    const done = await runWithProgress(s, connection, title, changes.filter((c) => toSend.has(c.id)), confirmed.stopOnError, runId);
    const staleIds = new Set([...stale.map((e) => e.change.id), ...done.results.filter((r) => r.outcome === 'stale').map((r) => r.id)]);
    if (staleIds.size) await offerMerge(s, connection, title, run.entries.filter((e) => staleIds.has(e.id)), runId);
  },
});

async function pickRun(s: Services, connection: Connection): Promise<string> {
  const runs = (await journalOf(s).runs(connection.id)).filter((r) => r.counts.applied);
  if (!runs.length) throw new Error(vscode.l10n.t('No run on {0} to undo (runs are kept on this machine).', connection.info.label));
  const pick = await vscode.window.showQuickPick(runs.map((r) => ({
    label: r.header.title,
    description: new Date(r.header.startedAt).toLocaleString(),
    detail: Object.entries(r.counts).map(([k, n]) => `${n} ${k}`).join(' · '),
    runId: r.header.runId,
  })), { title: vscode.l10n.t('Undo which run?') });
  if (!pick) throw new vscode.CancellationError();
  return pick.runId;
}

/** Stale objects: merge the undo (mine) with what changed since (theirs) over what the run left (base). */
async function offerMerge(s: Services, connection: Connection, title: string, stale: JournalEntry[], runId: string): Promise<void> {
  const merge = vscode.l10n.t('Merge…');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('{0}: {1} objects were changed by someone since the run and were left as they are.', title, stale.length), merge);
  if (choice !== merge) return;
  const conflicts: string[] = [];
  const changes: Change[] = [];
  for (const e of stale) {
    const kind = kindOf(e.kind);
    const merged = mergedUndo(e, kind, await connection.client.get(kind, e.folderKey, e.key!));
    if ('change' in merged) changes.push(merged.change);
    else conflicts.push(`${e.label}: ${merged.conflicts.join(', ')}`);
  }
  const mergeTitle = vscode.l10n.t('Merged undo of {0} objects', changes.length);
  let entries: PreviewEntry[] | undefined = [];
  if (changes.length) entries = await makePreview(connection, mergeTitle, changes);
  if (conflicts.length) {
    void vscode.window.showWarningMessage(vscode.l10n.t('{0} objects have edits since the run on the same fields and stay as they are: {1}', conflicts.length, conflicts.join('; ')));
  }
  if (!entries?.length) return;
  const confirmed = await confirmPreview(s, connection, `${mergeTitle} (${countsText(entries)})`, entries, vscode.l10n.t('Put back'));
  if (!confirmed) return;
  const toSend = new Set(entries.filter((x) => x.status === 'change').map((x) => x.change.id));
  await runWithProgress(s, connection, mergeTitle, changes.filter((c) => toSend.has(c.id)), confirmed.stopOnError, runId);
}
