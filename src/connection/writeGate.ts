/**
 * Writes to a production connection ask first. Wraps the connection's Http, so
 * every write (save, create, delete, invite, push notification, batch add,
 * notes) goes through it whichever command sends it. Cancel sends nothing.
 */
import * as vscode from 'vscode';
import type { Http, RequestOptions } from '../api/http';
import type { ConnectionInfo } from './connectionInfo';

/** Asks whether to send; true sends. Replaceable by tests. */
export type WriteConfirmer = (info: ConnectionInfo, req: RequestOptions) => Promise<boolean>;

export function gateWrites(http: Http, info: () => ConnectionInfo, confirm: WriteConfirmer = askBeforeWrite): Http {
  return async <T>(req: RequestOptions): Promise<T> => {
    const current = info();
    if (req.method !== 'GET' && current.production && !(await confirm(current, req))) {
      throw new vscode.CancellationError();
    }
    return http<T>(req);
  };
}

/** What will be sent where, in words: `PUT /api/f/…/inputscanners/… (CommonName "Door 1")`. */
function describeWrite(info: ConnectionInfo, req: RequestOptions): string {
  const name = (req.json as { CommonName?: unknown } | undefined)?.CommonName;
  const what = Array.isArray(req.json) ? `${req.json.length} item${req.json.length === 1 ? '' : 's'}`
    : typeof name === 'string' ? `"${name}"` : typeof req.json === 'string' ? JSON.stringify(req.json) : undefined;
  return `${req.method} ${req.path}${what ? ` with ${what}` : ''} to ${info.label} (${info.baseUrl})`;
}

async function askBeforeWrite(info: ConnectionInfo, req: RequestOptions): Promise<boolean> {
  const send = 'Send';
  const choice = await vscode.window.showWarningMessage(
    `${info.label} is a production connection. Send this write?`,
    { modal: true, detail: describeWrite(info, req) },
    send,
  );
  return choice === send;
}
