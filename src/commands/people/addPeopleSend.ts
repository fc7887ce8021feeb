/**
 * Sending a batch add as a run of the run core: one approval for a production connection, one
 * stop-on-error choice, each batch's people journalled before it goes out, the core's cancellable
 * progress with counts (cancelling stops between batches: a batch in flight is never cut).
 */
import type { BatchProgress, BatchReport } from '../../api/batch';
import type { PersonRow } from '../../people';
import { sendPeopleRun } from '../../runs/core/peopleRun';
import type { RunRecord } from '../../runs/core/run';
import { machineJournal, runHost } from '../../runs/vscodeHost';
import type { FolderTarget } from '../framework/commandTargets';
import type { Services } from '../framework/command';
import { log } from '../../log';
import { wholeNumberSetting } from '../../settings';

/** How the batches go out (arguments of a script, else the settings). */
export interface SendOptions {
  batchSize?: number;
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (progress: BatchProgress) => void;
  /** After a batch fails, send no other (default: go on). */
  stopOnError?: boolean;
}

export function batchSize(args?: SendOptions): number {
  return args?.batchSize ?? wholeNumberSetting('batchSize');
}

export function concurrency(args?: SendOptions): number {
  return args?.concurrency ?? wholeNumberSetting('batchConcurrency');
}

/**
 * The people through the run core (src/runs/core/peopleRun.ts) with the editor's host, journalled in this
 * machine's journal. A script's `stopOnError` decides (else it goes on); a person is asked by the core.
 */
export async function sendPeople(
  s: Services,
  where: FolderTarget,
  rows: readonly PersonRow[],
  names: { title: string; source: string },
  args?: SendOptions,
): Promise<RunRecord & { report: BatchReport }> {
  const started = Date.now();
  const run = await sendPeopleRun(runHost(s), {
    connection: where.connection,
    journal: machineJournal(s),
    title: names.title,
    folderKey: where.folderKey,
    people: rows.map((r) => ({ row: r.place, person: r.person })),
    batchSize: batchSize(args),
    concurrency: concurrency(args),
    stopOnError: args ? !!args.stopOnError : undefined,
    source: names.source,
    signal: args?.signal,
    onProgress: args?.onProgress,
    ownReport: true,
  });
  const seconds = (Date.now() - started) / 1000;
  const sent = run.report.outcomes.filter((o) => o.ok).reduce((n, o) => n + o.end - o.start, 0);
  log().info(`${names.source}: ${sent} people sent in ${seconds.toFixed(2)} s (${Math.round(sent / Math.max(seconds, 0.001))} people/s)`);
  return run;
}
