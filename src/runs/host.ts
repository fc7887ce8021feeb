/** The run shell's host in the extension: the journal in global storage, the save events of `documents/saves.ts`. */
import * as vscode from 'vscode';
import { RunJournal } from '../changes/runJournal';
import type { Services } from '../services';
import type { RunHost } from './run';

export function runHost(s: Services): RunHost {
  return {
    journal: new RunJournal(vscode.Uri.joinPath(s.context.globalStorageUri, 'runs').fsPath),
    events: { wrote: (a, object) => s.saves.runWrote(a, object), ended: (written, deleted) => s.saves.runEnded(written, deleted) },
  };
}
