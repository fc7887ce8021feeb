/** The editor's report of a run: its outcomes in words, then Show Results, Retry Failed and Undo Run. */
import vscode = require('vscode');
import type { EntryOutcome } from '../changes/runJournal';
import { notify } from '../ui/notify';
import { showReadOnly } from './documents';
import type { RunRecord } from './core/run';
import { outcomesText, resultsText } from './core/words';

export function outcomeCounts(results: ReadonlyArray<{ outcome: EntryOutcome }>): Partial<Record<EntryOutcome, number>> {
  const counts: Partial<Record<EntryOutcome, number>> = {};
  for (const r of results) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
  return counts;
}

/** `undoable: false`: a run Undo Run cannot put back (a batch add), offered no Undo Run. */
export function reportRun(run: Pick<RunRecord, 'runId' | 'title' | 'connectionId'> & { results: Parameters<typeof resultsText>[1]; undoable?: boolean }): void {
  const c = outcomeCounts(run.results);
  const message = `${run.title}: ${outcomesText(c)}`;
  const actions = [
    { title: vscode.l10n.t('Show Results'), run: () => showReadOnly('results.txt', resultsText(message, run.results), 'plaintext') },
    ...((c.failed ?? 0) + (c.notSent ?? 0) + (c.unknown ?? 0)
      ? [{ title: vscode.l10n.t('Retry Failed'), run: () => vscode.commands.executeCommand('oms.retryFailedRun', { runId: run.runId }) }]
      : []),
    ...((c.applied || c.unknown) && run.undoable !== false
      ? [{ title: vscode.l10n.t('Undo Run'), run: () => vscode.commands.executeCommand('oms.undoRun', { runId: run.runId, connectionId: run.connectionId }) }]
      : []),
  ];
  notify(c.failed || c.stale || c.notSent || c.unknown ? 'warning' : 'info', message, ...actions);
}
