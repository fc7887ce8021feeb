/** A run of changes (a bulk edit, an undo, a retry of either): previewed, confirmed, then sent through the run core. */
import { previewChanges, type PreviewEntry } from '../../changes/bulk';
import { runChanges, type Change } from '../../changes/executor';
import type { RunHeader, RunJournal } from '../../changes/runJournal';
import type { Connection } from '../../connection/connection';
import { l10n } from '../../l10n';
import { runCore, type PreviewWords, type RunHost, type RunRecord, type ShowProgress } from './run';

export interface ChangesRun {
  connection: Connection;
  journal: RunJournal;
  title: string;
  changes: Change[];
  header?: Pick<RunHeader, 'of' | 'recipe' | 'retryOf'>;
  words: PreviewWords;
}

/** Every object read, with progress (cancellable); undefined when cancelled. `asked`: the preview is put to the user next. */
export function makePreview(host: RunHost, connection: Connection, title: string, changes: Change[], asked = true): Promise<PreviewEntry[] | undefined> {
  const work = async (show: ShowProgress, signal: AbortSignal) => {
    const entries = await previewChanges(connection.client, changes, {
      signal,
      onEntry: (_e, done, total) => show(done, total, l10n.t('read {0}/{1}', done, total)),
    });
    return signal.aborted ? undefined : entries;
  };
  return asked && host.view.readForPreview ? host.view.readForPreview(title, work) : host.view.progress(title, work);
}

/** Preview, the user's go (or `stopOnError` given: no question), then the run; undefined when cancelled before anything was sent. */
export async function previewAndRun(host: RunHost, run: ChangesRun, stopOnError?: boolean): Promise<RunRecord | undefined> {
  const entries = await makePreview(host, run.connection, run.title, run.changes, stopOnError === undefined);
  if (!entries) return undefined;
  const confirmed = stopOnError === undefined ? await host.view.confirm(run.connection, run.title, entries, run.words) : { stopOnError };
  if (!confirmed) return undefined;
  const toSend = new Set(entries.filter((e) => e.status === 'change').map((e) => e.change.id));
  const changes = run.changes.filter((c) => toSend.has(c.id));
  if (!changes.length) {
    host.view.say('info', l10n.t('{0}: nothing to send.', run.title));
    return undefined;
  }
  return sendChanges(host, { ...run, changes }, confirmed.stopOnError);
}

export function sendChanges(host: RunHost, run: ChangesRun, stopOnError: boolean): Promise<RunRecord> {
  const byId = new Map(run.changes.map((c) => [c.id, c]));
  return runCore(host, {
    connection: run.connection,
    journal: run.journal,
    title: run.title,
    total: run.changes.length,
    stopOnError,
    header: run.header,
    send: (options) => runChanges(run.connection.client, run.changes, { ...options, onResult: (r) => options.onResult(r, byId.get(r.id)) }),
  });
}
