/**
 * Batch-add people from a CSV or JSON file (`POST .../people/complex` in
 * batches). Its steps (addPeopleSteps.ts, on the wizard way) ask for the
 * file, its encoding when it is not UTF-8, and the go-ahead. Every row is
 * checked before anything is sent (a second row with the same e-mail address
 * is invalid; blank rows are counted and said); invalid rows are listed by
 * line (JSON: by item) and the user sends the valid ones or stops. Batches go out as a run of
 * the run core (addPeopleSend.ts: one approval, stop on error or not, a journal that Show Run…,
 * Retry Failed… and Undo Run… read, progress with Cancel between batches). At the
 * end: a summary, and the people of failed or unsent batches (plus the invalid
 * rows, when the user went on) in `<name>.failed-<time>.people.json` next to
 * the input: a JSON array of PersonInfo this command reads back as it is.
 * Nobody is sent twice and nobody is dropped without being reported.
 *
 * Args (tests, scripts; no prompts):
 *   executeCommand('oms.addPeople', {
 *     uri: <Uri or path>, connectionId, folderKey,
 *     onInvalid?: 'send' | 'stop',     // default 'stop': nothing is sent when a row is invalid
 *     stopOnError?: boolean,           // default false: every batch is sent, also after one failed
 *     encoding?: 'windows-1252' | …,   // for a file that is not UTF-8 (else it is refused)
 *     batchSize?, concurrency?,        // default: settings oms.batchSize, oms.batchConcurrency
 *     signal?: AbortSignal,            // cancels between batches
 *     onProgress?: (p: BatchProgress) => void, // after each batch
 *   })
 * Returns an AddPeopleResult (addPeopleReport.ts).
 */
import { promises as fsp } from 'node:fs';
import vscode = require('vscode');
import { peopleToResend } from '../../api/batch';
import { kind as kindOf } from '../../model/kinds';
import type { PeopleFile } from '../../people';
import { runWizard } from '../../ui/wizard';
import { folderTarget, uriOf } from '../framework/commandTargets';
import { Failure } from '../framework/failure';
import { placeText } from '../framework/placeNames';
import type { Command } from '../framework/command';
import { log } from '../../log';
import { peopleText } from '../../runs/core/peopleRun';
import { AddPeopleResult, failedBatch, stopped, summarize } from './addPeopleReport';
import { sendPeople, SendOptions } from './addPeopleSend';
import { confirmStep, encodingStep, fileStep, invalidRowsStep, PeopleContext } from './addPeopleSteps';

export interface AddPeopleArgs extends SendOptions {
  uri?: vscode.Uri | string;
  connectionId?: string;
  folderKey?: string;
  onInvalid?: 'send' | 'stop';
  encoding?: string;
}

const title = 'Batch-Add People';

export const addPeople: Command = {
  id: 'oms.addPeople',
  async run(s, target?: vscode.Uri | AddPeopleArgs | object): Promise<AddPeopleResult | undefined> {
    const people = await peopleImport();
    const args = isArgs(target) ? target : undefined;
    const node = !args && !(target instanceof vscode.Uri) ? target : undefined;
    // A script decides everything; from a menu or the palette the steps ask what is open.
    const context: PeopleContext = args
      ? { uri: uriOf(args), encoding: args.encoding ?? null, sendValid: args.onInvalid === 'send', confirmed: true }
      : { uri: uriOf(target) };
    await runWizard(title, context, [fileStep]);
    const uri = context.uri!;
    const input = display(uri);
    const name = uri.path.split('/').pop() ?? 'people';

    let file: PeopleFile;
    const reading = Date.now();
    try {
      const bytes = await readInput(uri);
      await runWizard(title, context, [encodingStep(name, bytes, people)]);
      file = people.readPeople(name, bytes, { encoding: context.encoding ?? undefined });
    } catch (e) {
      if (!(e instanceof people.PeopleFileError) && !(e instanceof vscode.FileSystemError) && !isFsError(e)) throw e;
      const reason = `${name}: ${e.message}`;
      throw new Failure(reason, stopped(input, 0, [], reason), { cause: e });
    }
    log().info(`${name}: ${file.rows.length} rows read and checked in ${Date.now() - reading} ms`);
    for (const note of file.notes) log().info(`${name}: ${note}`);
    const invalid = people.invalidRows(file);
    const valid = people.validRows(file);
    const invalidList = invalid.map((r) => ({ line: r.line, place: r.place, errors: r.errors }));
    const blankRows = file.blankLines.length;
    if (file.rows.length === 0)
      throw new Failure(vscode.l10n.t('No people in {0}', name), stopped(input, 0, [], vscode.l10n.t('the file has no people'), blankRows));

    const where = await folderTarget(s, args ?? node);
    const folderLabel = await placeText(where);

    if (invalid.length) log().warn(`${name}: ${invalid.length} invalid row(s):\n${people.describeInvalid(invalid, invalid.length)}`);
    await runWizard(title, context, [
      invalidRowsStep(name, file, invalid, valid.length, people.describeInvalid),
      confirmStep(name, file, valid, where, folderLabel, args),
    ]);
    if (invalid.length && !(context.sendValid && valid.length)) {
      const reason = `${invalid.length} of ${file.rows.length} rows are not valid`;
      const result = { ...stopped(input, file.rows.length, invalidList, reason, blankRows), folderKey: where.folderKey };
      if (args) throw new Failure(`${name}: ${reason} (${people.describeInvalid(invalid, 3).replace(/\n/g, '; ')})`, result);
      return result;
    }
    if (!context.confirmed) return { ...stopped(input, file.rows.length, [], 'cancelled before sending', blankRows), folderKey: where.folderKey };

    const sending = valid.map((r) => r.person);
    const runTitle = vscode.l10n.t('Add {0} from {1} to {2}', peopleText(valid.length), name, folderLabel);
    const { report, runId } = await sendPeople(s, where, valid, { title: runTitle, source: name }, args);
    s.tree.objectChanged({ connectionId: where.connection.id, folderKey: where.folderKey, kind: kindOf('person'), key: '' });
    s.search.changed(where.connection.id, where.folderKey, 'person');

    const failed = report.failed.map((o) => failedBatch(o, valid, report.cancelled));
    const resend = [...peopleToResend(sending, report), ...invalid.map((r) => r.person)];
    let failedFile: string | undefined;
    let fileProblem: string | undefined;
    if (resend.length) {
      try {
        // Written by the one atomic writer; a file elsewhere than on disk has no "next to" it can be written.
        if (uri.scheme !== 'file') throw new Error(vscode.l10n.t('{0} is not a file on disk', display(uri)));
        failedFile = await people.writeFailedFile(uri.fsPath, resend);
      } catch (e) {
        fileProblem = (e as Error).message;
        // Never lose them: put them in an editor the user can save.
        const doc = await vscode.workspace.openTextDocument({ language: 'json', content: people.serializeFailed(resend) });
        await vscode.window.showTextDocument(doc, { preview: false });
      }
    }

    const sent = report.outcomes.filter((o) => o.ok).reduce((n, o) => n + (o.end - o.start), 0);
    const result: AddPeopleResult = {
      ok: failed.length === 0 && invalid.length === 0,
      input,
      folderKey: where.folderKey,
      rows: file.rows.length,
      blankRows,
      invalid: invalidList,
      sent,
      added: report.added,
      failed,
      cancelled: report.cancelled,
      stopped: false,
      failedFile,
      runId,
    };
    summarize(result, name, folderLabel, report, fileProblem);
    return result;
  },
};

/** The people import (CSV parser included) is a bundle of its own, loaded on first use. */
const peopleImport = () => import('../../people');

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
