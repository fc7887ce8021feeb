/**
 * Apply the ticked entries of the shown plan through the run shell (stop or continue on error
 * chosen first; deletes need their count typed; a production connection asks once), and the dry
 * run, which lists the requests as cURL (no token, no secret) and sends nothing.
 */
import vscode = require('vscode');
import { dryRun } from '../../changes/code/apply';
import type { RunResult } from '../../runs/core/run';
import * as path from 'node:path';
import type { Connection } from '../../connection/connection';
import { applyTitle, sendPlan, type PlanRun } from '../../runs/core/applyRun';
import { actionCounts, ticked } from '../../changes/code/planCounts';
import { showReadOnly } from '../../runs/documents';
import { folderJournal } from '../../runs/core/journals';
import { rememberJournal, runHost } from '../../runs/vscodeHost';
import type { ShownPlan } from '../../views/planView';
import { bindingFor, shownPlan } from './codeFolder';
import { targeted } from '../framework/commandTargets';
import type { Services } from '../framework/command';

export const applyPlanCommand = targeted({
  id: 'oms.applyPlan',
  target: shownPlanTarget,
  async run(s, { shown, connection }, _arg?: unknown, options?: { stopOnError?: boolean; deletes?: number }): Promise<RunResult[]> {
    const sends = ticked(shown.plan);
    if (!sends.length) throw new Error(vscode.l10n.t('Nothing is ticked to send: tick entries under Create, Update or Delete'));
    const deletes = actionCounts(sends).delete;
    const title = applyTitle(folderName(shown.root), shown.plan);
    const target = `${connection.info.label} (${connection.info.baseUrl})`;
    const stopOnError =
      options?.stopOnError ??
      (await runHost(s).view.stopOnError(
        vscode.l10n.t('{0} to {1}', title, target),
        vscode.l10n.t('Apply'),
        vscode.l10n.t('Each object is checked against its version before it is sent'),
      ));
    // Scripts confirm deletes by giving their count, as a person types it.
    if (deletes && options?.deletes !== deletes) await confirmDeletes(deletes, target);
    return applyInEditor(s, { connection, binding: await bindingFor(connection), root: shown.root, plan: shown.plan, stopOnError, title });
  },
});

export const dryRunPlan = targeted({
  id: 'oms.dryRunPlan',
  target: shownPlanTarget,
  async run(_s, { shown, connection }): Promise<string[]> {
    const { commands, results } = await vscode.window.withProgress({ location: { viewId: 'oms.plan' } }, async () =>
      dryRun(connection.client, shown.root, await bindingFor(connection), shown.plan),
    );
    const refused = results.filter((r) => r.outcome !== 'applied').map((r) => `# ${r.label}: ${r.outcome}${r.reason ? ` (${r.reason})` : ''}`);
    const header = [
      vscode.l10n.t('# Dry run: the requests Apply would send to {0} ({1}). Nothing was sent.', connection.info.label, connection.info.baseUrl),
      vscode.l10n.t('# Set TOKEN to your access token before running them. Secret fields are left out.'),
    ];
    await showReadOnly('dry-run.sh', [...header, ...refused, '', ...commands].join('\n') + '\n', 'shellscript');
    return commands.filter((c) => !c.startsWith('#'));
  },
});

/** The plan the Object Changes view shows and the connection it was made against. */
function shownPlanTarget(s: Services): Promise<{ shown: ShownPlan; connection: Connection }> {
  const shown = shownPlan();
  const connection = s.connections.get(shown.connectionId);
  if (!connection) throw new Error(vscode.l10n.t('The connection of this plan was removed'));
  return Promise.resolve({ shown, connection });
}

async function confirmDeletes(count: number, target: string): Promise<void> {
  const typed = await vscode.window.showInputBox({
    title: count === 1 ? vscode.l10n.t('Delete 1 object on {0}', target) : vscode.l10n.t('Delete {0} objects on {1}', count, target),
    prompt:
      count === 1
        ? vscode.l10n.t('Type 1 to delete 1 object. A delete cannot be undone.')
        : vscode.l10n.t('Type {0} to delete {0} objects. A delete cannot be undone.', count),
    validateInput: (v) => (v.trim() === String(count) ? undefined : vscode.l10n.t('Type {0} to confirm', count)),
    ignoreFocusOut: true,
  });
  if (typed?.trim() !== String(count)) throw new vscode.CancellationError();
}

/** The folder as the workspace names it ("oms/sandbox"). */
export function folderName(root: string): string {
  return vscode.workspace.asRelativePath(root, false) || path.basename(root);
}

/** An apply through the run core with the editor's host, then a fresh plan shown. */
export async function applyInEditor(s: Services, run: PlanRun): Promise<RunResult[]> {
  rememberJournal(folderJournal(run.root));
  const record = await sendPlan(runHost(s), run);
  await vscode.commands.executeCommand('oms.plan', vscode.Uri.file(run.root));
  return record.results;
}
