/**
 * The run core, plain Node: one run of many writes as Bulk Edit, Apply, Batch-Add People, Undo Run
 * and Retry Failed run it, in the editor and on the command line alike. One approval for the whole
 * run (asked once on a production connection, carried by every write), one stop-on-error choice
 * (the host's `stopOnError`, or the preview's), one journal (each write's intent on disk before it
 * goes out, then its outcome), one progress with counts and cancel, every outcome told to the
 * host's events, and one report. What the user sees is the host's view: the editor's
 * (src/runs/vscodeHost.ts: a progress notification, quick picks, notifications) or the terminal's
 * (src/cli/terminalHost.ts: progress lines, --auto-approve, exit codes).
 */
import type { PreviewEntry } from '../../changes/bulk';
import { resultLine, type Change, type ChangeResult, type ResultLine, type RunOptions } from '../../changes/executor';
import type { RunHeader, RunJournal } from '../../changes/runJournal';
import type { Connection } from '../../connection/connection';
import type { Kind } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import { l10n } from '../../l10n';
import { objectsText } from './words';

/** An object a run wrote, as the editor's views name it. */
export interface WrittenObject {
  connectionId: string;
  folderKey: string;
  kind: Kind;
  key: string;
}

/** What a run tells as objects are written: open editors follow at once; the views hear when it ends. */
export interface RunEvents {
  /** Written (`object` as the server now holds it) or deleted (undefined). */
  wrote(address: WrittenObject, object: BaseInfo | undefined): void;
  /** The run ended: every object it wrote or deleted, for the tree and Go to Object. */
  ended(addresses: readonly WrittenObject[], deleted: readonly WrittenObject[]): Promise<void>;
}

/** Counts shown while work goes on: "12/40 · 1 failed". */
export type ShowProgress = (done: number, total: number, text: string) => void;

/** How a preview is put before the user: the run's verb, and what it cannot do per object. */
export interface PreviewWords {
  /** "Apply to", "Put back", "Send again to". */
  runLabel: string;
  /** Per object, what the run cannot do and why (an undo's creates, deletes and secrets). */
  notes?: ReadonlyArray<{ label: string; note: string }>;
  /** Lines said with the choice (a retry's objects that may have been created, an undo's retries). */
  lines?: readonly string[];
  /** The objects to send in words, when a count alone would mislead (a retry: sent before, never sent). */
  objects?(changed: readonly PreviewEntry[]): string;
}

/** What the user sees and answers: the editor's notifications and picks, or the terminal's lines and flags. */
export interface RunView {
  /** Runs `work` with progress shown and a way to cancel it (the signal). */
  progress<T>(title: string, work: (show: ShowProgress, signal: AbortSignal) => Promise<T>): Promise<T>;
  /** The reading before a preview the user is asked about, when shown apart from other progress (`progress` otherwise). */
  readForPreview?<T>(title: string, work: (show: ShowProgress, signal: AbortSignal) => Promise<T>): Promise<T>;
  /** The go-ahead for a previewed run, and whether to stop at the first error; undefined: send nothing. */
  confirm(connection: Connection, title: string, entries: PreviewEntry[], words: PreviewWords): Promise<{ stopOnError: boolean } | undefined>;
  /**
   * Stop at the first error, or go on? The one place every run kind asks it, when its preview did not
   * (`verb`: "Apply", "Send"); throws a cancellation when not answered.
   */
  stopOnError(title: string, verb: string, placeHolder?: string): Promise<boolean>;
  /** A message that needs no answer. */
  say(level: 'info' | 'warning', message: string): void;
  /** The run's end: its outcomes, and what can follow (Show Results, Retry Failed, Undo Run). */
  report(record: RunRecord): void;
}

/** Where a run is shown and whom it tells. */
export interface RunHost {
  view: RunView;
  events?: RunEvents;
}

/** The executor's options a run kind hands on to its sender (`runChanges`, or `applyPlan` for a pulled folder). */
export type SendOptions = Omit<RunOptions, 'onResult'> & { onResult(r: ChangeResult, change?: Change): void };

export interface RunSpec {
  connection: Connection;
  /** Where this run's journal is written: a retry or an undo beside the run it follows. */
  journal: RunJournal;
  title: string;
  /** Objects the run may write (for the approval and the progress). */
  total: number;
  stopOnError: boolean;
  header?: Pick<RunHeader, 'of' | 'recipe' | 'retryOf'>;
  /** What a production connection's one approval names (else the title and the count of objects). */
  approval?: string;
  /** The run kind says its end itself (Batch-Add People's summary, with its file of failed people): no report by the host. */
  ownReport?: boolean;
  send(options: SendOptions): Promise<ChangeResult[]>;
}

/**
 * An object's end as a run keeps and returns it: without the objects read before and after. A command's
 * answer crosses to the window when run from a menu or the palette: 10,000 objects' texts held it up 500 ms.
 */
export type RunResult = ResultLine;

export interface RunRecord {
  runId: string;
  title: string;
  connectionId: string;
  results: RunResult[];
  /** Writes that went out (an intent journalled): none means nothing was sent. */
  writes: number;
}

/** A run that stopped on an error after writes went out: not "nothing was sent" (the journal names each write). */
export class RunStopped extends Error {
  constructor(
    readonly error: Error,
    readonly writes: number,
  ) {
    super(error.message, { cause: error });
  }
}

/** Runs `spec` with approval, journal, progress, events and report; the report is shown without waiting for it. */
export async function runCore(host: RunHost, spec: RunSpec): Promise<RunRecord> {
  const { connection, title } = spec;
  const approval = await connection.approveWrites(spec.approval ?? l10n.t('{0}: {1}', title, objectsText(spec.total)));
  const { url, production } = { url: connection.info.baseUrl, production: connection.info.production };
  const writer = await spec.journal.begin({
    title,
    connectionId: connection.id,
    url,
    ...(production ? { production: true } : {}),
    total: spec.total,
    ...spec.header,
  });
  const written: WrittenObject[] = [];
  const deleted: WrittenObject[] = [];
  let writes = 0;
  let results: ChangeResult[];
  try {
    results = await host.view.progress(title, (show, signal) =>
      spec.send({
        stopOnError: spec.stopOnError,
        signal,
        approval,
        beforeWrite: (change, body, live) => {
          writes++;
          return writer.intent(change, body, live);
        },
        onResult: (r, change) => {
          if (!change) return;
          void writer.record(change, r).catch(() => undefined);
          if (r.outcome !== 'applied') return;
          const key = change.key ?? r.after?.Key;
          if (!key) return;
          const address: WrittenObject = { connectionId: connection.id, folderKey: change.folderKey, kind: change.kind, key };
          if (change.op === 'delete') deleted.push(address);
          else if (r.after) written.push(address);
          else return;
          host.events?.wrote(address, change.op === 'delete' ? undefined : r.after);
        },
        onProgress: (p) => {
          const failed = p.failed ? ` · ${l10n.t('{0} failed', p.failed)}` : '';
          const waiting = p.waitingSeconds ? ` · ${l10n.t('waiting {0} s', p.waitingSeconds)}` : '';
          show(p.done, p.total, `${p.done}/${p.total}${failed}${waiting}`);
        },
      }),
    );
  } catch (e) {
    throw writes && e instanceof Error ? new RunStopped(e, writes) : e;
  } finally {
    await writer.close();
    await host.events?.ended(written, deleted);
  }
  const record: RunRecord = { runId: writer.header.runId, title, connectionId: connection.id, results: results.map(resultLine), writes };
  if (!spec.ownReport) host.view.report(record);
  return record;
}
