/** Composition root: build the services, register them, nothing else. */
import * as vscode from 'vscode';
import { registerCommands } from './commands';
import { ConnectionManager } from './connection/connectionManager';
import { connectFromEnvironment } from './connection/envConnection';
import { SandboxHost } from './connection/sandboxHost';
import { activeConnectionStatus } from './connection/statusBar';
import { ObjectFileSystem } from './fs/objectFileSystem';
import { askOnConflict, registerServerVersions } from './fs/serverVersion';
import { registerStatusCodeHints } from './fs/statusCodeHints';
import { registerDocumentDiagnostics } from './fs/documentDiagnostics';
import { showSavedVersions } from './fs/showSavedVersion';
import { log } from './log';
import { ObjectTree } from './tree/objectTree';
import { Indexes } from './search/indexes';
import { registerObjectEditors } from './editor';
import type { Services } from './commands/services';

export async function activate(context: vscode.ExtensionContext) {
  const sandbox = new SandboxHost(context);
  const connections = new ConnectionManager(context, sandbox);
  const fs = new ObjectFileSystem(connections, askOnConflict);
  const tree = new ObjectTree(connections);
  const view = vscode.window.createTreeView('oms.objects', { treeDataProvider: tree, showCollapseAll: true });
  tree.view = view;
  const search = new Indexes((id) => connections.get(id));
  const services: Services = { context, connections, tree, fs, search };

  context.subscriptions.push(
    log(), sandbox, connections, tree, view,
    vscode.workspace.registerFileSystemProvider('oms', fs, { isCaseSensitive: true }),
    registerServerVersions(fs),
    registerStatusCodeHints(),
    registerDocumentDiagnostics(fs),
    showSavedVersions(fs),
    fs.onDidChangeObject((address) => tree.objectChanged(address)),
    fs.onDidChangeObject((a) => search.changed(a.connectionId, a.folderKey, a.kind.id)),
    { dispose: () => search.stopAll() },
    ...registerObjectEditors(services),
    activeConnectionStatus(connections),
    ...registerCommands(services),
  );
  await connectFromEnvironment(connections).catch((e) => log().error(`Environment connection: ${(e as Error).message}`));
  // The welcome view shows while there is no connection.
  const updateWelcome = () => vscode.commands.executeCommand('setContext', 'oms.hasConnections', connections.list().length > 0);
  await updateWelcome();
  context.subscriptions.push(connections.onDidChange(updateWelcome));

  // For integration tests and other extensions: the live services.
  return services;
}

export function deactivate() {}
