/**
 * The question before a write to a production connection (connection.ts asks
 * it for every write, whichever command sends it: save, create, delete,
 * invite, push notification, batch add, notes, runs). An operation of many
 * requests asks once for all of them. Cancel sends nothing.
 */
import vscode = require('vscode');
import type { RequestOptions } from '../api/http';
import type { WriteQuestion } from './connection';
import type { ConnectionInfo } from './connectionInfo';

/** Who answers: the user (a modal), or an integration test through the test API. */
let answerer: ((detail: string) => boolean) | undefined;

/** The integration tests answer the production question without a modal (through src/testApi.ts). */
export function answerProductionWrites(answer: ((detail: string) => boolean) | undefined): void {
  answerer = answer;
}

export const askBeforeWrite: WriteQuestion = async (info, request, many = false) => {
  const detail = 'method' in request ? describeWrite(info, request) : vscode.l10n.t('{0} to {1} ({2})', request.what, info.label, info.baseUrl);
  const send = answerer ? answerer(detail) : await ask(info, detail, many);
  if (!send) throw new vscode.CancellationError();
};

async function ask(info: ConnectionInfo, detail: string, many: boolean): Promise<boolean> {
  const send = vscode.l10n.t('Send');
  const question = many
    ? vscode.l10n.t('{0} is a production connection. Send these writes?', info.label)
    : vscode.l10n.t('{0} is a production connection. Send this write?', info.label);
  return (await vscode.window.showWarningMessage(question, { modal: true, detail }, send)) === send;
}

/** What will be sent where, in words: `PUT /api/f/…/inputscanners/… with "Door 1" to Live (https://…)`. */
function describeWrite(info: ConnectionInfo, req: RequestOptions): string {
  const name = (req.json as { CommonName?: unknown } | undefined)?.CommonName;
  const what = Array.isArray(req.json)
    ? req.json.length === 1
      ? vscode.l10n.t('1 item')
      : vscode.l10n.t('{0} items', req.json.length)
    : typeof name === 'string'
      ? `"${name}"`
      : typeof req.json === 'string'
        ? JSON.stringify(req.json)
        : undefined;
  const request = `${req.method} ${req.path}`;
  return what
    ? vscode.l10n.t('{0} with {1} to {2} ({3})', request, what, info.label, info.baseUrl)
    : vscode.l10n.t('{0} to {1} ({2})', request, info.label, info.baseUrl);
}
