/** The server's current version of an object as a read-only document, and Compare with it. */
import * as vscode from 'vscode';
import type { ObjectFileSystem } from '../fs/objectFileSystem';
import { documentNames, scheme, serverScheme } from '../fs/objectUri';

export function registerServerVersions(objectFiles: ObjectFileSystem): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(serverScheme, {
    provideTextDocumentContent: (uri) => objectFiles.serverText(uri.with({ scheme })),
  });
}

export async function compareWithServer(uri: vscode.Uri): Promise<void> {
  const server = uri.with({ scheme: serverScheme });
  await vscode.commands.executeCommand('vscode.diff', server, uri, vscode.l10n.t('{0} (server) ↔ yours', `${documentNames(uri).object}.json`));
}
