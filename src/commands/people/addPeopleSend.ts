/**
 * Sending a batch add: one approval for a production connection, then the batches under the run
 * core's cancellable progress with counts and time (cancelling stops between batches: a batch in
 * flight is never cut).
 */
import * as vscode from 'vscode';
import type { BatchProgress, BatchReport } from '../../api/batch';
import { kind as kindOf } from '../../model/kinds';
import { actionRoutes, collectionActionPath } from '../../model/routes';
import type { PersonInfo } from '../../model/types';
import { editorView } from '../../runs/vscodeHost';
import type { FolderTarget } from '../framework/commandTargets';
import { log } from '../../log';
import { wholeNumberSetting } from '../../settings';

/** How the batches go out (arguments of a script, else the settings). */
export interface SendOptions {
  batchSize?: number;
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (progress: BatchProgress) => void;
}

export function batchSize(args?: SendOptions): number {
  return args?.batchSize ?? wholeNumberSetting('batchSize');
}

export function concurrency(args?: SendOptions): number {
  return args?.concurrency ?? wholeNumberSetting('batchConcurrency');
}

export async function sendPeople(where: FolderTarget, people: PersonInfo[], name: string, args?: SendOptions): Promise<BatchReport> {
  const size = batchSize(args),
    parallel = concurrency(args);
  // A production connection asks once for the whole batch add, before anything is sent (Cancel: nothing is).
  const path = collectionActionPath(actionRoutes.addPeople, kindOf('person'), where.folderKey);
  const approval = await where.connection.approveWrites(
    `POST ${path}: ${people.length === 1 ? vscode.l10n.t('1 person from {0} in {1} batch requests', name, Math.ceil(people.length / size)) : vscode.l10n.t('{0} people from {1} in {2} batch requests', people.length, name, Math.ceil(people.length / size))}`,
  );
  // The run core's progress (src/runs/vscodeHost.ts), as every run of many writes shows it.
  return editorView.progress(vscode.l10n.t('Adding people from {0}', name), async (report, cancelled) => {
    const controller = new AbortController();
    const batches = Math.ceil(people.length / size);
    const started = Date.now();
    let last: BatchProgress = { sentPeople: 0, totalPeople: people.length, doneBatches: 0, totalBatches: batches };
    const show = () => {
      const left = last.totalBatches - last.doneBatches;
      const seconds = (Date.now() - started) / 1000;
      report(
        last.doneBatches,
        last.totalBatches,
        (left === 1
          ? vscode.l10n.t('{0} of {1} people sent, 1 batch left, {2} s', last.sentPeople, last.totalPeople, seconds.toFixed(1))
          : vscode.l10n.t('{0} of {1} people sent, {2} batches left, {3} s', last.sentPeople, last.totalPeople, left, seconds.toFixed(1))) +
          (controller.signal.aborted ? ` ${vscode.l10n.t('(stopping)')}` : ''),
      );
    };
    const stop = () => {
      controller.abort();
      show();
    };
    cancelled.addEventListener('abort', stop, { once: true });
    args?.signal?.addEventListener('abort', stop, { once: true });
    if (args?.signal?.aborted) controller.abort();
    show();
    // Shown on a clock, not per batch: a slow batch still shows time passing (the progress itself redraws at most once a second).
    const ticker = setInterval(show, 200);
    try {
      const result = await where.connection.client.addPeople(where.folderKey, people, {
        approval,
        batchSize: size,
        concurrency: parallel,
        signal: controller.signal,
        onProgress: (p) => {
          last = p;
          args?.onProgress?.(p);
        },
      });
      show();
      const seconds = (Date.now() - started) / 1000;
      log().info(`${name}: ${last.sentPeople} people sent in ${seconds.toFixed(2)} s (${Math.round(last.sentPeople / Math.max(seconds, 0.001))} people/s)`);
      return result;
    } finally {
      clearInterval(ticker);
    }
  });
}
