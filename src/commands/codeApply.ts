/**
 * Apply the ticked entries of the shown plan (stop or continue on error chosen
 * first; a production connection asks once with the counts and URL; deletes
 * need their count typed), with progress, cancel and a result per object; and
 * the dry run, which lists the requests as cURL and sends nothing.
 */
import * as vscode from 'vscode';
import { OmsClient } from '../api/client';
import type { Http } from '../api/http';
import { applyPlan, dryRun, writeRunReport } from '../changes/code/apply';
import type { ChangeResult, Outcome } from '../changes/executor';
import { sendable } from '../changes/code/plan';
import { RunJournal } from '../changes/runJournal';
import { notify } from '../ui/notify';
import { planView, ShownPlan } from '../views/planView';
import { bindingFor, withCancellableProgress } from './objectsAsCode/codeFolder';
import type { Command, Services } from './framework/command';

export const applyPlanCommand: Command = {
  id: 'oms.applyPlan',
  async run(s, _arg?: unknown, options?: { stopOnError?: boolean }): Promise<ChangeResult[]> {
    const { shown, connection } = current(s);
    const ticked = shown.plan.entries.filter((e) => e.selected && sendable.has(e.action));
    if (!ticked.length) throw new Error(vscode.l10n.t('Nothing is ticked to send: tick entries under Create, Update or Delete'));
    const n = (a: string) => ticked.filter((e) => e.action === a).length;
    const what = vscode.l10n.t('{0} to create, {1} to update, {2} to delete', n('create'), n('update'), n('delete'));
    const target = `${connection.info.label} (${connection.info.baseUrl})`;
    const stopOnError = options?.stopOnError ?? (await askStopOnError(what, target));
    if (n('delete')) await confirmDeletes(n('delete'), target);
    // Production: one question for the whole run, naming counts and URL; every write of the run carries the answer.
    const approval = await connection.approveWrites(vscode.l10n.t('Apply {0}', what));
    const approved: Http = (req) => connection.client.http({ ...req, approval });
    const binding = await bindingFor(connection);
    // The run journal of bulk runs (Undo Run…, Retry Failed… read it): what each applied object was before.
    const journal = await new RunJournal(vscode.Uri.joinPath(s.context.globalStorageUri, 'runs').fsPath)
      .begin({ title: vscode.l10n.t('Apply plan: {0}', what), connectionId: connection.id, total: ticked.length });
    let results: ChangeResult[];
    try {
      results = await withCancellableProgress(vscode.l10n.t('Applying to {0}', connection.info.label), (say, signal) =>
        applyPlan(new OmsClient(approved), shown.root, binding, shown.plan, {
          stopOnError, signal,
          onProgress: (p) => say(vscode.l10n.t('{0}/{1} · {2} failed', p.done, p.total, p.failed)),
          onResult: (r, change) => {
            if (change) void journal.record(change, r).catch(() => undefined);
            // Open editors of the object follow, as after any save (objects/saves.ts).
            if (change?.key && r.outcome === 'applied' && r.after) s.saves.saved({ connectionId: connection.id, folderKey: change.folderKey, kind: change.kind, key: change.key }, r.after);
          },
        }));
    } finally {
      await journal.close();
    }
    const report = await writeRunReport(shown.root, shown.plan, results);
    const count = (o: Outcome) => results.filter((r) => r.outcome === o).length;
    const line = vscode.l10n.t('Applied {0} · unchanged {1} · stale {2} · failed {3} · not sent {4}', count('applied'), count('unchanged'), count('stale'), count('failed'), count('notSent'));
    notify(count('failed') || count('stale') || count('notSent') ? 'warning' : 'info', line, {
      title: vscode.l10n.t('Show Results'),
      run: async () => vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'markdown', content: resultsText(line, results) })),
    }, { title: vscode.l10n.t('Open Report'), run: () => vscode.window.showTextDocument(vscode.Uri.file(report)) });
    await vscode.commands.executeCommand('oms.plan', vscode.Uri.file(shown.root));
    return results;
  },
};

export const dryRunPlan: Command = {
  id: 'oms.dryRunPlan',
  async run(s): Promise<string[]> {
    const { shown, connection } = current(s);
    const { commands, results } = await vscode.window.withProgress({ location: { viewId: 'oms.plan' } }, async () =>
      dryRun(connection.client, shown.root, await bindingFor(connection), shown.plan));
    const refused = results.filter((r) => r.outcome !== 'applied').map((r) => `# ${r.label}: ${r.outcome}${r.reason ? ` (${r.reason})` : ''}`);
    const header = [
      vscode.l10n.t('# Dry run: the requests Apply would send to {0} ({1}). Nothing was sent.', connection.info.label, connection.info.baseUrl),
      vscode.l10n.t('# Set TOKEN to your access token before running them.'),
    ];
    const content = [...header, ...refused, '', ...commands].join('\n') + '\n';
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'shellscript', content }));
    return commands.filter((c) => !c.startsWith('#'));
  },
};

function current(s: Services): { shown: ShownPlan; connection: NonNullable<ReturnType<Services['connections']['get']>> } {
  const shown = planView.current;
  if (!shown) throw new Error(vscode.l10n.t('Plan a pulled folder first (Plan Changes…)'));
  const connection = s.connections.get(shown.connectionId);
  if (!connection) throw new Error(vscode.l10n.t('The connection of this plan was removed'));
  return { shown, connection };
}

async function askStopOnError(what: string, target: string): Promise<boolean> {
  const stop = { label: vscode.l10n.t('Apply, stop at the first error'), stop: true };
  const go = { label: vscode.l10n.t('Apply, continue after errors'), stop: false };
  const picked = await vscode.window.showQuickPick([stop, go], { title: vscode.l10n.t('Apply {0} to {1}', what, target), placeHolder: vscode.l10n.t('Each object is checked against its version before it is sent'), ignoreFocusOut: true });
  if (!picked) throw new vscode.CancellationError();
  return picked.stop;
}

async function confirmDeletes(count: number, target: string): Promise<void> {
  const typed = await vscode.window.showInputBox({
    title: vscode.l10n.t('Delete {0} objects on {1}', count, target),
    prompt: vscode.l10n.t('Type {0} to delete {0} objects. A delete cannot be undone.', count),
    validateInput: (v) => (v.trim() === String(count) ? undefined : vscode.l10n.t('Type {0} to confirm', count)),
    ignoreFocusOut: true,
  });
  if (typed?.trim() !== String(count)) throw new vscode.CancellationError();
}

function resultsText(line: string, results: ChangeResult[]): string {
  return [`# ${line}`, '', ...results.map((r) => `- **${r.outcome}** ${r.label}${r.reason ? `: ${r.reason}` : ''}`)].join('\n') + '\n';
}
