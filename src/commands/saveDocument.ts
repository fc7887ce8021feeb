/**
 * Save of an object document (Ctrl+S / Cmd+S in an object editor): sends the
 * text through the save operation, says in one line why when it is not sent,
 * then lets VS Code mark the document saved (its write then sends nothing).
 * Other documents get VS Code's own save.
 */
import * as vscode from 'vscode';
import { scheme } from '../fs/objectUri';
import { reportNotSaved } from './saveFeedback';
import type { Command } from './services';

export const saveDocument: Command = {
  id: 'oms.save',
  async run(s, target?: vscode.Uri): Promise<boolean> {
    const doc = target ? await vscode.workspace.openTextDocument(target) : vscode.window.activeTextEditor?.document;
    if (!doc || doc.uri.scheme !== scheme) {
      await vscode.commands.executeCommand('workbench.action.files.save');
      return true;
    }
    if (!doc.isDirty) return doc.save();
    const name = doc.uri.path.split('/').pop()?.replace(/\.json$/, '') ?? 'Object';
    const outcome = await s.fs.save(doc.uri, doc.getText(), { commit: true });
    if (outcome.status !== 'saved' && outcome.status !== 'unchanged') {
      reportNotSaved(outcome, name, doc.uri, doc.uri.authority);
      return false;
    }
    try {
      await doc.save();
    } finally {
      s.fs.forgetCommit(doc.uri);
    }
    const object = outcome.object;
    vscode.window.setStatusBarMessage(outcome.status === 'unchanged'
      ? `"${name}": no changes to send`
      : `${outcome.created ? 'Created' : 'Saved'} "${object.CommonName ?? name}" (version ${object.ConcurrencyVersion})`, 5000);
    return true;
  },
};
