/** Shows the active connection; a click switches it. */
import * as vscode from 'vscode';
import type { ConnectionManager } from './connectionManager';

export function activeConnectionStatus(connections: ConnectionManager): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('oms.activeConnection', vscode.StatusBarAlignment.Left, 50);
  item.name = 'OMS Connection';
  item.command = 'oms.selectConnection';
  const update = () => {
    const active = connections.active;
    if (!active) return item.hide();
    item.text = `$(${active.info.sandbox ? 'beaker' : 'plug'}) ${active.info.label}`;
    item.tooltip = `Object management service: ${active.info.baseUrl}\nClick to switch connection`;
    item.show();
  };
  update();
  const sub = connections.onDidChange(update);
  return vscode.Disposable.from(item, sub);
}
