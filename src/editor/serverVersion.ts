/** The server's current version of an object as a read-only document (what Compare shows beside the edit). */
import vscode = require('vscode');
import type { ObjectFileSystem } from '../fs/objectFileSystem';
import { scheme, serverScheme } from '../fs/objectUri';

export function registerServerVersions(objectFiles: ObjectFileSystem): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(serverScheme, {
    provideTextDocumentContent: (uri) => objectFiles.serverText(uri.with({ scheme })),
  });
}
