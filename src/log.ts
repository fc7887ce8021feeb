/** The extension's one log. Requests are logged by method, path, status and time; never a token or body. */
import { chmod, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import vscode = require('vscode');
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

/**
 * The log's folder (the extension's `logUri`, where VS Code writes this log) the user's only: 0700,
 * its files 0600. VS Code creates them with the default mode; the log holds paths and names (never
 * a token), which other users of the machine need not read.
 */
export async function keepLogPrivate(logUri: vscode.Uri): Promise<void> {
  if (logUri.scheme !== 'file') return;
  await mkdir(logUri.fsPath, { recursive: true, mode: 0o700 });
  await chmod(logUri.fsPath, 0o700);
  for (const file of await readdir(logUri.fsPath)) await chmod(join(logUri.fsPath, file), 0o600).catch(() => undefined);
}
