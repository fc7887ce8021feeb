/**
 * Batch-Add People as a run of the run core: people sent to a folder in batches (`POST
 * …/people/complex`). Before a batch goes out, each of its people is journalled by row (the intent);
 * after it, their outcome: applied, failed (refused: what to send is kept, so Retry Failed sends it
 * without the file), or none when the batch had no answer or a 5xx (it may have been created: the
 * journal reads "unknown" and Retry Failed never sends it again). People of batches never started
 * end "not sent", kept as well. The service answers a batch with a count, not the Keys it made, so
 * Undo Run cannot tell which people to delete: it says so (undo.ts).
 */
import type { BatchProgress, BatchReport } from '../../api/batch';
import { unknownEffect, type Change, type ChangeResult } from '../../changes/executor';
import type { JournalEntry, RunJournal } from '../../changes/runJournal';
import type { Connection } from '../../connection/connection';
import { kind as kindOf } from '../../model/kinds';
import { actionRoutes, collectionActionPath } from '../../model/routes';
import type { PersonInfo } from '../../model/types';
import { l10n } from '../../l10n';
import { runCore, type RunHost, type RunRecord } from './run';

/** A person to add and where it came from ("line 12", "item 3"): its id in the journal. */
export interface PersonToAdd {
  row: string;
  person: PersonInfo;
}

export interface PeopleRun {
  connection: Connection;
  journal: RunJournal;
  title: string;
  folderKey: string;
  people: readonly PersonToAdd[];
  batchSize: number;
  concurrency: number;
  /** Undefined: asked through the host when there is more than one batch (one batch has nothing after it to stop). */
  stopOnError?: boolean;
  /** Where the people come from, for the approval ("staff.csv"). */
  source: string;
  /** A retry: the run whose failed people these are. */
  retryOf?: string;
  /** A script's cancel, besides the progress's Cancel. */
  signal?: AbortSignal;
  /** After each batch (a script's). */
  onProgress?(progress: BatchProgress): void;
  /** The caller says the run's end (the editor's summary, with its file of failed people). */
  ownReport?: boolean;
}

/** "1 person" / "3 people". */
export function peopleText(n: number): string {
  return n === 1 ? l10n.t('1 person') : l10n.t('{0} people', n);
}

export async function sendPeopleRun(host: RunHost, run: PeopleRun): Promise<RunRecord & { report: BatchReport }> {
  const { connection, folderKey, people } = run;
  const person = kindOf('person');
  const changes: Change[] = people.map((p) => ({
    id: p.row,
    // The row is the id, shown beside the label ("Ada Lovelace (line 2)").
    label: p.person.CommonName || [p.person.GivenName, p.person.Surname].filter(Boolean).join(' ') || p.row,
    kind: person,
    folderKey,
    op: 'create',
    build: () => p.person,
  }));
  const size = Math.max(1, Math.floor(run.batchSize));
  const batches = Math.ceil(people.length / size);
  const path = collectionActionPath(actionRoutes.addPeople, person, folderKey);
  const stopOnError = run.stopOnError ?? (batches > 1 && (await host.view.stopOnError(run.title, l10n.t('Add'))));
  let report: BatchReport | undefined;
  const record = await runCore(host, {
    connection,
    journal: run.journal,
    title: run.title,
    total: people.length,
    stopOnError,
    approval: `POST ${path}: ${
      people.length === 1
        ? l10n.t('1 person from {0} in {1} batch requests', run.source, batches)
        : l10n.t('{0} people from {1} in {2} batch requests', people.length, run.source, batches)
    }`,
    ownReport: run.ownReport,
    header: { recipe: { type: 'people', folderKey, batchSize: size }, ...(run.retryOf ? { retryOf: run.retryOf } : {}) },
    send: async (options) => {
      const results: ChangeResult[] = [];
      const rows = (o: { start: number; end: number }) => changes.slice(o.start, o.end).map((change, i) => ({ change, person: people[o.start + i].person }));
      /** Batches whose intents are on disk: they went out. */
      const sent = new Set<number>();
      let done = 0;
      let failed = 0;
      report = await connection.client.addPeople(
        folderKey,
        people.map((p) => p.person),
        {
          approval: options.approval,
          batchSize: size,
          concurrency: run.concurrency,
          stopOnError: options.stopOnError,
          signal: run.signal && options.signal ? AbortSignal.any([run.signal, options.signal]) : (run.signal ?? options.signal),
          beforeBatch: async (o) => {
            await Promise.all(rows(o).map(async ({ change, person }) => options.beforeWrite?.(change, person)));
            sent.add(o.index);
          },
          onBatch: (o) => {
            // No answer, or a 5xx: the batch may have been created. Its intents stay open ("unknown") in the journal.
            const lost = !o.ok && sent.has(o.index) && unknownEffect(o.error);
            const reason = o.error?.status ? `${o.error.status}: ${o.error.message}` : o.error?.message;
            for (const { change, person } of rows(o)) {
              const { id, label } = change;
              const result: ChangeResult = o.ok
                ? { id, label, outcome: 'applied' }
                : lost
                  ? { id, label, outcome: 'failed', reason: l10n.t('{0}: it may have been created (no clear answer came)', reason ?? '') }
                  : { id, label, outcome: 'failed', ...(reason ? { reason } : {}), sent: person };
              results.push(result);
              if (!lost) options.onResult(result, change);
            }
            done += o.end - o.start;
            if (!o.ok) failed += o.end - o.start;
            options.onProgress?.({ done, total: people.length, failed });
          },
          onProgress: (p) => run.onProgress?.(p),
        },
      );
      for (const o of report.outcomes.filter((x) => x.skipped)) {
        for (const { change, person } of rows(o)) {
          const result: ChangeResult = { id: change.id, label: change.label, outcome: 'notSent', sent: person };
          results.push(result);
          options.onResult(result, change);
        }
      }
      return results;
    },
  });
  return { ...record, report: report ?? { added: 0, outcomes: [], failed: [], cancelled: false } };
}

/** The people a retry sends: the failed and never-sent people of a batch add, as its journal keeps them. */
export function peopleOf(entries: readonly JournalEntry[]): PersonToAdd[] {
  return entries.filter((e) => e.sent && e.op === 'create').map((e) => ({ row: e.id, person: e.sent as PersonInfo }));
}
