/**
 * Writes to a production connection ask first. Wraps the connection's Http, so
 * every write (save, create, delete, invite, push notification, batch add,
 * notes) goes through it whichever command sends it. Cancel sends nothing. An
 * operation of many requests (a batch add) asks once for all of them.
 */
import * as vscode from 'vscode';
import type { Http, RequestOptions, WriteApproval } from '../api/http';
import type { ConnectionInfo } from './connectionInfo';

/** Asks whether to send; true sends. Replaceable by tests. */
type WriteConfirmer = (info: ConnectionInfo, detail: string, many?: boolean) => Promise<boolean>;

export interface WriteGate {
  /** The connection's Http with the question in front of every write. */
  http: Http;
  /**
   * Asks once for an operation of many writes (a batch add) and returns the
   * approval its requests carry; throws CancellationError when the user says no.
   * Without production, approves at once.
   */
  approve(this: void, what: string): Promise<WriteApproval>;
}

/** Who answers the question: the user (a modal), or an integration test through the test API. */
let answerer: WriteConfirmer | undefined;

/** The integration tests answer the production question without a modal (through src/testApi.ts). */
export function answerProductionWrites(answer: ((detail: string) => boolean) | undefined): void {
  answerer = answer && ((_info, detail) => Promise.resolve(answer(detail)));
}

export function gateWrites(http: Http, info: () => ConnectionInfo): WriteGate {
  const confirm: WriteConfirmer = (i, detail, many) => (answerer ?? askBeforeWrite)(i, detail, many);
  const approved = new WeakSet<WriteApproval>();
  return {
    http: async <T>(req: RequestOptions): Promise<T> => {
      const current = info();
      const covered = req.approval !== undefined && approved.has(req.approval);
      if (req.method !== 'GET' && current.production && !covered && !(await confirm(current, describeWrite(current, req)))) {
        throw new vscode.CancellationError();
      }
      return http<T>(req);
    },
    async approve(what) {
      const approval: WriteApproval = { what };
      const current = info();
      if (current.production && !(await confirm(current, vscode.l10n.t('{0} to {1} ({2})', what, current.label, current.baseUrl), true))) throw new vscode.CancellationError();
      approved.add(approval);
      return approval;
    },
  };
}

/** What will be sent where, in words: `PUT /api/f/…/inputscanners/… (CommonName "Door 1")`. */
function describeWrite(info: ConnectionInfo, req: RequestOptions): string {
  const name = (req.json as { CommonName?: unknown } | undefined)?.CommonName;
  const what = Array.isArray(req.json) ? vscode.l10n.t('{0} item(s)', req.json.length)
    : typeof name === 'string' ? `"${name}"` : typeof req.json === 'string' ? JSON.stringify(req.json) : undefined;
  const request = `${req.method} ${req.path}`;
  return what ? vscode.l10n.t('{0} with {1} to {2} ({3})', request, what, info.label, info.baseUrl) : vscode.l10n.t('{0} to {1} ({2})', request, info.label, info.baseUrl);
}

/** One write, or (`many`) the one question for a whole operation. */
async function askBeforeWrite(info: ConnectionInfo, detail: string, many = false): Promise<boolean> {
  const send = vscode.l10n.t('Send');
  const question = many
    ? vscode.l10n.t('{0} is a production connection. Send these writes?', info.label)
    : vscode.l10n.t('{0} is a production connection. Send this write?', info.label);
  return (await vscode.window.showWarningMessage(question, { modal: true, detail }, send)) === send;
}
