/**
 * The server's current version of an object as a read-only document, and the
 * conflict prompt that offers to compare it with the user's.
 */
import * as vscode from 'vscode';
import type { ConflictChoice, ObjectFileSystem } from './objectFileSystem';
import { scheme, serverScheme } from './objectUri';

export function registerServerVersions(fs: ObjectFileSystem): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(serverScheme, {
    provideTextDocumentContent: (uri) => fs.serverText(uri.with({ scheme })),
  });
}

export async function compareWithServer(uri: vscode.Uri): Promise<void> {
  const server = uri.with({ scheme: serverScheme });
  const name = uri.path.split('/').pop();
  await vscode.commands.executeCommand('vscode.diff', server, uri, `${name} (server) ↔ yours`);
}

/** Asks what to do when the object changed on the server since it was opened. */
export async function askOnConflict(uri: vscode.Uri, server: { ConcurrencyVersion?: number | null; CommonName?: string | null }): Promise<ConflictChoice> {
  const compare = 'Compare', overwrite = 'Overwrite';
  const choice = await vscode.window.showWarningMessage(
    `"${server.CommonName ?? 'This object'}" changed on the server (now version ${server.ConcurrencyVersion}) since you opened it.`,
    { modal: true, detail: 'Compare shows the server version beside yours. Overwrite replaces the server version with yours.' },
    compare, overwrite,
  );
  if (choice === compare) {
    await compareWithServer(uri);
    return 'compare';
  }
  return choice === overwrite ? 'overwrite' : 'cancel';
}
