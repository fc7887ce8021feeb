/** A pulled folder's plan sent through the run shell: the ticked entries, the folder's report, then a fresh plan. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { applyPlan, writeRunReport } from '../changes/code/apply';
import type { ConnectionBinding } from '../changes/code/manifest';
import type { Plan } from '../changes/code/plan';
import type { Connection } from '../connection/connection';
import { runInShell, type RunHost, type RunResult } from './run';
import { applyCountsText } from './words';

export interface PlanRun {
  connection: Connection;
  binding: ConnectionBinding;
  root: string;
  plan: Plan;
  stopOnError: boolean;
  /** A retry: the run whose failures these are. */
  retryOf?: string;
}

/** "Apply to oms/sandbox: 1 to create, 2 to delete" (the folder as the workspace names it). */
export function applyTitle(root: string, plan: Plan): string {
  const ticked = plan.entries.filter((e) => e.selected);
  const n = (a: string) => ticked.filter((e) => e.action === a).length;
  const folder = vscode.workspace.asRelativePath(root, false) || path.basename(root);
  return vscode.l10n.t('Apply {0}: {1}', folder, applyCountsText(n('create'), n('update'), n('delete')));
}

export async function sendPlan(host: RunHost, run: PlanRun): Promise<RunResult[]> {
  const { connection, root, plan } = run;
  const record = await runInShell(host, {
    connection, title: applyTitle(root, plan), total: plan.entries.filter((e) => e.selected).length, stopOnError: run.stopOnError,
    header: { recipe: { type: 'apply', folder: root }, ...(run.retryOf ? { retryOf: run.retryOf } : {}) },
    send: (options) => applyPlan(connection.client, root, run.binding, plan, options),
  });
  await writeRunReport(root, plan, record.results);
  await vscode.commands.executeCommand('oms.plan', vscode.Uri.file(root));
  return record.results;
}
