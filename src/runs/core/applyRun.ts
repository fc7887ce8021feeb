/**
 * A pulled folder's plan sent through the run core, from the editor or `oms apply`: the ticked
 * entries, journalled in the folder's `.oms/runs/` (so the editor and the command line find the
 * same runs), then the folder's report.
 */
import { applyPlan, writeRunReport } from '../../changes/code/apply';
import type { ConnectionBinding } from '../../changes/code/manifest';
import type { Plan } from '../../changes/code/plan';
import type { Connection } from '../../connection/connection';
import { l10n } from '../../l10n';
import { folderJournal } from './journals';
import { runCore, type RunHost, type RunRecord } from './run';
import { sendsText, ticked } from '../../changes/code/planCounts';

export interface PlanRun {
  connection: Connection;
  binding: ConnectionBinding;
  root: string;
  plan: Plan;
  stopOnError: boolean;
  /** The run's title ("Apply oms/sandbox: 1 to create"). */
  title: string;
  /** A retry: the run whose failures these are. */
  retryOf?: string;
}

/** "Apply oms/sandbox: 1 to create, 2 to delete" (`folder` as the user names it). */
export function applyTitle(folder: string, plan: Plan): string {
  return l10n.t('Apply {0}: {1}', folder, sendsText(ticked(plan)));
}

export async function sendPlan(host: RunHost, run: PlanRun): Promise<RunRecord & { reportFile: string }> {
  const { connection, root, plan } = run;
  const record = await runCore(host, {
    connection,
    journal: folderJournal(root),
    title: run.title,
    total: ticked(plan).length,
    stopOnError: run.stopOnError,
    header: { recipe: { type: 'apply', folder: root }, ...(run.retryOf ? { retryOf: run.retryOf } : {}) },
    send: (options) => applyPlan(connection.client, root, run.binding, plan, options),
  });
  return { ...record, reportFile: await writeRunReport(root, plan, record.results) };
}
