/**
 * The steps of Send Push Notification (src/ui/wizard.ts): delivery type, message or template, the
 * message or the template's key, recipients, event recipients, and a summary to confirm, which also
 * offers the e-mail's subject and attached image and Copy as cURL. Six steps whatever the answers:
 * what only an e-mail has is asked from the summary, so the step count never jumps.
 */
import vscode = require('vscode');
import { kind as kindOf } from '../../model/kinds';
import {
  buildPushRequest,
  ImageLink,
  keyPattern,
  parseKeys,
  PushInput,
  pushTypeLabels,
  pushTypeName,
  PushTypeMapping,
  pushTypeNames,
  summarizePushRequest,
} from '../../model/pushTypes';
import type { TypeNaming } from '../../model/typeName';
import type { PersonInfo, PushNotificationRequest } from '../../model/types';
import { validate } from '../../validation/validator';
import { isBack } from '../../ui/multiStepInput';
import type { Ask, WizardStep } from '../../ui/wizard';
import type { FolderTarget } from '../framework/commandTargets';
import { copyCurl } from '../objects/copyAsCurl';

export const pushSchema = 'pushNotificationRequest.schema.json';

/**
 * What the steps fill. `undefined`: not decided yet (a step asks); `null` or `[]`: decided as none
 * (a script's arguments decide every value). `confirmed`: the user chose Send on the summary.
 */
export interface PushContext extends Partial<PushInput> {
  content?: 'message' | 'template';
  confirmed?: boolean;
  /** A complete request given as it is: nothing to ask. */
  request?: PushNotificationRequest;
}

/** What the steps need besides the context. */
export interface PushPlace {
  where: FolderTarget;
  /** The folder as the user reads it. */
  place: string;
  mapping: PushTypeMapping;
  naming: TypeNaming;
}

interface PersonItem extends vscode.QuickPickItem {
  key?: string;
}

const isEmail = (c: PushContext, mapping: PushTypeMapping) => c.type !== undefined && pushTypeName(c.type, mapping) === 'Email';
const contentMissing = (c: PushContext) => !c.request && c.message === undefined && c.messageTemplateKey === undefined;

/** The request the answers make; a complete request given as it is stays as it is. */
export function pushRequestOf(c: PushContext, p: PushPlace): PushNotificationRequest {
  return c.request ?? buildPushRequest({ ...c, type: c.type! }, p.mapping, p.naming);
}

/** True when the request names nobody: the service then decides who gets it (the spec's sample does this). */
export const namesNobody = (r: PushNotificationRequest): boolean => !r.RecipientKeys?.length && !r.EventRecipientKeys?.length;

export function pushSteps(p: PushPlace): WizardStep<PushContext>[] {
  const people = peopleOf(p.where);

  const type: WizardStep<PushContext> = {
    shouldPrompt: (c) => !c.request && c.type === undefined,
    async prompt(c, ask) {
      const items = pushTypeNames.map((name) => ({ label: vscode.l10n.t(pushTypeLabels[name]), name }));
      c.type = (await ask.pick({ items, active: items.find((i) => i.name === c.type), placeholder: vscode.l10n.t('Delivery type') })).name;
    },
  };

  const contentKind: WizardStep<PushContext> = {
    shouldPrompt: contentMissing,
    async prompt(c, ask) {
      const items = [
        { label: vscode.l10n.t('Message text'), detail: vscode.l10n.t('Type the message'), value: 'message' as const },
        { label: vscode.l10n.t('Message template'), detail: vscode.l10n.t('The key of a message template'), value: 'template' as const },
      ];
      c.content = (await ask.pick({ items, active: items.find((i) => i.value === c.content), placeholder: vscode.l10n.t('What to send') })).value;
    },
  };

  const content: WizardStep<PushContext> = {
    shouldPrompt: contentMissing,
    async prompt(c, ask) {
      if (c.content === 'template') {
        c.messageTemplateKey = (
          await ask.input({
            value: c.messageTemplateKey ?? undefined,
            prompt: vscode.l10n.t('Key of the message template'),
            validate: (v) => (!v.trim() ? vscode.l10n.t('Enter the template key') : /\s/.test(v.trim()) ? vscode.l10n.t('A key has no spaces') : undefined),
          })
        ).trim();
        c.message = undefined;
      } else {
        const sms = c.type === 'Sms';
        c.message = await ask.input({
          value: c.message ?? undefined,
          prompt: sms ? vscode.l10n.t('The SMS message') : vscode.l10n.t('The e-mail message'),
          validate: (v) =>
            v.trim()
              ? sms && v.length > 1600
                ? vscode.l10n.t('An SMS message this long will not be delivered (over 1600 characters)')
                : undefined
              : vscode.l10n.t('Enter the message'),
        });
        c.messageTemplateKey = undefined;
      }
    },
  };

  const recipients = (which: 'recipientKeys' | 'eventRecipientKeys', label: string): WizardStep<PushContext> => ({
    shouldPrompt: (c) => !c.request && c[which] === undefined,
    async prompt(c, ask) {
      const { items: known, note } = await people();
      const chosen = new Set(c[which] ?? []);
      const typed = [...chosen]
        .filter((k) => !known.some((p) => p.key === k))
        .map((k): PersonItem => ({ label: `$(key) ${k}`, description: vscode.l10n.t('typed key'), key: k }));
      const base = [...typed, ...known];
      const { selected, value } = await ask.pickMany<PersonItem>({
        items: base,
        selected: base.filter((i) => i.key && chosen.has(i.key)),
        matchOnDescription: true,
        matchOnDetail: true,
        placeholder: vscode.l10n.t('{0} (optional): check people{1}, or type keys separated by commas; Enter to go on', label, note ? ` (${note})` : ''),
        onValue: (v, pick) => {
          const { keys, bad } = parseKeys(v);
          const extra: PersonItem[] = [];
          if (keys.length && !bad.length) {
            const typedKeys = keys.join(', ');
            const adds =
              keys.length > 1 ? vscode.l10n.t('Enter adds the typed keys: {0}', typedKeys) : vscode.l10n.t('Enter adds the typed key: {0}', typedKeys);
            extra.push({ label: `$(add) ${adds}`, alwaysShow: true });
          }
          if (keys.length && bad.length)
            extra.push({ label: `$(warning) ${vscode.l10n.t('Not a key: {0} (keys are 24 hex digits)', bad.join(', '))}`, alwaysShow: true });
          const keep = pick.selectedItems.filter((i) => i.key);
          pick.items = [...extra, ...base];
          pick.selectedItems = keep;
        },
        check: (_sel, v) => {
          const { keys, bad } = parseKeys(v);
          return keys.length && bad.length ? vscode.l10n.t('not a key: {0}', bad.join(', ')) : undefined;
        },
      });
      c[which] = [...new Set([...selected.map((i) => i.key).filter((k): k is string => !!k), ...parseKeys(value).keys])];
    },
  });

  const summary: WizardStep<PushContext> = {
    shouldPrompt: (c) => !c.confirmed,
    async prompt(c, ask) {
      c.confirmed = false;
      for (;;) {
        const choice = await confirmOnce(c, ask, p, (key) => people.known(key));
        if (choice === 'send') break;
        try {
          if (choice === 'subject') await askSubject(c, ask);
          if (choice === 'image') await askImage(c, ask);
        } catch (e) {
          if (!isBack(e)) throw e; // Back in the subject or image boxes: the summary again
        }
      }
      c.confirmed = true;
    },
  };

  return [
    type,
    contentKind,
    content,
    recipients('recipientKeys', vscode.l10n.t('Recipients')),
    recipients('eventRecipientKeys', vscode.l10n.t('Event recipients')),
    summary,
  ];
}

type SummaryChoice = 'send' | 'subject' | 'image';

/** The summary: Send (or why not), Copy as cURL, the e-mail's extras; every line of the request. */
async function confirmOnce(c: PushContext, ask: Ask, p: PushPlace, nameOf: (key: string) => string | undefined): Promise<SummaryChoice> {
  const built = pushRequestOf(c, p);
  const errors = validate(pushSchema, built);
  const nobody = namesNobody(built);
  type Item = vscode.QuickPickItem & { choice?: SummaryChoice; curl?: boolean; warn?: boolean };
  const send: Item = {
    label: `$(send) ${nobody ? vscode.l10n.t('Send without recipients') : vscode.l10n.t('Send')}`,
    description: vscode.l10n.t('to {0}', p.place),
    choice: 'send',
  };
  const warning: Item = {
    label: `$(warning) ${vscode.l10n.t('No recipients and no event recipients')}`,
    warn: true,
    description: vscode.l10n.t('the service decides who gets it: go Back to choose people, or choose Send without recipients'),
  };
  const curl: Item = {
    label: `$(terminal) ${vscode.l10n.t('Copy as cURL')}`,
    description: vscode.l10n.t('the request as a shell command, with $TOKEN for the token'),
    curl: true,
  };
  const email = isEmail(c, p.mapping) && !c.request;
  const items: Item[] = [
    ...(errors.length ? [] : [...(nobody ? [warning] : []), send, curl]),
    ...(email
      ? [
          { label: `$(edit) ${vscode.l10n.t('Subject…')}`, description: c.subject || vscode.l10n.t('none'), choice: 'subject' as const },
          {
            label: `$(file-media) ${vscode.l10n.t('Attached image…')}`,
            description: c.attachedImage?.LinkedObjectKey
              ? `${c.attachedImage.CommonName ?? ''} (${c.attachedImage.LinkedObjectKey})`.trim()
              : vscode.l10n.t('none'),
            choice: 'image' as const,
          },
        ]
      : []),
    { label: vscode.l10n.t('Summary'), kind: vscode.QuickPickItemKind.Separator },
    ...summarizePushRequest(built, p.mapping, nameOf).map((line) => {
      const [k, ...rest] = line.split(': ');
      return { label: k, description: rest.join(': ') };
    }),
    ...(errors.length
      ? [
          { label: vscode.l10n.t('Not valid'), kind: vscode.QuickPickItemKind.Separator },
          ...errors.map((e) => ({ label: `$(error) ${e.pointer || vscode.l10n.t('(request)')}`, description: e.message })),
        ]
      : []),
  ];
  const picked = await ask.pick({
    items,
    // Nothing goes out on a bare Enter when the request names nobody: the warning is what Enter meets.
    active: errors.length ? undefined : nobody ? warning : send,
    placeholder: errors.length
      ? vscode.l10n.t('The request is not valid: go Back to fix it')
      : vscode.l10n.t('Enter to send, Back to change, Escape to cancel'),
    check: (sel) => {
      const item = sel[0];
      if (item?.curl) {
        void copyCurl(
          p.where.connection,
          (client) => client.pushNotification(p.where.folderKey, built),
          vscode.l10n.t('the push notification to {0}', p.place),
        );
        return vscode.l10n.t('copied as cURL; Enter on Send sends it');
      }
      if (item?.warn) return vscode.l10n.t('no one is named: go Back to choose recipients, or choose Send without recipients');
      return item?.choice ? undefined : errors.length ? vscode.l10n.t('go Back to fix the request') : vscode.l10n.t('choose Send, or Back to change');
    },
  });
  return picked.choice!;
}

async function askSubject(c: PushContext, ask: Ask): Promise<void> {
  c.subject = await ask.input({
    value: c.subject ?? undefined,
    prompt: vscode.l10n.t('Subject of the e-mail (empty: none)'),
    validate: (v) => (/[\r\n]/.test(v) ? vscode.l10n.t('A subject is one line') : undefined),
  });
}

async function askImage(c: PushContext, ask: Ask): Promise<void> {
  const image: ImageLink = { ...(c.attachedImage ?? { LinkedObjectKey: '' }) };
  image.LinkedObjectKey = (
    await ask.input({
      value: image.LinkedObjectKey,
      prompt: vscode.l10n.t('Attached image: LinkedObjectKey, the key of the image object (empty: no image)'),
      validate: (v) => (!v.trim() || keyPattern.test(v.trim()) ? undefined : vscode.l10n.t('A key is 24 hex digits')),
    })
  ).trim();
  if (!image.LinkedObjectKey) {
    c.attachedImage = null;
    return;
  }
  image.CommonName = await ask.input({ value: image.CommonName ?? undefined, prompt: vscode.l10n.t('Attached image: CommonName (optional)') });
  image.Relation = await ask.input({
    value: image.Relation ?? 'Image',
    prompt: vscode.l10n.t('Attached image: Relation of the linked object'),
    validate: (v) => (/\s/.test(v.trim()) ? vscode.l10n.t('A relation is one word') : undefined),
  });
  c.attachedImage = image;
}

/** The folder's people for the recipient lists (first 1000), read once; typed keys still work when listing is refused. */
function peopleOf(where: FolderTarget) {
  let loaded: Promise<{ items: PersonItem[]; note?: string }> | undefined;
  let items: PersonItem[] = [];
  const load = () =>
    (loaded ??= where.connection.client.list<PersonInfo>(kindOf('person'), where.folderKey, 0, 1000).then(
      (page) => {
        items = page.items
          .filter((p) => p.Key)
          .map((p) => ({
            label: p.CommonName || [p.GivenName, p.Surname].filter(Boolean).join(' ') || p.Key!,
            description: p.Key!,
            detail:
              (p.Addresses ?? [])
                .map((a) => (a as { MailTo?: string; Number?: string }).MailTo ?? (a as { Number?: string }).Number)
                .filter(Boolean)
                .join(', ') || undefined,
            key: p.Key!,
          }));
        return {
          items,
          note:
            page.next !== undefined
              ? items.length === 1
                ? vscode.l10n.t('the first person of this folder')
                : vscode.l10n.t('the first {0} people of this folder', items.length)
              : items.length
                ? undefined
                : vscode.l10n.t('no people in this folder'),
        };
      },
      (e: unknown) => ({ items, note: vscode.l10n.t('people not listed: {0}', (e as Error).message) }),
    ));
  return Object.assign(load, { known: (key: string) => items.find((i) => i.key === key)?.label });
}
