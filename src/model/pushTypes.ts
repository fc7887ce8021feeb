/**
 * PushNotificationTypes: the delivery type of a push notification, e-mail or
 * SMS. The spec does not publish which number means which, so the numbers come
 * from the setting `oms.pushNotificationTypes` (default `{Email: 0, Sms: 1}`);
 * the server (Json.NET) also reads the names. Plain TypeScript: no `vscode`.
 *
 * Also builds a PushNotificationRequest from the answers of the guided flow.
 */
import { makeType, TypeNaming } from './typeName';
import type { ObjectLinkItem, PushNotificationRequest } from './types';
import { l10n } from '../l10n';

export type PushTypeName = 'Email' | 'Sms';
export type PushTypeMapping = Readonly<Record<PushTypeName, number>>;

export const pushTypeNames: readonly PushTypeName[] = ['Email', 'Sms'];
/** @internal Exported for its unit test. */
export const defaultPushTypes: PushTypeMapping = { Email: 0, Sms: 1 };

/** What the user sees for each name. */
export const pushTypeLabels: Readonly<Record<PushTypeName, string>> = { Email: 'E-mail', Sms: 'SMS' };

/**
 * The mapping from the setting's value: each name takes the setting's number
 * when it is a non-negative integer, else the default. Two names on one number
 * cannot be told apart, so that is an error (the caller says so and stops).
 */
export function pushTypeMapping(setting: unknown): PushTypeMapping {
  const s = (setting && typeof setting === 'object' ? setting : {}) as Record<string, unknown>;
  const pick = (name: PushTypeName): number => {
    const key = Object.keys(s).find((k) => k.toLowerCase() === name.toLowerCase());
    const v = key === undefined ? undefined : s[key];
    return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : defaultPushTypes[name];
  };
  const mapping = { Email: pick('Email'), Sms: pick('Sms') };
  if (mapping.Email === mapping.Sms) {
    throw new Error(l10n.t('The setting oms.pushNotificationTypes gives e-mail and SMS the same number ({0}); give each its own', mapping.Email));
  }
  return mapping;
}

const nameAliases: Readonly<Record<string, PushTypeName>> = {
  email: 'Email',
  'e-mail': 'Email',
  mail: 'Email',
  sms: 'Sms',
  text: 'Sms',
  'text message': 'Sms',
};

/** The name for a number, a name or an alias (case-insensitive); undefined when it is neither. */
export function pushTypeName(value: unknown, mapping: PushTypeMapping = defaultPushTypes): PushTypeName | undefined {
  if (typeof value === 'number') return pushTypeNames.find((n) => mapping[n] === value);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return pushTypeName(Number(text), mapping);
  return nameAliases[text.toLowerCase()];
}

/**
 * The number the service expects for a name (or a number / alias of one).
 * @internal Exported for its unit test.
 */
export function pushTypeNumber(value: string | number, mapping: PushTypeMapping = defaultPushTypes): number {
  const name = pushTypeName(value, mapping);
  if (!name) throw new Error(l10n.t('Unknown push notification type {0} (expected {1})', JSON.stringify(value), pushTypeNames.join(l10n.t(' or '))));
  return mapping[name];
}

/** E.g. `E-mail` (the name only: the number is the service's business), or `type 7 (not in oms.pushNotificationTypes)`. */
export function describePushType(value: unknown, mapping: PushTypeMapping = defaultPushTypes): string {
  const name = pushTypeName(value, mapping);
  if (!name) return l10n.t('type {0} (not in oms.pushNotificationTypes)', JSON.stringify(value));
  return l10n.t(pushTypeLabels[name]);
}

export interface ImageLink {
  LinkedObjectKey: string;
  CommonName?: string | null;
  Relation?: string | null;
  Href?: string | null;
}

/** The answers of the guided flow (and the args of `oms.sendPushNotification`). */
export interface PushInput {
  /** A name (`Email`, `Sms`, aliases) or the number itself. */
  type: string | number;
  message?: string | null;
  messageTemplateKey?: string | null;
  recipientKeys?: readonly string[] | null;
  eventRecipientKeys?: readonly string[] | null;
  /** E-mail only; dropped for SMS. */
  subject?: string | null;
  /** E-mail only; dropped for SMS. */
  attachedImage?: ImageLink | null;
}

const emptyToNull = (v: string | null | undefined) => (v === undefined || v === null || v.trim() === '' ? null : v);
const keysOrNull = (keys: readonly string[] | null | undefined) => {
  const list = [...new Set((keys ?? []).map((k) => k.trim()).filter(Boolean))];
  return list.length ? list : null;
};

/**
 * A request shaped like the spec's sample: unset fields are null. The type is
 * sent as its number from the mapping. Subject and image only go with e-mail.
 */
export function buildPushRequest(input: PushInput, mapping: PushTypeMapping = defaultPushTypes, naming?: TypeNaming): PushNotificationRequest {
  const type = pushTypeNumber(input.type, mapping);
  const email = pushTypeName(type, mapping) === 'Email';
  const image = email && input.attachedImage?.LinkedObjectKey?.trim() ? imageLink(input.attachedImage, naming) : null;
  return {
    $type: makeType('PushNotificationRequest', naming),
    AttachedImage: image,
    EventRecipientKeys: keysOrNull(input.eventRecipientKeys),
    Message: emptyToNull(input.message),
    MessageTemplateKey: emptyToNull(input.messageTemplateKey?.trim()),
    Metadata: null,
    ObjectLinks: null,
    PushNotificationType: type,
    RecipientKeys: keysOrNull(input.recipientKeys),
    Subject: email ? emptyToNull(input.subject) : null,
  };
}

function imageLink(image: ImageLink, naming?: TypeNaming): ObjectLinkItem {
  return {
    $type: makeType('ObjectLinkItem', naming),
    Href: image.Href ?? null,
    LinkedObjectKey: image.LinkedObjectKey.trim(),
    CommonName: emptyToNull(image.CommonName ?? null),
    Relation: emptyToNull(image.Relation ?? null),
  };
}

/** Lines for a confirmation summary of a request (from the flow or from a file). */
export function summarizePushRequest(
  request: PushNotificationRequest,
  mapping: PushTypeMapping = defaultPushTypes,
  nameOf: (key: string) => string | undefined = () => undefined,
): string[] {
  const lines = [l10n.t('Delivery: {0}', describePushType(request.PushNotificationType, mapping))];
  if (request.Message) lines.push(l10n.t('Message: {0}', ellipsis(request.Message, 80)));
  if (request.MessageTemplateKey) lines.push(l10n.t('Message template: {0}', request.MessageTemplateKey));
  lines.push(l10n.t('Recipients: {0}', listOf(request.RecipientKeys, nameOf)));
  lines.push(l10n.t('Event recipients: {0}', listOf(request.EventRecipientKeys, nameOf)));
  if (request.Subject) lines.push(l10n.t('Subject: {0}', ellipsis(request.Subject, 80)));
  if (request.AttachedImage) {
    const i = request.AttachedImage;
    lines.push(l10n.t('Attached image: {0}', `${i.CommonName ? `${i.CommonName} ` : ''}(${i.LinkedObjectKey}${i.Relation ? `, ${i.Relation}` : ''})`));
    if (pushTypeName(request.PushNotificationType, mapping) !== 'Email') lines.push(l10n.t('Note: the image is only attached to e-mails'));
  }
  return lines;
}

/** People by name where known, else by key. */
function listOf(keys: readonly string[] | null | undefined, nameOf: (key: string) => string | undefined): string {
  if (!keys?.length) return l10n.t('none');
  const names = keys.map((k) => nameOf(k) ?? k);
  return names.length <= 4 ? names.join(', ') : l10n.t('{0} and {1} more', names.slice(0, 3).join(', '), names.length - 3);
}

function ellipsis(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** Object keys are 24 hex digits (BSON ObjectId form). */
export const keyPattern = /^[0-9a-fA-F]{24}$/;

/** Splits typed keys (commas, semicolons, spaces); `bad` holds the tokens that are not keys. */
export function parseKeys(text: string): { keys: string[]; bad: string[] } {
  const tokens = text
    .split(/[\s,;]+/)
    .map((t) => t.trim())
    .filter(Boolean);
  return { keys: tokens.filter((t) => keyPattern.test(t)), bad: tokens.filter((t) => !keyPattern.test(t)) };
}
