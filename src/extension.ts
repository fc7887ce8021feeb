/**
 * Composition root: build the services, register them, nothing else.
 * Activation waits on nothing (no network, no secret store): the connection
 * handed over by the environment is added in the background.
 */
import vscode = require('vscode');
import { registerCommands } from './commands/framework/register';
import { ConnectionManager } from './connection/connectionManager';
import { connectFromEnvironment, envConnectionId } from './connection/envConnection';
import { SandboxHost } from './connection/sandboxHost';
import { activeConnectionStatus } from './connection/statusBar';
import { ObjectFileSystem } from './fs/objectFileSystem';
import { registerServerVersions } from './editor/serverVersion';
import { registerStatusCodeHints } from './editor/statusCodeHints';
import { registerDocumentDiagnostics } from './editor/documentDiagnostics';
import { followSavedDocuments } from './documents/followSavedDocument';
import { ObjectSaves } from './documents/saves';
import { registerHistoryDocuments } from './editor/historyDocuments';
import { SaveHistory } from './save/history';
import { keepLogPrivate, log } from './log';
import { ObjectTree } from './tree/objectTree';
import { Indexes } from './search/indexes';
import { registerObjectEditors } from './editor';
import type { Services } from './services';
import { testApi, TestApi } from './testApi';
import { trackWalkthrough } from './walkthrough';
import { useBundle } from './l10n';
import { registerPlanView } from './views/planViewSlot';
import { createLiveFeed, registerLiveUpdates } from './live/liveUpdates';
import { followServerInDocuments } from './live/liveDocuments';
import { followServerInTree } from './tree/liveTree';
import { followServerInTables } from './webview/liveTables';

/** Kept for deactivate: its close is asynchronous, and VS Code awaits only what deactivate returns. */
let sandbox: SandboxHost | undefined;

export function activate(context: vscode.ExtensionContext): TestApi | undefined {
  useBundle(vscode.l10n.bundle);
  sandbox = new SandboxHost(context);
  const connections = new ConnectionManager(context, sandbox);
  const objectFiles = new ObjectFileSystem(connections);
  const saves = new ObjectSaves(
    connections,
    objectFiles,
    new SaveHistory(context.globalStorageUri.fsPath),
    // The questions load on the first conflict, not at activation.
    (...a) => import('./documents/conflictQuestions').then((q) => q.askOnConflict(...a)),
    (...a) => import('./documents/conflictQuestions').then((q) => q.askPerField(...a)),
  );
  // Every write of an object document goes to the save entry.
  objectFiles.writer = (uri, text) => saves.writeDocument(uri, text);
  const tree = new ObjectTree(connections);
  const view = vscode.window.createTreeView('oms.objects', { treeDataProvider: tree, showCollapseAll: true, canSelectMany: true });
  tree.view = view;
  const search = new Indexes((id) => connections.require(id));
  const live = createLiveFeed({ connections, saves, search });
  const services: Services = { context, connections, tree, objectFiles, saves, search, live };

  // The welcome view shows while there is no connection.
  const updateWelcome = () => void vscode.commands.executeCommand('setContext', 'oms.hasConnections', connections.list().length > 0);
  context.subscriptions.push(
    log(),
    sandbox,
    connections,
    tree,
    view,
    objectFiles,
    saves,
    vscode.workspace.registerFileSystemProvider('oms', objectFiles, { isCaseSensitive: true }),
    followSavedDocuments(saves, objectFiles),
    registerHistoryDocuments(),
    registerServerVersions(objectFiles),
    registerStatusCodeHints(),
    trackWalkthrough(),
    registerDocumentDiagnostics(objectFiles),
    saves.onDidChangeObject((address) => tree.objectChanged(address)),
    saves.onDidChangeObject((a) => search.changed(a.connectionId, a.folderKey, a.kind.id, a.key)),
    { dispose: () => search.stopAll() },
    ...registerObjectEditors(services),
    activeConnectionStatus(connections, {
      connectionId: (uri) => (uri.scheme === 'oms' ? uri.authority : undefined),
      version: (uri) => objectFiles.baseOf(uri)?.ConcurrencyVersion,
      onDidChangeVersion: objectFiles.onDidChangeBase,
    }),
    connections.onDidChange(updateWelcome),
    ...registerCommands(services),
    ...registerPlanView(services),
    // Live reads: what the poller read goes to each view through the feed's event (the plan view subscribes as it loads).
    followServerInDocuments(services),
    followServerInTree(tree, view, live),
    followServerInTables(live),
    registerLiveUpdates(services),
  );
  updateWelcome();
  void keepLogPrivate(context.logUri).catch((e: Error) => log().warn(`The log folder could not be made private: ${e.message}`));
  const ready = connectFromEnvironment(connections).then(
    // Handed a sandbox by `npm start` (or the tests): show its objects.
    () => void (connections.get(envConnectionId) && vscode.commands.executeCommand('workbench.view.extension.oms')),
    (e: unknown) => log().error(`Environment connection: ${(e as Error).message}`),
  );
  connections.restoreWith(ready);

  // Nothing for other extensions: no context, secrets or tokens. The integration tests get a narrow view.
  return context.extensionMode === vscode.ExtensionMode.Test ? testApi(services, ready) : undefined;
}

export async function deactivate(): Promise<void> {
  await sandbox?.dispose();
  sandbox = undefined;
}
