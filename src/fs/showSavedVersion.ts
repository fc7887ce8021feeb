/**
 * After a save the editor must show what the server now holds (the new
 * ConcurrencyVersion, or the Key of a created object). VS Code does not reload
 * a document whose stat it took right after writing, so the server's version
 * is put into the editor as an edit and saved; that save sends nothing
 * because it equals the server's copy.
 */
import * as vscode from 'vscode';
import { prettyJson, sameJson } from '../model/saveChecks';
import type { ObjectFileSystem } from './objectFileSystem';
import { scheme } from './objectUri';

export function showSavedVersions(fs: ObjectFileSystem): vscode.Disposable {
  return vscode.workspace.onDidSaveTextDocument(async (doc) => {
    if (doc.uri.scheme !== scheme || doc.isDirty) return;
    const server = fs.lastRead(doc.uri);
    if (!server) return;
    let shown: unknown;
    try {
      shown = JSON.parse(doc.getText());
    } catch {
      return;
    }
    if (sameJson(shown, server)) return;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), prettyJson(server));
    if (await vscode.workspace.applyEdit(edit)) await doc.save();
  });
}
