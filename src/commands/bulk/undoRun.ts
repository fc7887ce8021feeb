/**
 * Undo Run…: a journalled run (of the editor or of `oms apply`; bulk edit, apply, retry, undo)
 * reversed as a new run, previewed first, with the writes of its Retry Failed runs: updates go
 * back, creates are deleted, deletes are created again from the journal's copy, and what cannot be
 * put back is said per object. An object changed by someone since is stale and never overwritten:
 * Merge offers the three-way merge (src/changes/merge3.ts) of the run's result, the object before
 * it and the server's copy, also when every object is stale. The undo is journalled beside the run.
 * Args: `{ runId?, connectionId?, stopOnError? }` (with `stopOnError` no preview question).
 */
import vscode = require('vscode');
import { mergedUndo } from '../../changes/bulk';
import type { Change } from '../../changes/executor';
import type { JournalEntry, RunJournal } from '../../changes/runJournal';
import type { Connection } from '../../connection/connection';
import { kind as kindOf } from '../../model/kinds';
import { makePreview, sendChanges } from '../../runs/core/changesRun';
import { journalOf, sameService } from '../../runs/core/journals';
import type { RunHost } from '../../runs/core/run';
import { undoSelection } from '../../runs/core/undo';
import { objectsText, outcomesText, previewCountsText } from '../../runs/core/words';
import { confirmPreview } from '../../runs/preview';
import { editorJournals, pickRun, runHost } from '../../runs/vscodeHost';
import { runConnection } from './runConnection';
import type { Command } from '../framework/command';

export const undoRun: Command = {
  id: 'oms.undoRun',
  async run(s, arg?: unknown) {
    const args = arg as { runId?: string; connectionId?: string; stopOnError?: boolean } | undefined;
    const host = runHost(s);
    const active = args?.connectionId ? s.connections.get(args.connectionId) : undefined;
    const { journal, runId } = args?.runId
      ? { journal: await journalOf(await editorJournals(s), args.runId), runId: args.runId }
      : await pickRun(
          s,
          vscode.l10n.t('Undo which run?'),
          (r) => !!(r.counts.applied || r.counts.unknown) && (!active || sameService(r.header, active)),
          (r) => outcomesText(r.counts),
        );
    const undo = await undoSelection(journal, runId);
    const connection = await runConnection(s, undo.header, journal);
    const { title, changes, notes } = undo;
    if (!changes.length) {
      const why = notes.map((n) => `${n.label}: ${n.note}`).join('; ');
      void vscode.window.showInformationMessage(
        why ? vscode.l10n.t('{0}: nothing can be put back. {1}', title, why) : vscode.l10n.t('{0}: the run changed nothing that can be put back.', title),
      );
      return;
    }
    const entries = await makePreview(host, connection, title, changes, args?.stopOnError === undefined);
    if (!entries) return;
    const stale = new Set(entries.filter((e) => e.status === 'stale').map((e) => e.change.id));
    const confirmed =
      args?.stopOnError !== undefined
        ? { stopOnError: args.stopOnError }
        : await confirmPreview(connection, title, entries, { runLabel: vscode.l10n.t('Put back'), notes, lines: undo.lines });
    const toSend = new Set(entries.filter((e) => e.status === 'change').map((e) => e.change.id));
    const header = { of: runId, recipe: { type: 'undo' as const } };
    if (confirmed && toSend.size) {
      const done = await sendChanges(
        host,
        { connection, journal, title, changes: changes.filter((c) => toSend.has(c.id)), header, words: { runLabel: '' } },
        confirmed.stopOnError,
      );
      for (const r of done.results) if (r.outcome === 'stale') stale.add(r.id);
    }
    // Offered also when the preview was cancelled: with every object stale, Merge is the one way on.
    if (stale.size)
      await offerMerge(
        host,
        connection,
        journal,
        title,
        undo.entries.filter((e) => stale.has(e.id)),
        runId,
      );
  },
};

/** Stale objects: merge the undo (mine) with what changed since (theirs) over what the run left (base). */
async function offerMerge(host: RunHost, connection: Connection, journal: RunJournal, title: string, stale: JournalEntry[], runId: string): Promise<void> {
  const merge = vscode.l10n.t('Merge…');
  const message =
    stale.length === 1
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
    void vscode.window.showWarningMessage(
      vscode.l10n.t('{0} have edits since the run on the same fields and stay as they are: {1}', objectsText(conflicts.length), conflicts.join('; ')),
    );
  }
  if (!changes.length) return;
  const mergeTitle = vscode.l10n.t('Merged undo of {0}', objectsText(changes.length));
  const entries = await makePreview(host, connection, mergeTitle, changes);
  if (!entries) return;
  const confirmed = await confirmPreview(connection, mergeTitle, entries, { runLabel: vscode.l10n.t('Put back') });
  if (!confirmed) return;
  const toSend = new Set(entries.filter((x) => x.status === 'change').map((x) => x.change.id));
  await sendChanges(
    host,
    {
      connection,
      journal,
      title: `${mergeTitle} (${previewCountsText(entries)})`,
      changes: changes.filter((c) => toSend.has(c.id)),
      header: { of: runId, recipe: { type: 'undo' } },
      words: { runLabel: '' },
    },
    confirmed.stopOnError,
  );
}
