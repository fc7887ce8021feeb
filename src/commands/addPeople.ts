/**
 * Batch-add people from a CSV or JSON file (`POST .../people/complex` in
 * batches). Every row is checked before anything is sent; invalid rows are
 * listed by line and the user sends the valid ones or stops. Batches go out
 * with bounded concurrency under a cancellable progress notification
 * (cancelling stops between batches: a batch in flight is never cut). At the
 * end: a summary, and the people of failed or unsent batches (plus the invalid
 * rows, when the user went on) in `<name>.failed-<time>.people.json` next to
 * the input: a JSON array of PersonInfo this command reads back as it is.
 * Nobody is sent twice and nobody is dropped without being reported.
 *
 * Args (tests, scripts; no prompts):
 *   executeCommand('oms.addPeople', {
 *     uri: <Uri or path>, connectionId, folderKey,
 *     onInvalid?: 'send' | 'stop',     // default 'stop': nothing is sent when a row is invalid
 *     batchSize?, concurrency?,        // default: settings oms.batchSize, oms.batchConcurrency
 *     signal?: AbortSignal,            // cancels between batches
 *     onProgress?: (p: BatchProgress) => void, // after each batch
 *   })
 * Returns an AddPeopleResult (below).
 */
import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import type { BatchOutcome, BatchProgress, BatchReport } from '../api/batch';
import { peopleToResend } from '../api/batch';
import { kind as kindOf } from '../model/kinds';
import { actionRoutes, collectionActionPath } from '../model/routes';
import type { PersonInfo } from '../model/types';
import type { PeopleFile, PersonRow } from '../people';
import { notify, showLogAction } from '../ui/notify';
import { FolderTarget, folderTarget, uriOf } from './commandTargets';
import { Failure } from './failure';
import { placeText } from './names';
import { copyCurl } from './copyAsCurl';
import type { Command } from './services';
import { log } from '../log';
import { wholeNumberSetting } from '../settings';

export interface AddPeopleArgs {
  uri?: vscode.Uri | string;
  connectionId?: string;
  folderKey?: string;
  onInvalid?: 'send' | 'stop';
  batchSize?: number;
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (progress: BatchProgress) => void;
}

export interface FailedBatch {
  batch: number;
  /** Range in the people sent: [start, end). */
  start: number;
  end: number;
  /** First and last line of the input those people came from. */
  firstLine: number;
  lastLine: number;
  reason: string;
  /** True when the batch was never sent (cancelled). */
  skipped: boolean;
}

export interface AddPeopleResult {
  /** True when every row of the file was added. */
  ok: boolean;
  input: string;
  folderKey?: string;
  rows: number;
  invalid: Array<{ line: number; errors: string[] }>;
  /** People in batches the server accepted. */
  sent: number;
  /** People the server reported as added. */
  added: number;
  failed: FailedBatch[];
  cancelled: boolean;
  /** Nothing was sent: the file could not be read, had invalid rows and the user stopped, or was empty. */
  stopped: boolean;
  reason?: string;
  /** Path (or URI) of the failed-items file, when one was written. */
  failedFile?: string;
}

export const addPeople: Command = {
  id: 'oms.addPeople',
  async run(s, target?: vscode.Uri | AddPeopleArgs | object): Promise<AddPeopleResult | undefined> {
    const { describeInvalid, invalidRows, PeopleFileError, readPeople, serializeFailed, validRows, writeFailedFile } = await peopleImport();
    const args = isArgs(target) ? target : undefined;
    const node = !args && !(target instanceof vscode.Uri) ? target : undefined;
    const uri = uriOf(target) ?? (await pickFile());
    const input = display(uri);
    const name = uri.path.split('/').pop() ?? 'people';

    let file: PeopleFile;
    const reading = Date.now();
    try {
      file = readPeople(name, await readInput(uri));
    } catch (e) {
      if (!(e instanceof PeopleFileError) && !(e instanceof vscode.FileSystemError) && !isFsError(e)) throw e;
      const reason = `${name}: ${e.message}`;
      throw new Failure(reason, stopped(input, 0, [], reason), { cause: e });
    }
    log().info(`${name}: ${file.rows.length} rows read and checked in ${Date.now() - reading} ms`);
    for (const note of file.notes) log().info(`${name}: ${note}`);
    const invalid = invalidRows(file);
    const valid = validRows(file);
    const invalidList = invalid.map((r) => ({ line: r.line, errors: r.errors }));
    if (file.rows.length === 0) throw new Failure(`No people in ${name}`, stopped(input, 0, [], 'the file has no people'));

    const where = await folderTarget(s, args ?? node);
    const folderLabel = await placeText(where);

    if (invalid.length) {
      log().warn(`${name}: ${invalid.length} invalid row(s):\n${describeInvalid(invalid, invalid.length)}`);
      const go = args ? args.onInvalid === 'send' && valid.length > 0 : await askToGoOn(name, valid.length, invalid);
      if (!go) {
        const reason = `${invalid.length} of ${file.rows.length} rows are not valid`;
        const result = { ...stopped(input, file.rows.length, invalidList, reason), folderKey: where.folderKey };
        if (args) throw new Failure(`${name}: ${reason} (${describeInvalid(invalid, 3).replace(/\n/g, '; ')})`, result);
        return result;
      }
    } else if (!args) {
      const add = `Add ${valid.length}`;
      const curl = 'Copy as cURL';
      let choice: string | undefined;
      do {
        choice = await vscode.window.showInformationMessage(
          `Add ${valid.length} ${valid.length === 1 ? 'person' : 'people'} from ${name} to ${folderLabel}?`,
          { modal: true, detail: `${file.notes.join('\n')}\nSent in batches of ${batchSize(args)}, ${concurrency(args)} at a time.`.trim() },
          add, curl,
        );
        // One command per batch, exactly as they would be sent.
        if (choice === curl) {
          const people = valid.map((r) => r.person);
          await copyCurl(where.connection, (c) => c.addPeople(where.folderKey, people, { batchSize: batchSize(args), concurrency: 1 }), `the batches to ${folderLabel}`);
        }
      } while (choice === curl);
      if (choice !== add) return { ...stopped(input, file.rows.length, [], 'cancelled before sending'), folderKey: where.folderKey };
    }

    const people = valid.map((r) => r.person);
    const report = await send(where, people, `${name} to ${folderLabel}`, args);
    s.tree.objectChanged({ connectionId: where.connection.id, folderKey: where.folderKey, kind: kindOf('person'), key: '' });
    s.search.changed(where.connection.id, where.folderKey, 'person');

    const failed = report.failed.map((o) => failedBatch(o, valid));
    const resend = [...peopleToResend(people, report), ...invalid.map((r) => r.person)];
    let failedFile: string | undefined;
    let fileProblem: string | undefined;
    if (resend.length) {
      try {
        // Written by the one atomic writer; a file elsewhere than on disk has no "next to" it can be written.
        if (uri.scheme !== 'file') throw new Error(`${display(uri)} is not a file on disk`);
        failedFile = await writeFailedFile(uri.fsPath, resend);
      } catch (e) {
        fileProblem = (e as Error).message;
        // Never lose them: put them in an editor the user can save.
        const doc = await vscode.workspace.openTextDocument({ language: 'json', content: serializeFailed(resend) });
        await vscode.window.showTextDocument(doc, { preview: false });
      }
    }

    const sent = report.outcomes.filter((o) => o.ok).reduce((n, o) => n + (o.end - o.start), 0);
    const result: AddPeopleResult = {
      ok: failed.length === 0 && invalid.length === 0,
      input, folderKey: where.folderKey, rows: file.rows.length, invalid: invalidList,
      sent, added: report.added, failed, cancelled: report.cancelled, stopped: false, failedFile,
    };
    summarize(result, name, folderLabel, report, fileProblem);
    return result;
  },
};

/** The people import (CSV parser included) is a bundle of its own, loaded on first use. */
const peopleImport = () => import('../people');

/**
 * A file on disk is read with Node's fs, as the failed items are written: `workspace.fs` took 30-48 ms
 * longer for 10,000 rows (700 KB) in the extension host. Other schemes go through `workspace.fs`.
 */
function readInput(uri: vscode.Uri): Thenable<Uint8Array> {
  return uri.scheme === 'file' ? fsp.readFile(uri.fsPath) : vscode.workspace.fs.readFile(uri);
}

const isFsError = (e: unknown): e is NodeJS.ErrnoException => e instanceof Error && typeof (e as NodeJS.ErrnoException).syscall === 'string';

const isArgs = (t: unknown): t is AddPeopleArgs => !!t && typeof t === 'object' && !(t instanceof vscode.Uri) && 'uri' in t;

function display(uri: vscode.Uri): string {
  return uri.scheme === 'file' ? uri.fsPath : uri.toString();
}

async function pickFile(): Promise<vscode.Uri> {
  const picked = await vscode.window.showOpenDialog({
    title: 'Batch-Add People: file', canSelectMany: false, openLabel: 'Read People',
    filters: { 'People (CSV or JSON)': ['csv', 'json'] },
  });
  if (!picked?.length) throw new vscode.CancellationError();
  return picked[0];
}

function stopped(input: string, rows: number, invalid: AddPeopleResult['invalid'], reason: string): AddPeopleResult {
  return { ok: false, input, rows, invalid, sent: 0, added: 0, failed: [], cancelled: false, stopped: true, reason };
}

function batchSize(args?: AddPeopleArgs): number {
  return args?.batchSize ?? wholeNumberSetting('batchSize');
}

function concurrency(args?: AddPeopleArgs): number {
  return args?.concurrency ?? wholeNumberSetting('batchConcurrency');
}

async function askToGoOn(name: string, valid: number, invalid: PersonRow[]): Promise<boolean> {
  const { describeInvalid } = await peopleImport();
  const go = `Send the ${valid} Valid`;
  const detail = `${describeInvalid(invalid, 12)}\n\nThe invalid rows are not sent; they are written with any failed batches to a .people.json file next to ${name}, to fix and send again. Every problem is in the log.`;
  const choice = await vscode.window.showWarningMessage(
    `${invalid.length} row${invalid.length > 1 ? 's' : ''} of ${name} ${invalid.length > 1 ? 'are' : 'is'} not valid.`,
    { modal: true, detail },
    ...(valid > 0 ? [go] : []),
  );
  return choice === go;
}

async function send(where: FolderTarget, people: PersonInfo[], name: string, args?: AddPeopleArgs): Promise<BatchReport> {
  const size = batchSize(args), parallel = concurrency(args);
  // A production connection asks once for the whole batch add, before anything is sent (Cancel: nothing is).
  const path = collectionActionPath(actionRoutes.addPeople, kindOf('person'), where.folderKey);
  const approval = await where.connection.approveWrites(`POST ${path}: ${people.length} ${people.length === 1 ? 'person' : 'people'} from ${name} in ${Math.ceil(people.length / size)} batch requests`);
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Adding people from ${name}`, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const batches = Math.ceil(people.length / size);
      const started = Date.now();
      let last: BatchProgress = { sentPeople: 0, totalPeople: people.length, doneBatches: 0, totalBatches: batches };
      let done = 0;
      const show = () => {
        const left = last.totalBatches - last.doneBatches;
        const seconds = (Date.now() - started) / 1000;
        progress.report({
          increment: ((last.doneBatches - done) / last.totalBatches) * 100,
          message: `${last.sentPeople} of ${last.totalPeople} people sent, ${left} batch${left === 1 ? '' : 'es'} left, ${seconds.toFixed(1)} s${controller.signal.aborted ? ' (stopping)' : ''}`,
        });
        done = last.doneBatches;
      };
      const stop = () => {
        controller.abort();
        show();
      };
      token.onCancellationRequested(stop);
      args?.signal?.addEventListener('abort', stop, { once: true });
      if (args?.signal?.aborted) controller.abort();
      show();
      // Shown on a clock, not per batch: every 200 ms (a slow batch still shows time passing), and
      // a fast run does not flood the window with a repaint per batch.
      const ticker = setInterval(show, 200);
      try {
        const report = await where.connection.client.addPeople(where.folderKey, people, {
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
        return report;
      } finally {
        clearInterval(ticker);
      }
    },
  );
}

function failedBatch(o: BatchOutcome, rows: PersonRow[]): FailedBatch {
  return {
    batch: o.index + 1, start: o.start, end: o.end,
    firstLine: rows[o.start]?.line ?? 0, lastLine: rows[o.end - 1]?.line ?? 0,
    reason: o.skipped ? 'not sent (cancelled)' : o.error?.message ?? 'failed',
    skipped: !!o.skipped,
  };
}

function summarize(r: AddPeopleResult, name: string, folderLabel: string, report: BatchReport, fileProblem?: string): void {
  const parts = [`Added ${r.added} of ${r.rows} ${r.rows === 1 ? 'person' : 'people'} from ${name} to ${folderLabel}.`];
  if (r.sent !== r.added) parts.push(`(The server reported ${r.added} added for ${r.sent} sent.)`);
  const refused = r.failed.filter((f) => !f.skipped);
  if (refused.length) {
    parts.push(`${refused.length} batch${refused.length > 1 ? 'es' : ''} failed: ${refused.slice(0, 2).map((f) => `lines ${f.firstLine}–${f.lastLine}: ${f.reason}`).join('; ')}${refused.length > 2 ? '; …' : ''}.`);
  }
  const skipped = r.failed.filter((f) => f.skipped).reduce((n, f) => n + f.end - f.start, 0);
  if (skipped) parts.push(`Cancelled: ${skipped} not sent.`);
  if (r.invalid.length) parts.push(`${r.invalid.length} invalid row${r.invalid.length > 1 ? 's' : ''} not sent.`);
  if (r.failedFile) parts.push(`Failed items saved to ${r.failedFile.split(/[\\/]/).pop()}: fix and add them with the same command.`);
  if (fileProblem) parts.push(`The failed items could not be written next to the input (${fileProblem}); they are open in a new editor.`);
  for (const o of report.failed) log().warn(`Batch ${o.index + 1} (people ${o.start + 1}-${o.end}): ${o.skipped ? 'not sent (cancelled)' : o.error?.message}`);
  const actions = r.failedFile ? [{ title: 'Open Failed Items', run: () => vscode.window.showTextDocument(vscode.Uri.file(r.failedFile!)) }, showLogAction] : [showLogAction];
  notify(r.ok ? 'info' : r.added > 0 ? 'warning' : 'error', parts.join(' '), ...(r.ok ? [] : actions));
}
