/**
 * Show Run…: a journalled run (of the editor, of `oms apply` in a pulled folder, or a journal file
 * opened by hand, as a CI job's artifact) with its outcome per object, and Retry Failed and Undo Run
 * offered as after a run of this window. Args: `{ runId? }`.
 */
import vscode = require('vscode');
import { journalOf } from '../../runs/core/journals';
import { outcomesText, resultsText } from '../../runs/core/words';
import { showReadOnly } from '../../runs/documents';
import { outcomeCounts, reportRun } from '../../runs/report';
import { editorJournals, pickRun } from '../../runs/vscodeHost';
import type { Command } from '../framework/command';

export const showRun: Command = {
  id: 'oms.showRun',
  async run(s, args?: { runId?: string }): Promise<string> {
    const { journal, runId } = args?.runId
      ? { journal: await journalOf(await editorJournals(s), args.runId), runId: args.runId }
      : await pickRun(
          s,
          vscode.l10n.t('Show which run?'),
          () => true,
          (r) => outcomesText(r.counts),
        );
    const { header, entries } = await journal.read(runId);
    const startedAt = new Date(header.startedAt).toLocaleString();
    const summary = `${header.title} (${startedAt}, ${header.url ?? header.connectionId}): ${outcomesText(outcomeCounts(entries))}`;
    const text = resultsText(summary, entries);
    await showReadOnly(`run-${runId}.txt`, text, 'plaintext');
    reportRun({ runId, title: header.title, connectionId: header.connectionId, results: entries, undoable: header.recipe?.type !== 'people' });
    return text;
  },
};
