/** A run of changes made here (a bulk edit, an undo, a retry of either): previewed, confirmed, then sent through the shell. */
import * as vscode from 'vscode';
import { runChanges, type Change } from '../changes/executor';
import type { Connection } from '../connection/connection';
import { confirmPreview, makePreview, type PreviewWords } from './preview';
import { runInShell, type RunHost, type RunRecord, type RunSpec } from './run';

export interface ChangesRun {
  connection: Connection;
  title: string;
  changes: Change[];
  header?: RunSpec['header'];
  words: PreviewWords;
}

/** Preview, the user's go (or `stopOnError` given: no question), then the run; undefined when cancelled before anything was sent. */
export async function previewAndRun(host: RunHost, run: ChangesRun, stopOnError?: boolean): Promise<RunRecord | undefined> {
  const entries = await makePreview(run.connection, run.title, run.changes);
  if (!entries) return undefined;
  const confirmed = stopOnError === undefined ? await confirmPreview(run.connection, run.title, entries, run.words) : { stopOnError };
  if (!confirmed) return undefined;
  const toSend = new Set(entries.filter((e) => e.status === 'change').map((e) => e.change.id));
  const changes = run.changes.filter((c) => toSend.has(c.id));
  if (!changes.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0}: nothing to send.', run.title));
    return undefined;
  }
  return sendChanges(host, { ...run, changes }, confirmed.stopOnError);
}

export function sendChanges(host: RunHost, run: ChangesRun, stopOnError: boolean): Promise<RunRecord> {
  const byId = new Map(run.changes.map((c) => [c.id, c]));
  return runInShell(host, {
    connection: run.connection, title: run.title, total: run.changes.length, stopOnError, header: run.header,
    send: (options) => runChanges(run.connection.client, run.changes, { ...options, onResult: (r) => options.onResult(r, byId.get(r.id)) }),
  });
}
