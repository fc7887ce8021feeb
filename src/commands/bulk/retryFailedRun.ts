/**
 * Retry Failed…: a journalled run (of the editor or of `oms apply`; bulk edit, apply, batch add, undo) sent
 * again for exactly its failed, unsent and unknown objects, minus those a retry already settled;
 * each object is read again first (nothing is resent blindly, a create whose answer was lost is
 * never sent again). The retry is journalled beside the run. Args: `{ runId?, stopOnError? }`
 * (without a run id: the newest run with objects left to send; from the palette, the run is picked
 * among those, or a journal file opened).
 */
import vscode = require('vscode');
import { bulkChanges } from '../../changes/bulk';
import { makePlan } from '../../changes/code/plan';
import type { RunJournal } from '../../changes/runJournal';
import { kind as kindOf } from '../../model/kinds';
import { applyTitle } from '../../runs/core/applyRun';
import { peopleOf, peopleText, sendPeopleRun } from '../../runs/core/peopleRun';
import { previewAndRun } from '../../runs/core/changesRun';
import { folderOfJournal, journalOf } from '../../runs/core/journals';
import { outstandingRuns, retrySelection, tickOutstanding, type Outstanding } from '../../runs/core/retry';
import { undoSelection } from '../../runs/core/undo';
import { objectsText, retryCountsText } from '../../runs/core/words';
import { editorJournals, pickRun, runHost } from '../../runs/vscodeHost';
import { runConnection } from './runConnection';
import { applyInEditor, folderName } from '../objectsAsCode/apply';
import { bindingFor } from '../objectsAsCode/codeFolder';
import type { Command, Services } from '../framework/command';
import { wholeNumberSetting } from '../../settings';

export const retryFailedRun: Command = {
  id: 'oms.retryFailedRun',
  async run(s, args?: { runId?: string; stopOnError?: boolean }) {
    const journals = await editorJournals(s);
    const chosen = args?.runId
      ? { journal: await journalOf(journals, args.runId), runId: args.runId }
      : args
        ? await newestOutstanding(journals)
        : await pickRun(
            s,
            vscode.l10n.t('Retry which run?'),
            (r) => !r.header.retryOf && !!((r.counts.failed ?? 0) + (r.counts.notSent ?? 0) + (r.counts.unknown ?? 0)),
            (r) => retryCountsText((r.counts.failed ?? 0) + (r.counts.unknown ?? 0), r.counts.notSent ?? 0),
          );
    const [run] = chosen ? await outstandingRuns(chosen.journal, undefined, chosen.runId) : [];
    if (!chosen || !run) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No run has failed or unsent objects left to send.'));
      return;
    }
    const { journal } = chosen;
    const recipe = run.header.recipe;
    if (!recipe) throw new Error(vscode.l10n.t('“{0}” was recorded before runs could be retried: run it again', run.header.title));
    const connection = await runConnection(s, run.header, journal);
    const { entries, lostCreates, lines } = retrySelection(run.entries);
    if (lostCreates.length) void vscode.window.showWarningMessage(lines[lines.length - 1]);
    if (!entries.length) return;
    const count = recipe.type === 'people' ? peopleText(entries.length) : objectsText(entries.length);
    const title = vscode.l10n.t('Retry of {0} of “{1}”', count, run.header.title);
    const header = { recipe, retryOf: run.header.runId, ...(run.header.of ? { of: run.header.of } : {}) };
    const never = new Set(entries.filter((e) => e.outcome === 'notSent').map((e) => e.id));
    const words = {
      runLabel: vscode.l10n.t('Send'),
      lines: lostCreates.length ? lines.slice(1) : [],
      objects: (changed: ReadonlyArray<{ change: { id: string } }>) => {
        const unsent = changed.filter((e) => never.has(e.change.id)).length;
        return retryCountsText(changed.length - unsent, unsent);
      },
    };
    const host = runHost(s);
    switch (recipe.type) {
      case 'bulk': {
        const targets = entries.filter((e) => e.key).map((e) => ({ kind: kindOf(e.kind), folderKey: e.folderKey, key: e.key!, name: e.label }));
        return previewAndRun(host, { connection, journal, title, changes: bulkChanges(targets, recipe.operation), header, words }, args?.stopOnError);
      }
      case 'undo': {
        const undone = await undoSelection(journal, run.header.of ?? '');
        const ids = new Set(entries.map((e) => e.id));
        return previewAndRun(
          host,
          {
            connection,
            journal,
            title,
            changes: undone.changes.filter((c) => ids.has(c.id)),
            header,
            words: { ...words, notes: undone.notes },
          },
          args?.stopOnError,
        );
      }
      case 'apply':
        return retryApply(s, journal, run, recipe.folder, args?.stopOnError);
      case 'people': {
        // Sent again from the journal's copies (no file needed); the question is the go-ahead.
        const stopOnError = args?.stopOnError ?? (await host.view.stopOnError(title, vscode.l10n.t('Send')));
        const people = peopleOf(entries);
        const { report: _report, ...record } = await sendPeopleRun(host, {
          connection,
          journal,
          title,
          folderKey: recipe.folderKey,
          people,
          batchSize: recipe.batchSize,
          concurrency: wholeNumberSetting('batchConcurrency'),
          stopOnError,
          source: run.header.title,
          retryOf: run.header.runId,
        });
        s.tree.objectChanged({ connectionId: connection.id, folderKey: recipe.folderKey, kind: kindOf('person'), key: '' });
        s.search.changed(connection.id, recipe.folderKey, 'person');
        return record;
      }
    }
  },
};

/** The newest run of any journal with objects left to send (a script's Retry Failed without a run id). */
async function newestOutstanding(journals: RunJournal[]): Promise<{ journal: RunJournal; runId: string } | undefined> {
  const found = (await Promise.all(journals.map(async (journal) => (await outstandingRuns(journal)).map((r) => ({ journal, runId: r.header.runId })))))
    .flat()
    .sort((a, b) => b.runId.localeCompare(a.runId));
  return found[0];
}

/** A fresh plan of the pulled folder with exactly the run's outstanding entries ticked, applied through the editor's host. */
async function retryApply(s: Services, journal: RunJournal, run: Outstanding, recorded: string, stopOnError?: boolean): Promise<unknown> {
  const root = folderOfJournal(journal) ?? recorded;
  const connection = await runConnection(s, run.header, journal);
  const binding = await bindingFor(connection);
  const { entries } = retrySelection(run.entries);
  const { plan } = await makePlan(connection.client, root, binding, { includeDeletes: entries.some((e) => e.op === 'delete') });
  const ticked = tickOutstanding(plan, entries);
  if (!ticked) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('“{0}”: none of its failed objects has anything to send now (plan again to see why).', run.header.title),
    );
    return;
  }
  const unsent = new Set(entries.filter((e) => e.outcome === 'notSent').flatMap((e) => [e.id, ...(e.key ? [e.key] : [])]));
  const never = plan.entries.filter((e) => e.selected && (unsent.has(e.id) || (!!e.key && unsent.has(e.key)))).length;
  const title = vscode.l10n.t('Retry of “{0}”: {1}', run.header.title, retryCountsText(ticked - never, never));
  const stop = stopOnError ?? (await runHost(s).view.stopOnError(title, vscode.l10n.t('Send')));
  return applyInEditor(s, { connection, binding, root, plan, stopOnError: stop, retryOf: run.header.runId, title: applyTitle(folderName(root), plan) });
}
