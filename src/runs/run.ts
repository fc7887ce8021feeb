/**
 * The one run shell of Bulk Edit, Apply, Undo Run and Retry Failed: one approval for the whole
 * run (asked once on a production connection, carried by every write), one journal (each write's
 * intent on disk before it goes out, then its outcome), one progress with counts and cancel,
 * every outcome reaching the save events (open editors follow or close, the tree and Go to Object
 * re-read), and one report with Show Results, Retry Failed and Undo Run.
 */
import * as vscode from 'vscode';
import { resultLine, type Change, type ChangeResult, type ResultLine, type RunOptions } from '../changes/executor';
import { RunHeader, RunJournal } from '../changes/runJournal';
import type { Connection } from '../connection/connection';
import type { ObjectAddress } from '../fs/objectUri';
import type { BaseInfo } from '../model/types';
import { countProgress } from '../ui/countProgress';
import { reportRun } from './report';
import { objectsText } from './words';

/** What a run tells as objects are written: open editors follow at once; the views hear when it ends. */
export interface RunEvents {
  /** Written (`object` as the server now holds it) or deleted (undefined). */
  wrote(address: ObjectAddress, object: BaseInfo | undefined): void;
  /** The run ended: every object it wrote or deleted, for the tree and Go to Object. */
  ended(addresses: readonly ObjectAddress[], deleted: readonly ObjectAddress[]): Promise<void>;
}

/** Where a run keeps its journal and whom it tells. */
export interface RunHost {
  journal: RunJournal;
  events: RunEvents;
}

/** The executor's options a run kind hands on to its sender (`runChanges`, or `applyPlan` for a pulled folder). */
export type SendOptions = Omit<RunOptions, 'onResult'> & { onResult(r: ChangeResult, change?: Change): void };

export interface RunSpec {
  connection: Connection;
  title: string;
  /** Objects the run may write (for the approval and the progress). */
  total: number;
  stopOnError: boolean;
  header?: Pick<RunHeader, 'of' | 'recipe' | 'retryOf'>;
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
}

/** Runs `spec` with approval, journal, progress, save events and report; the report is shown without waiting for it. */
export async function runInShell(host: RunHost, spec: RunSpec): Promise<RunRecord> {
  const { connection, title } = spec;
  const approval = await connection.approveWrites(vscode.l10n.t('{0}: {1}', title, objectsText(spec.total)));
  const writer = await host.journal.begin({ title, connectionId: connection.id, total: spec.total, ...spec.header });
  const written: ObjectAddress[] = [];
  const deleted: ObjectAddress[] = [];
  let results: ChangeResult[];
  try {
    results = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      const show = countProgress(progress);
      return spec.send({
        stopOnError: spec.stopOnError, signal: controller.signal, approval,
        beforeWrite: (change, body, live) => writer.intent(change, body, live),
        onResult: (r, change) => {
          if (!change) return;
          void writer.record(change, r).catch(() => undefined);
          if (r.outcome !== 'applied') return;
          const key = change.key ?? r.after?.Key;
          if (!key) return;
          const address: ObjectAddress = { connectionId: connection.id, folderKey: change.folderKey, kind: change.kind, key };
          if (change.op === 'delete') deleted.push(address);
          else if (r.after) written.push(address);
          else return;
          host.events.wrote(address, change.op === 'delete' ? undefined : r.after);
        },
        onProgress: (p) => {
          const failed = p.failed ? ` · ${vscode.l10n.t('{0} failed', p.failed)}` : '';
          const waiting = p.waitingSeconds ? ` · ${vscode.l10n.t('waiting {0} s', p.waitingSeconds)}` : '';
          show(p.done, p.total, `${p.done}/${p.total}${failed}${waiting}`);
        },
      });
    });
  } finally {
    await writer.close();
    await host.events.ended(written, deleted);
  }
  const record: RunRecord = { runId: writer.header.runId, title, connectionId: connection.id, results: results.map(resultLine) };
  void reportRun(record);
  return record;
}
