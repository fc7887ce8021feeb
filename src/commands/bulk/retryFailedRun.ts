/**
 * Retry Failed…: a journalled run (from this window or before a reload; bulk edit, apply, undo)
 * sent again for exactly its failed, unsent and unknown objects, minus those a retry already
 * settled; each object is read again first (nothing is resent blindly, a create whose answer was
 * lost is never sent again). Args: `{ runId?, stopOnError? }` (else the newest run with failures).
 */
import * as vscode from 'vscode';
import { bulkChanges, undoPlan } from '../../changes/bulk';
import { makePlan } from '../../changes/code/plan';
import type { JournalEntry } from '../../changes/runJournal';
import { kind as kindOf } from '../../model/kinds';
import { sendPlan } from '../../runs/applyRun';
import { previewAndRun } from '../../runs/changesRun';
import { runHost } from '../../runs/host';
import { outstandingRuns, type Outstanding } from '../../runs/retry';
import { objectsText } from '../../runs/words';
import { bindingFor } from '../objectsAsCode/codeFolder';
import type { Command, Services } from '../framework/command';

export const retryFailedRun: Command = {
  id: 'oms.retryFailedRun',
  async run(s, args?: { runId?: string; stopOnError?: boolean }) {
    const host = runHost(s);
    const [run] = await outstandingRuns(host.journal, undefined, args?.runId);
    if (!run) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No run has failed or unsent objects left to send (runs are kept on this machine).'));
      return;
    }
    const recipe = run.header.recipe;
    if (!recipe) throw new Error(vscode.l10n.t('“{0}” was recorded before runs could be retried: run it again', run.header.title));
    const connection = s.connections.require(run.header.connectionId);
    // A create whose answer never came may exist under a Key nobody saw: not sent again, said.
    const lostCreates = run.entries.filter((e) => e.outcome === 'unknown' && e.op === 'create');
    if (lostCreates.length) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Not sent again, they may have been created (no answer came): {0}. Plan or look for them first.', lostCreates.map((e) => e.label).join(', ')));
    }
    const entries = run.entries.filter((e) => !lostCreates.includes(e));
    if (!entries.length) return;
    const title = vscode.l10n.t('Retry of {0} of “{1}”', objectsText(entries.length), run.header.title);
    const header = { recipe, retryOf: run.header.runId, ...(run.header.of ? { of: run.header.of } : {}) };
    const words = { runLabel: vscode.l10n.t('Send again to') };
    switch (recipe.type) {
      case 'bulk': {
        const targets = entries.filter((e) => e.key).map((e) => ({ kind: kindOf(e.kind), folderKey: e.folderKey, key: e.key!, name: e.label }));
        return previewAndRun(host, { connection, title, changes: bulkChanges(targets, recipe.operation), header, words }, args?.stopOnError);
      }
      case 'undo': {
        const undone = await host.journal.read(run.header.of ?? '');
        const ids = new Set(entries.map((e) => e.id));
        const { changes, notes } = undoPlan(undone.entries, (id) => kindOf(id));
        return previewAndRun(host, { connection, title, changes: changes.filter((c) => ids.has(c.id)), header, words: { ...words, notes } }, args?.stopOnError);
      }
      case 'apply': return retryApply(s, run, entries, recipe.folder, args?.stopOnError);
    }
  },
};

/** A fresh plan of the pulled folder with exactly the run's outstanding entries ticked. */
async function retryApply(s: Services, run: Outstanding, entries: JournalEntry[], root: string, stopOnError?: boolean): Promise<unknown> {
  const connection = s.connections.require(run.header.connectionId);
  const binding = await bindingFor(connection);
  const { plan } = await makePlan(connection.client, root, binding, { includeDeletes: entries.some((e) => e.op === 'delete') });
  const ids = new Set(entries.flatMap((e) => [e.id, ...(e.key ? [e.key] : [])]));
  for (const e of plan.entries) e.selected = ['create', 'update', 'delete'].includes(e.action) && (ids.has(e.id) || (!!e.key && ids.has(e.key)));
  const ticked = plan.entries.filter((e) => e.selected).length;
  if (!ticked) {
    void vscode.window.showInformationMessage(vscode.l10n.t('“{0}”: none of its failed objects has anything to send now (plan again to see why).', run.header.title));
    return;
  }
  const stop = stopOnError ?? (await askStop(vscode.l10n.t('Send again {0} of “{1}”', objectsText(ticked), run.header.title)));
  return sendPlan(runHost(s), { connection, binding, root, plan, stopOnError: stop, retryOf: run.header.runId });
}

async function askStop(title: string): Promise<boolean> {
  const stop = { label: vscode.l10n.t('Send again, stop at the first error'), stop: true };
  const go = { label: vscode.l10n.t('Send again, continue after errors'), stop: false };
  const picked = await vscode.window.showQuickPick([stop, go], { title, ignoreFocusOut: true });
  if (!picked) throw new vscode.CancellationError();
  return picked.stop;
}
