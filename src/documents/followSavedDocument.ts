/**
 * After a save, an editor whose name no longer matches the object (a renamed
 * CommonName, or a draft that now has its real Key) is replaced by one opened
 * at the object's own address, so the tab title and the breadcrumb follow.
 * The text is not touched: the user's document already equals the server's.
 */
import vscode = require('vscode');
import type { ObjectFileSystem } from '../fs/objectFileSystem';
import { renamedUri } from '../fs/objectUri';
import type { ObjectSaves } from './saves';

export function followSavedDocuments(saves: ObjectSaves, objectFiles: ObjectFileSystem): vscode.Disposable {
  return saves.onDidSaveDocument(({ uri, object }) => {
    const address = objectFiles.addressOf(uri);
    if (!address || !object.Key) return;
    const wanted = renamedUri(uri, { ...address, key: object.Key }, object.CommonName ?? object.Key);
    if (wanted.toString() === uri.toString()) return;
    let done = false;
    const follow = () => {
      if (done) return;
      done = true;
      sub.dispose();
      // VS Code may still hold a copy of the object's own address from before (a rename back): read it again.
      objectFiles.reload(wanted);
      void followRename(uri, wanted);
    };
    // After VS Code has marked the document saved (the write returns first)...
    const sub = vscode.workspace.onDidSaveTextDocument((doc) => {
      if (doc.uri.toString() === uri.toString()) follow();
    });
    // ...or at once if it already counts as saved (a save it had joined), which fires no further event.
    setTimeout(() => {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      if (doc && !doc.isDirty) follow();
    }, 1000);
    setTimeout(() => {
      sub.dispose();
    }, 60_000);
  });
}

/** Each clean editor of `from` replaced by one of `to` (its tab's name), in its place, with its selection and focus. */
export async function followRename(from: vscode.Uri, to: vscode.Uri): Promise<void> {
  for (const group of vscode.window.tabGroups.all) {
    const tab = group.tabs.find((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === from.toString());
    if (!tab || tab.isDirty) continue;
    const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === from.toString() && e.viewColumn === group.viewColumn);
    await vscode.window.showTextDocument(to, { viewColumn: group.viewColumn, preview: false, preserveFocus: !tab.isActive, selection: editor?.selection });
    await vscode.window.tabGroups.close(tab);
  }
}
