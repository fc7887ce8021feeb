import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  buildPushRequest,
  defaultPushTypes,
  describePushType,
  parseKeys,
  pushTypeMapping,
  pushTypeName,
  pushTypeNumber,
  summarizePushRequest,
} from '../../../src/model/pushTypes';
import { validate } from '../../../src/validation/validator';

test('the default mapping is the setting default {Email: 0, Sms: 1}', () => {
  assert.deepEqual(pushTypeMapping(undefined), { Email: 0, Sms: 1 });
  assert.deepEqual(pushTypeMapping({}), defaultPushTypes);
});

test('the setting overrides numbers; bad entries fall back per name; names are case-insensitive', () => {
  assert.deepEqual(pushTypeMapping({ Email: 1, Sms: 2 }), { Email: 1, Sms: 2 });
  assert.deepEqual(pushTypeMapping({ email: 5 }), { Email: 5, Sms: 1 });
  assert.deepEqual(pushTypeMapping({ Email: -1, Sms: 'x' }), { Email: 0, Sms: 1 });
  assert.deepEqual(pushTypeMapping({ Email: 1.5 }), { Email: 0, Sms: 1 });
  assert.deepEqual(pushTypeMapping('nonsense'), { Email: 0, Sms: 1 });
});

test('two names on one number is refused', () => {
  assert.throws(() => pushTypeMapping({ Email: 1, Sms: 1 }), /same number \(1\)/);
  assert.throws(() => pushTypeMapping({ Email: 1 }), /same number/);
});

test('names <-> numbers both ways, with aliases', () => {
  const m = pushTypeMapping({ Email: 3, Sms: 7 });
  assert.equal(pushTypeNumber('Email', m), 3);
  assert.equal(pushTypeNumber('SMS', m), 7);
  assert.equal(pushTypeNumber('e-mail', m), 3);
  assert.equal(pushTypeNumber(7, m), 7);
  assert.equal(pushTypeName(3, m), 'Email');
  assert.equal(pushTypeName('7', m), 'Sms');
  assert.equal(pushTypeName(0, m), undefined);
  assert.equal(pushTypeName('fax', m), undefined);
  assert.equal(pushTypeName(null, m), undefined);
  assert.throws(() => pushTypeNumber('fax', m), /Unknown push notification type "fax"/);
  assert.throws(() => pushTypeNumber(0, m), /Unknown/);
  assert.equal(describePushType(3, m), 'E-mail');
  assert.equal(describePushType('Sms', m), 'SMS');
  assert.match(describePushType(9, m), /not in oms.pushNotificationTypes/);
});

test('an e-mail request: number from the mapping, nulls like the spec sample, valid by the schema', () => {
  const r = buildPushRequest(
    {
      type: 'Email',
      message: 'Fire drill at 3',
      recipientKeys: ['65a1f0000000000000000001', ' 65a1f0000000000000000001 ', ''],
      subject: 'Drill',
      attachedImage: { LinkedObjectKey: '65a1f0000000000000000009', CommonName: 'Map', Relation: 'Image' },
    },
    { Email: 4, Sms: 5 },
  );
  assert.equal(r.PushNotificationType, 4);
  assert.deepEqual(r.RecipientKeys, ['65a1f0000000000000000001']);
  assert.equal(r.EventRecipientKeys, null);
  assert.equal(r.MessageTemplateKey, null);
  assert.equal(r.Subject, 'Drill');
  assert.equal(r.AttachedImage?.LinkedObjectKey, '65a1f0000000000000000009');
  assert.match(r.AttachedImage.$type, /\.ObjectLinkItem, /);
  assert.match(r.$type, /^Feenics\.Keep\.WebApi\.Model\.PushNotificationRequest, Feenics\.Keep\.WebApi\.Model$/);
  assert.deepEqual(validate('pushNotificationRequest.schema.json', r), []);
});

test('SMS drops the subject and the image; a template request is valid without a message', () => {
  const r = buildPushRequest({ type: 'Sms', messageTemplateKey: ' tpl1 ', subject: 'x', attachedImage: { LinkedObjectKey: 'k' } });
  assert.equal(r.PushNotificationType, 1);
  assert.equal(r.Subject, null);
  assert.equal(r.AttachedImage, null);
  assert.equal(r.Message, null);
  assert.equal(r.MessageTemplateKey, 'tpl1');
  assert.deepEqual(validate('pushNotificationRequest.schema.json', r), []);
});

test('neither message nor template: the schema refuses the built request', () => {
  const r = buildPushRequest({ type: 'Email', message: '   ' });
  assert.equal(r.Message, null);
  const errors = validate('pushNotificationRequest.schema.json', r);
  assert.equal(errors.length, 1);
  assert.match(errors[0].message, /Message or MessageTemplateKey/);
});

test('summary lines name the type, the content and the recipients', () => {
  const keys = Array.from({ length: 6 }, (_, i) => `65a1f00000000000000000${String(i).padStart(2, '0')}`);
  const lines = summarizePushRequest(buildPushRequest({ type: 0, message: 'Hi', recipientKeys: keys, subject: 'S' }));
  assert.deepEqual(lines.slice(0, 2), ['Delivery: E-mail', 'Message: Hi']);
  assert.match(lines[2], /and 3 more$/);
  assert.equal(lines[3], 'Event recipients: none');
  assert.equal(lines[4], 'Subject: S');
});

test('typed keys: 24 hex digits, separated by commas, semicolons or spaces', () => {
  assert.deepEqual(parseKeys('65a1f0000000000000000001, 65A1F0000000000000000002;bad  x'), {
    keys: ['65a1f0000000000000000001', '65A1F0000000000000000002'],
    bad: ['bad', 'x'],
  });
  assert.deepEqual(parseKeys('  '), { keys: [], bad: [] });
});
