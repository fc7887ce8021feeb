/** The extension's one log. Requests are logged by method, path, status and time; never a token or body. */
import * as vscode from 'vscode';
import type { RequestLog } from './api/http';

let channel: vscode.LogOutputChannel | undefined;

export function log(): vscode.LogOutputChannel {
  channel ??= vscode.window.createOutputChannel('Object Management Service', { log: true });
  return channel;
}

export function logRequest(connection: string, entry: RequestLog): void {
  const retry = entry.attempt > 1 ? ` (attempt ${entry.attempt})` : '';
  const line = `[${connection}] ${entry.method} ${entry.path} ${entry.status} ${entry.ms}ms${retry}`;
  if (entry.status === 'error' || entry.status >= 500) log().warn(line);
  else log().info(line);
}
