/**
 * Opening an object whose document VS Code still holds (a tab closed a little
 * earlier keeps its document loaded) must show what the server holds now, not
 * what it held then: a document without edits is moved to the server's
 * version first. One with edits keeps them and its base (its save meets the
 * conflict and the merge).
 */
import vscode = require('vscode');
import type { ObjectFileSystem } from '../fs/objectFileSystem';

/** How long to wait for VS Code to take in the server's text. */
const reloadWaitMs = 3_000;

export async function showCurrent(objectFiles: ObjectFileSystem, uri: vscode.Uri): Promise<void> {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  const base = doc && !doc.isDirty ? objectFiles.baseOf(uri) : undefined;
  if (!doc || !base || objectFiles.isUncreatedDraft(uri)) return;
  const server = await objectFiles.serverObject(uri);
  if (server.ConcurrencyVersion === base.ConcurrencyVersion) return;
  const taken = new Promise<void>((resolve) => {
    const done = () => {
      sub.dispose();
      clearTimeout(timer);
      resolve();
    };
    const sub = vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === doc) done();
    });
    const timer = setTimeout(done, reloadWaitMs);
  });
  objectFiles.rebase(uri, server, { reload: true });
  await taken;
}
