/**
 * Shows the connection in use: the one of the object in the active editor
 * (with the version its text is based on), else the active connection. A
 * production connection has the warning colour. A click switches connection.
 */
import vscode = require('vscode');
import type { ConnectionManager } from './connectionManager';

/** What the status bar needs to know about an object document. */
export interface DocumentInfo {
  connectionId(uri: vscode.Uri): string | undefined;
  version(uri: vscode.Uri): number | null | undefined;
  /** Fires when the version a document is based on changes (a save, a save made elsewhere, a reload). */
  onDidChangeVersion: vscode.Event<vscode.Uri>;
}

export function activeConnectionStatus(connections: ConnectionManager, documents: DocumentInfo): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('oms.activeConnection', vscode.StatusBarAlignment.Left, 50);
  item.name = 'OMS Connection';
  item.command = 'oms.selectConnection';
  const update = () => {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const fromEditor = uri && documents.connectionId(uri);
    const connection = (fromEditor && connections.get(fromEditor)) || connections.active;
    if (!connection) return item.hide();
    const { info } = connection;
    const version = fromEditor && uri ? documents.version(uri) : undefined;
    const icon = info.production ? 'flame' : info.sandbox ? 'beaker' : 'plug';
    const production = info.production ? ` ${vscode.l10n.t('(production)')}` : '';
    item.text = `$(${icon}) ${info.label}${production}${version != null ? ` · v${version}` : ''}`;
    item.backgroundColor = info.production ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.tooltip = [
      vscode.l10n.t('Object management service: {0}', info.baseUrl),
      ...(info.production ? [vscode.l10n.t('Production: every write asks for confirmation first')] : []),
      ...(version != null ? [vscode.l10n.t('This document is based on version {0} of the object', version)] : []),
      vscode.l10n.t('Click to switch connection'),
    ].join('\n');
    item.show();
  };
  update();
  return vscode.Disposable.from(
    item,
    connections.onDidChange(update),
    vscode.window.onDidChangeActiveTextEditor(update),
    vscode.workspace.onDidSaveTextDocument(update),
    documents.onDidChangeVersion((uri) => uri.toString() === vscode.window.activeTextEditor?.document.uri.toString() && update()),
  );
}
