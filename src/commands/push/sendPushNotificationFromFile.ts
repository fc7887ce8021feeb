/**
 * Send a push notification from a JSON file holding a PushNotificationRequest
 * (e.g. `drill.push.json`, which the editor also validates). The file comes
 * from the explorer's context menu (a Uri), else the active editor (unsaved
 * edits included), else a file picker. It is checked against the schema, with
 * errors listed by JSON pointer and line, then sent after confirmation.
 *
 * Args (tests, scripts; no prompts, no confirmation):
 *   executeCommand('oms.sendPushNotificationFromFile', { uri: <Uri or path>, connectionId, folderKey })
 * Returns the same result as oms.sendPushNotification
 * (`{ ok: false, errors, sent: false }` when the file does not validate).
 */
import vscode = require('vscode');
import type { PushNotificationRequest } from '../../model/types';
import { summarizePushRequest } from '../../model/pushTypes';
import { locateNearest } from '../../validation/locate';
import { SchemaError, validate } from '../../validation/validator';
import { folderTarget, uriOf } from '../framework/commandTargets';
import { Failure, messageOf } from '../framework/failure';
import { placeText } from '../framework/placeNames';
import { copyCurl } from '../objects/copyAsCurl';
import { currentPushTypes, PushResult, pushSchema, sendPush } from './sendPushNotification';
import type { Command } from '../framework/command';

export interface SendPushFromFileArgs {
  uri?: vscode.Uri | string;
  connectionId?: string;
  folderKey?: string;
}

export const sendPushNotificationFromFile: Command = {
  id: 'oms.sendPushNotificationFromFile',
  // The folder is resolved after the file is read and checked: a bad file asks nothing.
  async run(s, target?: vscode.Uri | SendPushFromFileArgs): Promise<PushResult | undefined> {
    const args = target && !(target instanceof vscode.Uri) ? target : undefined;
    const { uri, text } = await sourceOf(uriOf(target));
    const name = uri.path.split('/').pop() ?? uri.toString();
    const mapping = currentPushTypes();

    let value: unknown;
    try {
      value = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (e) {
      const reason = vscode.l10n.t('{0} is not valid JSON: {1}', name, messageOf(e));
      throw new Failure(reason, { ok: false, reason, sent: false } satisfies PushResult);
    }
    const errors = validate(pushSchema, value);
    if (errors.length) {
      const listed = describeWithLines(text, errors);
      const reason = vscode.l10n.t('{0} is not a valid push notification request', name);
      const result: PushResult = { ok: false, reason, errors, sent: false };
      if (args) throw new Failure(`${reason}: ${listed.slice(0, 5).join('; ')}`, result);
      await showErrors(uri, reason, listed);
      return result;
    }
    const request = value as PushNotificationRequest;
    const where = await folderTarget(s, args);
    if (!args) {
      const send = vscode.l10n.t('Send');
      const curl = vscode.l10n.t('Copy as cURL');
      const place = await placeText(where);
      let choice: string | undefined;
      do {
        choice = await vscode.window.showInformationMessage(
          vscode.l10n.t('Send the push notification in {0} to {1}?', name, place),
          { modal: true, detail: summarizePushRequest(request, mapping).join('\n') },
          send,
          curl,
        );
        if (choice === curl)
          await copyCurl(where.connection, (c) => c.pushNotification(where.folderKey, request), vscode.l10n.t('the push notification in {0}', name));
      } while (choice === curl);
      if (choice !== send) return undefined;
    }
    return sendPush(where, request, mapping);
  },
};

async function sourceOf(given: vscode.Uri | undefined): Promise<{ uri: vscode.Uri; text: string }> {
  let uri = given;
  if (!uri) {
    const doc = vscode.window.activeTextEditor?.document;
    if (doc && (doc.languageId === 'json' || doc.languageId === 'jsonc' || /\.json$/i.test(doc.uri.path))) {
      return { uri: doc.uri, text: doc.getText() };
    }
    const picked = await vscode.window.showOpenDialog({
      title: vscode.l10n.t('Push notification request (JSON)'),
      canSelectMany: false,
      openLabel: vscode.l10n.t('Send…'),
      filters: { [vscode.l10n.t('Push notification request')]: ['json'] },
    });
    if (!picked?.length) throw new vscode.CancellationError();
    uri = picked[0];
  }
  // An open document may have unsaved edits: send what the user sees.
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return { uri, text: open.getText() };
  return { uri, text: new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)) };
}

/** `/Subject (line 4): must be string ...`, the line found by the pointer (or its nearest parent). */
function describeWithLines(text: string, errors: SchemaError[]): string[] {
  return errors.map((e) => {
    const at = locateNearest(text, e.pointer);
    const line = at ? text.slice(0, at.offset).split('\n').length : undefined;
    return `${e.pointer || vscode.l10n.t('(root)')}${line ? ` ${vscode.l10n.t('(line {0})', line)}` : ''}: ${e.message}`;
  });
}

async function showErrors(uri: vscode.Uri, reason: string, listed: string[]): Promise<void> {
  const open = vscode.l10n.t('Open File');
  const more = listed.length > 12 ? [vscode.l10n.t('... and {0} more', listed.length - 12)] : [];
  const choice = await vscode.window.showErrorMessage(
    vscode.l10n.t('Not sent: {0}.', reason),
    { modal: true, detail: [...listed.slice(0, 12), ...more].join('\n') },
    open,
  );
  if (choice === open) await vscode.window.showTextDocument(uri);
}
