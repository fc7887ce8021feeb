/**
 * Send a push notification (`DELETE .../pushnotifications` with a
 * PushNotificationRequest body). Its steps (pushSteps.ts, run by the one
 * wizard way, src/ui/wizard.ts) ask what the arguments leave open: e-mail or
 * SMS (numbers from `oms.pushNotificationTypes`), message or template,
 * recipients and event recipients (people of the folder, or typed keys), then
 * a summary to confirm (with the e-mail's subject and image). The request is
 * checked against pushNotificationRequest.schema.json before anything is sent.
 *
 * Args (tests, scripts: they decide every value, so nothing is asked; a value
 * left out is none):
 *   executeCommand('oms.sendPushNotification', {
 *     connectionId, folderKey,
 *     type: 'Email' | 'Sms' | <number>,         // names mapped by oms.pushNotificationTypes
 *     message?, messageTemplateKey?, recipientKeys?: string[], eventRecipientKeys?: string[],
 *     subject?, attachedImage?: { LinkedObjectKey, CommonName?, Relation? },  // e-mail only
 *   })
 *   or { connectionId, folderKey, request: <PushNotificationRequest> } to send a request as it is.
 * Returns `{ ok: true, request, warnings? }` (a warning when nobody is named) or `{ ok: false, reason, errors?, sent }`;
 * `sent: false` means nothing went to the server.
 */
import vscode = require('vscode');
import { ApiError } from '../../api/errors';
import { describePushType, PushInput, pushTypeMapping, PushTypeMapping } from '../../model/pushTypes';
import { namingOf } from '../../model/typeName';
import type { PushNotificationRequest } from '../../model/types';
import { formatErrors, SchemaError, validate } from '../../validation/validator';
import { notify } from '../../ui/notify';
import { runWizard } from '../../ui/wizard';
import { FolderTarget, folderTarget, targeted } from '../framework/commandTargets';
import { Failure, failWith, messageOf } from '../framework/failure';
import { placeText } from '../framework/placeNames';
import { namesNobody, PushContext, pushRequestOf, pushSchema, pushSteps } from './pushSteps';

export { pushSchema } from './pushSteps';

export interface SendPushArgs extends Partial<PushInput> {
  connectionId?: string;
  folderKey?: string;
  /** A complete request, sent as it is (after the schema check). */
  request?: PushNotificationRequest;
}

export type PushResult =
  { ok: true; request: PushNotificationRequest; warnings?: string[] } | { ok: false; reason: string; errors?: SchemaError[]; status?: number; sent: boolean };

export function currentPushTypes(): PushTypeMapping {
  return pushTypeMapping(vscode.workspace.getConfiguration('oms').get('pushNotificationTypes'));
}

const isArgs = (t: unknown): t is SendPushArgs => !!t && typeof t === 'object' && ('type' in t || 'request' in t);

/** A script's arguments decide every value: what they leave out is none, and the script has confirmed. */
function scripted(a: SendPushArgs): PushContext {
  return {
    type: a.type,
    request: a.request,
    message: a.message ?? null,
    messageTemplateKey: a.messageTemplateKey ?? null,
    recipientKeys: a.recipientKeys ?? null,
    eventRecipientKeys: a.eventRecipientKeys ?? null,
    subject: a.subject ?? null,
    attachedImage: a.attachedImage ?? null,
    confirmed: true,
  };
}

export const sendPushNotification = targeted({
  id: 'oms.sendPushNotification',
  target: folderTarget,
  async run(_s, where: FolderTarget, args?: unknown): Promise<PushResult> {
    const mapping = currentPushTypes();
    const context: PushContext = isArgs(args) ? scripted(args) : {};
    const place = {
      where,
      place: await placeText(where),
      mapping,
      naming: namingOf(await where.connection.client.folder(where.folderKey).catch(() => undefined)),
    };
    await runWizard(vscode.l10n.t('Send Push Notification'), context, pushSteps(place));
    let request: PushNotificationRequest;
    try {
      request = pushRequestOf(context, place);
    } catch (e) {
      throw new Failure(messageOf(e), { ok: false, reason: messageOf(e), sent: false } satisfies PushResult, { cause: e });
    }
    return sendPush(where, request, mapping);
  },
});

/** Checks the request against the schema, then sends it; a refusal either way is a Failure with the result. */
export async function sendPush(where: FolderTarget, request: PushNotificationRequest, mapping: PushTypeMapping): Promise<PushResult> {
  const errors = validate(pushSchema, request);
  if (errors.length) {
    const reason = `${vscode.l10n.t('the request is not valid:')}\n${formatErrors(errors, 5)}`;
    throw new Failure(reason.replace(/\n/g, '; '), { ok: false, reason, errors, sent: false } satisfies PushResult);
  }
  const what = describePushType(request.PushNotificationType, mapping);
  const place = await placeText(where);
  await vscode.window
    .withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Sending {0} push notification to {1}…', what, place) }, () =>
      where.connection.client.pushNotification(where.folderKey, request),
    )
    .then(
      undefined,
      failWith((e): PushResult => ({ ok: false, reason: messageOf(e), status: e instanceof ApiError ? e.status : undefined, sent: true })),
    );
  const count = (request.RecipientKeys?.length ?? 0) + (request.EventRecipientKeys?.length ?? 0);
  notify(
    'info',
    count > 1
      ? vscode.l10n.t('{0} push notification sent in {1} to {2} recipients.', what, place, count)
      : count === 1
        ? vscode.l10n.t('{0} push notification sent in {1} to 1 recipient.', what, place)
        : vscode.l10n.t('{0} push notification sent in {1} without named recipients.', what, place),
  );
  return {
    ok: true,
    request,
    ...(namesNobody(request) ? { warnings: [vscode.l10n.t('no recipients and no event recipients: the service decides who gets it')] } : {}),
  };
}
