/** Starts the embedded sandbox with demo data and connects to it: no account needed. */
import vscode = require('vscode');
import { sandboxConnectionId } from '../../connection/sandboxHost';
import type { Command } from '../framework/command';

export const trySandbox: Command = {
  id: 'oms.trySandbox',
  async run(s) {
    const existing = s.connections.get(sandboxConnectionId);
    const connection =
      existing ?? (await s.connections.add({ id: sandboxConnectionId, label: vscode.l10n.t('Local sandbox'), baseUrl: 'http://127.0.0.1', sandbox: true }));
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Starting the local sandbox…') }, () =>
      connection.rootFolderKey(),
    );
    await s.connections.setActive(connection.id);
    await vscode.commands.executeCommand('oms.objects.focus');
    return connection.id;
  },
};
