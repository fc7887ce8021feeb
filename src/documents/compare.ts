/** Compare: the server's current version (served by editor/serverVersion.ts) beside the document. */
import vscode = require('vscode');
import { documentNames, serverScheme } from '../fs/objectUri';

export async function compareWithServer(uri: vscode.Uri): Promise<void> {
  const server = uri.with({ scheme: serverScheme });
  await vscode.commands.executeCommand('vscode.diff', server, uri, vscode.l10n.t('{0} (server) ↔ yours', `${documentNames(uri).object}.json`));
}
