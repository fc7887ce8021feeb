/**
 * Send a push notification (`DELETE .../pushnotifications` with a
 * PushNotificationRequest body), guided step by step: e-mail or SMS (numbers
 * from `oms.pushNotificationTypes`), message or template, recipients and event
 * recipients (people of the folder, or typed keys), subject and an attached
 * image for e-mail, then a summary to confirm. The request is checked against
 * pushNotificationRequest.schema.json before anything is sent.
 *
 * Args (tests, scripts; no prompts, no confirmation):
 *   executeCommand('oms.sendPushNotification', {
 *     connectionId, folderKey,
 *     type: 'Email' | 'Sms' | <number>,         // names mapped by oms.pushNotificationTypes
 *     message?, messageTemplateKey?, recipientKeys?: string[], eventRecipientKeys?: string[],
 *     subject?, attachedImage?: { LinkedObjectKey, CommonName?, Relation? },  // e-mail only
 *   })
 *   or { connectionId, folderKey, request: <PushNotificationRequest> } to send a request as it is.
 * Returns `{ ok: true, request }` or `{ ok: false, reason, errors?, sent }`;
 * `sent: false` means nothing went to the server.
 */
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import { kind as kindOf } from '../model/kinds';
import {
  buildPushRequest, describePushType, ImageLink, keyPattern, parseKeys, PushInput, pushTypeLabels, pushTypeMapping, PushTypeMapping,
  pushTypeNames, PushTypeName, summarizePushRequest,
} from '../model/pushTypes';
import { namingOf } from '../model/typeName';
import type { PersonInfo, PushNotificationRequest } from '../model/types';
import { formatErrors, SchemaError, validate } from '../validation/validator';
import { MultiStepInput, Step } from '../ui/multiStepInput';
import { notify } from '../ui/notify';
import { FolderTarget, folderTarget, targeted } from './commandTargets';
import { Failure, failWith, messageOf } from './failure';
import { placeText } from './names';
import { copyCurl } from './copyAsCurl';

export interface SendPushArgs extends Partial<PushInput> {
  connectionId?: string;
  folderKey?: string;
  /** A complete request, sent as it is (after the schema check). */
  request?: PushNotificationRequest;
}

export type PushResult =
  | { ok: true; request: PushNotificationRequest }
  | { ok: false; reason: string; errors?: SchemaError[]; status?: number; sent: boolean };

export const pushSchema = 'pushNotificationRequest.schema.json';

export function currentPushTypes(): PushTypeMapping {
  return pushTypeMapping(vscode.workspace.getConfiguration('oms').get('pushNotificationTypes'));
}

const isArgs = (t: unknown): t is SendPushArgs => !!t && typeof t === 'object' && ('type' in t || 'request' in t);

export const sendPushNotification = targeted({
  id: 'oms.sendPushNotification',
  target: folderTarget,
  async run(_s, where: FolderTarget, args?: unknown): Promise<PushResult> {
    const mapping = currentPushTypes();
    if (!isArgs(args)) return sendPush(where, await guidedRequest(where, mapping), mapping);
    let request: PushNotificationRequest;
    try {
      request = args.request ?? buildPushRequest(args as PushInput, mapping, await namingFor(where));
    } catch (e) {
      throw new Failure(messageOf(e), { ok: false, reason: messageOf(e), sent: false } satisfies PushResult, { cause: e });
    }
    return sendPush(where, request, mapping);
  },
});

async function namingFor(where: FolderTarget) {
  return namingOf(await where.connection.client.folder(where.folderKey).catch(() => undefined));
}

/** Checks the request against the schema, then sends it; a refusal either way is a Failure with the result. */
export async function sendPush(where: FolderTarget, request: PushNotificationRequest, mapping: PushTypeMapping): Promise<PushResult> {
  const errors = validate(pushSchema, request);
  if (errors.length) {
    const reason = `the request is not valid:\n${formatErrors(errors, 5)}`;
    throw new Failure(reason.replace(/\n/g, '; '), { ok: false, reason, errors, sent: false } satisfies PushResult);
  }
  const what = describePushType(request.PushNotificationType, mapping);
  const place = await placeText(where);
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Sending ${what} push notification to ${place}…` },
    () => where.connection.client.pushNotification(where.folderKey, request),
  ).then(undefined, failWith((e): PushResult => ({ ok: false, reason: messageOf(e), status: e instanceof ApiError ? e.status : undefined, sent: true })));
  const count = (request.RecipientKeys?.length ?? 0) + (request.EventRecipientKeys?.length ?? 0);
  notify('info', `${what} push notification sent in ${place}${count ? ` to ${count} recipient${count > 1 ? 's' : ''}` : ''}.`);
  return { ok: true, request };
}

// ---------------------------------------------------------------------------
// The guided flow.

interface PushState {
  type?: PushTypeName;
  content?: 'message' | 'template';
  message?: string;
  templateKey?: string;
  recipients: string[];
  eventRecipients: string[];
  subject?: string;
  attach?: boolean;
  image: { key?: string; name?: string; relation?: string };
  people?: PersonItem[];
  peopleNote?: string;
}

interface PersonItem extends vscode.QuickPickItem {
  key?: string;
}

const title = 'Send Push Notification';

async function guidedRequest(where: FolderTarget, mapping: PushTypeMapping): Promise<PushNotificationRequest> {
  const state: PushState = { recipients: [], eventRecipients: [], image: {} };
  const naming = await namingFor(where);
  const place = await placeText(where);
  let request: PushNotificationRequest | undefined;

  const email = () => state.type === 'Email';
  const total = () => 6 + (email() ? 2 + (state.attach ? 3 : 0) : 0);

  const pickType: Step = async (input) => {
    const items = pushTypeNames.map((name) => ({ label: pushTypeLabels[name], name }));
    const picked = await input.pick({
      title, step: 1, totalSteps: total(), items, active: items.find((i) => i.name === state.type),
      placeholder: 'Delivery type',
    });
    state.type = picked.name;
    return pickContent;
  };

  const pickContent: Step = async (input) => {
    const items = [
      { label: 'Message text', detail: 'Type the message', value: 'message' as const },
      { label: 'Message template', detail: 'The key of a message template', value: 'template' as const },
    ];
    const picked = await input.pick({ title, step: 2, totalSteps: total(), items, active: items.find((i) => i.value === state.content), placeholder: 'What to send' });
    state.content = picked.value;
    return state.content === 'message' ? inputMessage : inputTemplate;
  };

  const inputMessage: Step = async (input) => {
    state.message = await input.input({
      title, step: 3, totalSteps: total(), value: state.message, prompt: `The ${pushTypeLabels[state.type!]} message`,
      validate: (v) => (v.trim() ? (state.type === 'Sms' && v.length > 1600 ? 'An SMS message this long will not be delivered (over 1600 characters)' : undefined) : 'Enter the message'),
    });
    state.templateKey = undefined;
    return pickRecipients;
  };

  const inputTemplate: Step = async (input) => {
    state.templateKey = (await input.input({
      title, step: 3, totalSteps: total(), value: state.templateKey, prompt: 'Key of the message template',
      validate: (v) => (!v.trim() ? 'Enter the template key' : /\s/.test(v.trim()) ? 'A key has no spaces' : undefined),
    })).trim();
    state.message = undefined;
    return pickRecipients;
  };

  const recipientsStep = (which: 'recipients' | 'eventRecipients', step: number, next: () => Step | undefined): Step => async (input) => {
    const people = await loadPeople(where, state);
    const label = which === 'recipients' ? 'Recipients' : 'Event recipients';
    const chosen = new Set(state[which]);
    const typed = state[which].filter((k) => !people.some((p) => p.key === k)).map((k): PersonItem => ({ label: `$(key) ${k}`, description: 'typed key', key: k }));
    const base = [...typed, ...people];
    const { selected, value } = await input.pickMany<PersonItem>({
      title, step, totalSteps: total(), items: base, selected: base.filter((i) => i.key && chosen.has(i.key)),
      matchOnDescription: true, matchOnDetail: true,
      placeholder: `${label} (optional): check people${state.peopleNote ? ` (${state.peopleNote})` : ''}, or type keys separated by commas; Enter to go on`,
      onValue: (v, pick) => {
        const { keys, bad } = parseKeys(v);
        const extra: PersonItem[] = [];
        if (keys.length && !bad.length) extra.push({ label: `$(add) Enter adds the typed key${keys.length > 1 ? 's' : ''}: ${keys.join(', ')}`, alwaysShow: true });
        if (keys.length && bad.length) extra.push({ label: `$(warning) Not a key: ${bad.join(', ')} (keys are 24 hex digits)`, alwaysShow: true });
        const keep = pick.selectedItems.filter((i) => i.key);
        pick.items = [...extra, ...base];
        pick.selectedItems = keep;
      },
      check: (_sel, v) => {
        const { keys, bad } = parseKeys(v);
        return keys.length && bad.length ? `not a key: ${bad.join(', ')}` : undefined;
      },
    });
    const typedKeys = parseKeys(value).keys;
    state[which] = [...new Set([...selected.map((i) => i.key).filter((k): k is string => !!k), ...typedKeys])];
    return next();
  };

  const pickRecipients = recipientsStep('recipients', 4, () => pickEventRecipients);
  const pickEventRecipients = recipientsStep('eventRecipients', 5, () => (email() ? inputSubject : summary));

  const inputSubject: Step = async (input) => {
    state.subject = await input.input({
      title, step: 6, totalSteps: total(), value: state.subject, prompt: 'Subject of the e-mail (optional)',
      validate: (v) => (/[\r\n]/.test(v) ? 'A subject is one line' : undefined),
    });
    return pickAttach;
  };

  const pickAttach: Step = async (input) => {
    const items = [
      { label: 'No image', attach: false },
      { label: 'Attach an image…', detail: 'An object link: the key of the image object, its name and relation', attach: true },
    ];
    const picked = await input.pick({ title, step: 7, totalSteps: total(), items, active: items.find((i) => i.attach === !!state.attach), placeholder: 'Attached image (e-mail only)' });
    state.attach = picked.attach;
    return state.attach ? inputImageKey : summary;
  };

  const inputImageKey: Step = async (input) => {
    state.image.key = (await input.input({
      title, step: 8, totalSteps: total(), value: state.image.key, prompt: 'Image: LinkedObjectKey (the key of the image object)',
      validate: (v) => (!v.trim() ? 'Enter the key of the image object' : keyPattern.test(v.trim()) ? undefined : 'A key is 24 hex digits'),
    })).trim();
    return inputImageName;
  };

  const inputImageName: Step = async (input) => {
    state.image.name = await input.input({ title, step: 9, totalSteps: total(), value: state.image.name, prompt: 'Image: CommonName (optional)' });
    return inputImageRelation;
  };

  const inputImageRelation: Step = async (input) => {
    state.image.relation = await input.input({
      title, step: 10, totalSteps: total(), value: state.image.relation ?? 'Image', prompt: 'Image: Relation of the linked object',
      validate: (v) => (/\s/.test(v.trim()) ? 'A relation is one word' : undefined),
    });
    return summary;
  };

  const summary: Step = async (input) => {
    const image: ImageLink | null = email() && state.attach && state.image.key
      ? { LinkedObjectKey: state.image.key, CommonName: state.image.name || null, Relation: state.image.relation || null } : null;
    const built = buildPushRequest({
      type: state.type!, message: state.message, messageTemplateKey: state.templateKey,
      recipientKeys: state.recipients, eventRecipientKeys: state.eventRecipients, subject: state.subject, attachedImage: image,
    }, mapping, naming);
    const errors = validate(pushSchema, built);
    const send = { label: '$(send) Send', description: `to ${place}`, send: true };
    const curl = { label: '$(terminal) Copy as cURL', description: 'the request as a shell command, with $TOKEN for the token', curl: true };
    const items: Array<vscode.QuickPickItem & { send?: boolean; curl?: boolean }> = [
      ...(errors.length ? [] : [send, curl]),
      { label: 'Summary', kind: vscode.QuickPickItemKind.Separator },
      ...summarizePushRequest(built, mapping, (key) => state.people?.find((p) => p.key === key)?.label).map((line) => {
        const [k, ...rest] = line.split(': ');
        return { label: k, description: rest.join(': ') };
      }),
      ...(errors.length ? [{ label: 'Not valid', kind: vscode.QuickPickItemKind.Separator }, ...errors.map((e) => ({ label: `$(error) ${e.pointer || '(request)'}`, description: e.message }))] : []),
    ];
    await input.pick({
      title, step: total(), totalSteps: total(), items, active: errors.length ? undefined : send,
      placeholder: errors.length ? 'The request is not valid: go Back to fix it' : 'Enter to send, Back to change, Escape to cancel',
      check: (sel) => {
        if (sel[0]?.curl) {
          void copyCurl(where.connection, (c) => c.pushNotification(where.folderKey, built), `the push notification to ${place}`);
          return 'copied as cURL; Enter on Send sends it';
        }
        return sel[0]?.send ? undefined : errors.length ? 'go Back to fix the request' : 'choose Send, or Back to change';
      },
    });
    request = built;
    return undefined;
  };

  await MultiStepInput.run(pickType);
  return request!;
}

/** The folder's people for the recipient lists (first 1000); typed keys still work when listing is refused. */
async function loadPeople(where: FolderTarget, state: PushState): Promise<PersonItem[]> {
  if (state.people) return state.people;
  try {
    const page = await where.connection.client.list<PersonInfo>(kindOf('person'), where.folderKey, 0, 1000);
    state.people = page.items.filter((p) => p.Key).map((p) => ({
      label: p.CommonName || [p.GivenName, p.Surname].filter(Boolean).join(' ') || p.Key!,
      description: p.Key!,
      detail: (p.Addresses ?? []).map((a) => (a as { MailTo?: string; Number?: string }).MailTo ?? (a as { Number?: string }).Number).filter(Boolean).join(', ') || undefined,
      key: p.Key!,
    }));
    if (page.next !== undefined) state.peopleNote = 'first 1000 people of this folder';
    else if (!state.people.length) state.peopleNote = 'no people in this folder';
  } catch (e) {
    state.people = [];
    state.peopleNote = `people not listed: ${(e as Error).message}`;
  }
  return state.people;
}
