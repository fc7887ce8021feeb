/** What a batch add reports: the result a script gets, the failed batches, and the closing message. */
import vscode = require('vscode');
import type { BatchOutcome, BatchReport } from '../../api/batch';
import type { PersonRow } from '../../people';
import { notify, showLogAction } from '../../ui/notify';
import { log } from '../../log';

export interface FailedBatch {
  batch: number;
  /** Range in the people sent: [start, end). */
  start: number;
  end: number;
  /** First and last line of the input those people came from. */
  firstLine: number;
  lastLine: number;
  /** Where those people are, as the messages say it: `lines 3–52`, or `items 1–50` in a JSON file. */
  where: string;
  reason: string;
  /** True when the batch was never sent (cancelled). */
  skipped: boolean;
}

export interface AddPeopleResult {
  /** True when every row of the file was added. */
  ok: boolean;
  input: string;
  folderKey?: string;
  /** Rows holding a person (blank ones are counted apart). */
  rows: number;
  /** Lines skipped because they hold nobody. */
  blankRows: number;
  invalid: Array<{ line: number; place: string; errors: string[] }>;
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
  /** The run's id in the journal (Show Run…, Retry Failed…), when anything was to be sent. */
  runId?: string;
}

export function stopped(input: string, rows: number, invalid: AddPeopleResult['invalid'], reason: string, blankRows = 0): AddPeopleResult {
  return { ok: false, input, rows, blankRows, invalid, sent: 0, added: 0, failed: [], cancelled: false, stopped: true, reason };
}

/** `cancelled`: batches never sent were cancelled (else the run stopped at the first error). */
export function failedBatch(o: BatchOutcome, rows: PersonRow[], cancelled = true): FailedBatch {
  const first = rows[o.start],
    last = rows[o.end - 1];
  const json = first?.place.startsWith('item');
  return {
    batch: o.index + 1,
    start: o.start,
    end: o.end,
    firstLine: first?.line ?? 0,
    lastLine: last?.line ?? 0,
    where: json
      ? vscode.l10n.t('items {0}–{1}', first.index + 1, (last?.index ?? first.index) + 1)
      : vscode.l10n.t('lines {0}–{1}', first?.line ?? 0, last?.line ?? 0),
    reason: o.skipped
      ? cancelled
        ? vscode.l10n.t('not sent (cancelled)')
        : vscode.l10n.t('not sent (stopped at the first error)')
      : (o.error?.message ?? vscode.l10n.t('failed')),
    skipped: !!o.skipped,
  };
}

export function summarize(r: AddPeopleResult, name: string, folderLabel: string, report: BatchReport, fileProblem?: string): void {
  const parts = [
    r.rows === 1
      ? vscode.l10n.t('Added {0} of 1 person from {1} to {2}.', r.added, name, folderLabel)
      : vscode.l10n.t('Added {0} of {1} people from {2} to {3}.', r.added, r.rows, name, folderLabel),
  ];
  if (r.blankRows) parts.push(r.blankRows === 1 ? vscode.l10n.t('1 blank row skipped.') : vscode.l10n.t('{0} blank rows skipped.', r.blankRows));
  if (r.sent !== r.added) parts.push(vscode.l10n.t('(The server reported {0} added for {1} sent.)', r.added, r.sent));
  const refused = r.failed.filter((f) => !f.skipped);
  if (refused.length) {
    const which = `${refused
      .slice(0, 2)
      .map((f) => `${f.where}: ${f.reason}`)
      .join('; ')}${refused.length > 2 ? '; …' : ''}`;
    parts.push(refused.length > 1 ? vscode.l10n.t('{0} batches failed: {1}.', refused.length, which) : vscode.l10n.t('1 batch failed: {0}.', which));
  }
  const skipped = r.failed.filter((f) => f.skipped).reduce((n, f) => n + f.end - f.start, 0);
  if (skipped)
    parts.push(r.cancelled ? vscode.l10n.t('Cancelled: {0} not sent.', skipped) : vscode.l10n.t('Stopped at the first error: {0} not sent.', skipped));
  if (r.invalid.length)
    parts.push(r.invalid.length > 1 ? vscode.l10n.t('{0} invalid rows not sent.', r.invalid.length) : vscode.l10n.t('1 invalid row not sent.'));
  if (r.failedFile) parts.push(vscode.l10n.t('Failed items saved to {0}: fix and add them with the same command.', r.failedFile.split(/[\\/]/).pop() ?? ''));
  if (fileProblem) parts.push(vscode.l10n.t('The failed items could not be written next to the input ({0}); they are open in a new editor.', fileProblem));
  for (const o of report.failed) log().warn(`Batch ${o.index + 1} (people ${o.start + 1}-${o.end}): ${o.skipped ? 'not sent (cancelled)' : o.error?.message}`);
  // The run's own report (the run core leaves it to this summary): its journal, and its failed people sent again.
  const run = r.runId ? { runId: r.runId } : undefined;
  const actions = [
    ...(r.failedFile ? [{ title: vscode.l10n.t('Open Failed Items'), run: () => vscode.window.showTextDocument(vscode.Uri.file(r.failedFile!)) }] : []),
    ...(run && r.failed.length ? [{ title: vscode.l10n.t('Retry Failed'), run: () => vscode.commands.executeCommand('oms.retryFailedRun', run) }] : []),
    ...(run ? [{ title: vscode.l10n.t('Show Run'), run: () => vscode.commands.executeCommand('oms.showRun', run) }] : []),
    showLogAction,
  ];
  notify(r.ok ? 'info' : r.added > 0 ? 'warning' : 'error', parts.join(' '), ...(r.ok ? actions.filter((a) => a !== showLogAction) : actions));
}
