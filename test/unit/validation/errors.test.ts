import { test } from 'node:test';
import assert from 'node:assert/strict';

import { validate as validateRules, formatErrors, SchemaError } from '../../../src/validation/validator';
import { fixture } from './helpers';

const scanner = 'inputScanner.schema.json';
const person = 'person.schema.json';
const push = 'pushNotificationRequest.schema.json';
const site = 'engageSite.schema.json';

/** The errors as a person reads them: where and what (the keywords are the next file's). */
const validate = (schema: string, value: unknown) => validateRules(schema, value).map(({ pointer, message }) => ({ pointer, message }));

function at(errors: Array<Pick<SchemaError, 'pointer' | 'message'>>, pointer: string): string[] {
  return errors.filter((e) => e.pointer === pointer).map((e) => e.message);
}

test('nine reporting priorities: one error on the array, "exactly 8"', () => {
  const o = fixture('inputScanner.update.json');
  o.InputScannerReportingPriorities.push(o.InputScannerReportingPriorities[0]);
  const errors = validate(scanner, o);
  assert.deepEqual(errors, [{ pointer: '/InputScannerReportingPriorities', message: 'must have exactly 8 items (has 9)' }]);
});

test('seven reporting priorities fail the same way', () => {
  const o = fixture('inputScanner.create.json');
  o.InputScannerReportingPriorities.pop();
  assert.deepEqual(validate(scanner, o), [{ pointer: '/InputScannerReportingPriorities', message: 'must have exactly 8 items (has 7)' }]);
});

test('StatusCode 9 names the allowed codes with their labels', () => {
  const o = fixture('inputScanner.update.json');
  o.InputScannerReportingPriorities[3].StatusCode = 9;
  const errors = validate(scanner, o);
  assert.equal(errors.length, 1, formatErrors(errors));
  assert.equal(errors[0].pointer, '/InputScannerReportingPriorities/3/StatusCode');
  assert.match(errors[0].message, /^must be one of 0 \(Inactive, normal state of circuit\), 1 \(Active\), 2 \(Supervisory fault, ground fault\), /);
  assert.match(errors[0].message, /6 \(Non-settling error/);
});

test('StatusCode "1" (a string) is one error: must be integer, one of ...', () => {
  const o = fixture('inputScanner.update.json');
  o.InputScannerReportingPriorities[4].StatusCode = '1';
  const errors = validate(scanner, o);
  assert.equal(errors.length, 1, formatErrors(errors));
  assert.equal(errors[0].pointer, '/InputScannerReportingPriorities/4/StatusCode');
  assert.match(errors[0].message, /^must be integer, one of 0 \(Inactive, normal state of circuit\)/);
});

test('NonSettlingErrorStatus is checked like StatusCode', () => {
  const o = fixture('inputScanner.create.json');
  o.NonSettlingErrorStatus = 7;
  const errors = validate(scanner, o);
  assert.deepEqual(
    errors.map((e) => e.pointer),
    ['/NonSettlingErrorStatus'],
  );
  assert.match(errors[0].message, /^must be one of 0 /);
});

test('a priority without a StatusCode says which property is missing', () => {
  const o = fixture('inputScanner.create.json');
  delete o.InputScannerReportingPriorities[0].StatusCode;
  assert.deepEqual(validate(scanner, o), [{ pointer: '/InputScannerReportingPriorities/0', message: "must have required property 'StatusCode'" }]);
});

test('a wrong $type name: "$type must name EngageSiteInfo"', () => {
  const o = fixture('engageSite.update.json');
  o.$type = 'Feenics.Keep.WebApi.Model.InputScannerInfo, Feenics.Keep.WebApi.Model';
  const errors = validate(site, o);
  assert.equal(errors.length, 1, formatErrors(errors));
  assert.equal(errors[0].pointer, '/$type');
  assert.match(errors[0].message, /^\$type must name EngageSiteInfo/);
});

test('a $type without namespace or assembly fails; another namespace passes', () => {
  const o = fixture('engageSite.create.json');
  for (const bad of ['EngageSiteInfo', 'Feenics.Keep.WebApi.Model.EngageSiteInfo', '.EngageSiteInfo, X', 'X.EngageSiteInfoX, Y']) {
    o.$type = bad;
    assert.deepEqual(
      validate(site, o).map((e) => e.pointer),
      ['/$type'],
      bad,
    );
  }
  o.$type = 'My.Other.Ns.EngageSiteInfo, My.Other.Ns';
  assert.deepEqual(validate(site, o), []);
  o.$type = 'Ns.EngageSiteInfo,Ns';
  assert.deepEqual(validate(site, o), []);
});

test('$type missing at the root and on a nested Link', () => {
  const o = fixture('engageSite.update.json');
  delete o.$type;
  delete o.Links[2].$type;
  const errors = validate(site, o);
  assert.deepEqual(errors, [
    { pointer: '/Links/2', message: "must have required property '$type'" },
    { pointer: '', message: "must have required property '$type'" },
  ]);
});

test('a nested Anchor with the wrong $type, and an Anchor that is not an object', () => {
  const o = fixture('folder.update.json');
  o.Links[0].Anchor.$type = 'Feenics.Keep.WebApi.Model.Link, Feenics.Keep.WebApi.Model';
  o.Links[1].Anchor = 'meta';
  const errors = validate('folder.schema.json', o);
  assert.deepEqual(at(errors, '/Links/0/Anchor/$type'), ['$type must name Anchor (<namespace>.Anchor, <assembly>)']);
  assert.deepEqual(at(errors, '/Links/1/Anchor'), ['must be null or object']);
  assert.equal(errors.length, 2, formatErrors(errors));
});

test('errors inside a nullable nested object point inside it (no anyOf noise)', () => {
  const o = fixture('person.update.json');
  o.ObjectLinks[1].MetaDataBson = { $type: 'System.Byte[], mscorlib', $value: 5 };
  o.Notes[0].User.LinkedObjectKey = 42;
  const errors = validate(person, o);
  assert.deepEqual(errors, [
    { pointer: '/Notes/0/User/LinkedObjectKey', message: 'must be string or null' },
    { pointer: '/ObjectLinks/1/MetaDataBson/$value', message: 'must be string' },
  ]);
});

test('Tags not an array of strings', () => {
  const o = fixture('serviceContainer.update.json');
  o.Tags = ['north', 3, null];
  assert.deepEqual(validate('serviceContainer.schema.json', o), [
    { pointer: '/Tags/1', message: 'must be string' },
    { pointer: '/Tags/2', message: 'must be string' },
  ]);
  o.Tags = 'north';
  assert.deepEqual(validate('serviceContainer.schema.json', o), [{ pointer: '/Tags', message: 'must be array or null' }]);
});

test('an address whose $type is none of the three fails with a clear message', () => {
  const o = fixture('person.update.json');
  o.Addresses[1].$type = 'Feenics.Keep.WebApi.Model.FaxInfo, Feenics.Keep.WebApi.Model';
  assert.deepEqual(validate(person, o), [{ pointer: '/Addresses/1/$type', message: '$type must name PhoneInfo, EmailAddressInfo or MailingAddressInfo' }]);
});

test('PhoneInfo without Number, and with a Number of the wrong type', () => {
  const o = fixture('person.create.json');
  delete o.Addresses[0].Number;
  o.Addresses[1].MailTo = ['a@example.com'];
  o.Addresses[2].PostalCode = 12345;
  const errors = validate(person, o);
  assert.deepEqual(errors, [
    { pointer: '/Addresses/1/MailTo', message: 'must be string' },
    { pointer: '/Addresses/2/PostalCode', message: 'must be string or null' },
    { pointer: '/Addresses/0', message: "must have required property 'Number'" },
  ]);
  const p = fixture('person.create.json');
  p.Addresses[0].Number = 5065550101;
  p.Addresses[0].IsPrivate = 'no';
  assert.deepEqual(validate(person, p), [
    { pointer: '/Addresses/0/IsPrivate', message: 'must be boolean' },
    { pointer: '/Addresses/0/Number', message: 'must be string' },
  ]);
});

test('fields of the wrong address kind are not checked against another kind (told apart by $type)', () => {
  const o = fixture('person.create.json');
  // An e-mail item may carry any extra field, but a phone's Number rule does not apply to it.
  o.Addresses[1].Number = 7;
  assert.deepEqual(validate(person, o), []);
});

test('push request with neither message nor template: one error at the root', () => {
  const o = fixture('pushNotificationRequest.json');
  o.Message = null;
  o.MessageTemplateKey = null;
  assert.deepEqual(validate(push, o), [{ pointer: '', message: 'must set Message or MessageTemplateKey (at least one non-empty string)' }]);
  delete o.Message;
  delete o.MessageTemplateKey;
  assert.deepEqual(validate(push, o), [{ pointer: '', message: 'must set Message or MessageTemplateKey (at least one non-empty string)' }]);
});

test('push request: either message or template alone passes', () => {
  const o = fixture('pushNotificationRequest.json');
  o.MessageTemplateKey = null;
  assert.deepEqual(validate(push, o), []);
  const t = fixture('pushNotificationRequest.json');
  delete t.Message;
  assert.deepEqual(validate(push, t), []);
});

test('push request: PushNotificationType is required, a number or a name', () => {
  const o = fixture('pushNotificationRequest.json');
  for (const ok of [0, 1, 'Email', 'Sms']) {
    o.PushNotificationType = ok;
    assert.deepEqual(validate(push, o), [], String(ok));
  }
  o.PushNotificationType = true;
  assert.deepEqual(validate(push, o), [{ pointer: '/PushNotificationType', message: 'must be integer or string' }]);
  o.PushNotificationType = -1;
  assert.deepEqual(
    validate(push, o).map((e) => e.pointer),
    ['/PushNotificationType'],
  );
  delete o.PushNotificationType;
  assert.deepEqual(validate(push, o), [{ pointer: '', message: "must have required property 'PushNotificationType'" }]);
});

test('push request: recipients are arrays of strings or null; AttachedImage an ObjectLinkItem or null', () => {
  const o = fixture('pushNotificationRequest.full.json');
  o.RecipientKeys = 'abc';
  o.AttachedImage = { CommonName: 'x' };
  assert.deepEqual(validate(push, o), [
    { pointer: '/AttachedImage', message: "must have required property '$type'" },
    { pointer: '/RecipientKeys', message: 'must be array or null' },
  ]);
});

test('an extra unknown property passes, at the root and nested', () => {
  const o = fixture('inputScanner.update.json');
  o.SomethingNew = { any: 'thing' };
  o.Links[0].Extra = 1;
  o.InputScannerReportingPriorities[0].Debounce = 20;
  assert.deepEqual(validate(scanner, o), []);
  const p = fixture('pushNotificationRequest.json');
  p.Priority = 'high';
  assert.deepEqual(validate(push, p), []);
});

test('base fields are type-checked: ConcurrencyVersion, IsGlobal, CommonName', () => {
  const o = fixture('serviceContainerModule.update.json');
  o.ConcurrencyVersion = '3';
  o.IsGlobal = null;
  o.CommonName = null;
  const errors = validate('serviceContainerModule.schema.json', o);
  assert.deepEqual(at(errors, '/ConcurrencyVersion'), ['must be integer or null']);
  assert.deepEqual(at(errors, '/IsGlobal'), ['must be boolean']);
  assert.deepEqual(at(errors, '/CommonName'), ['must be string']);
  assert.equal(errors.length, 3, formatErrors(errors));
  delete o.CommonName;
  assert.deepEqual(at(validate('serviceContainerModule.schema.json', o), ''), ["must have required property 'CommonName'"]);
});

test('a value that is not an object at all', () => {
  assert.deepEqual(validate(site, []), [{ pointer: '', message: 'must be object' }]);
  assert.deepEqual(validate(site, null), [{ pointer: '', message: 'must be object' }]);
});

test('the people batch is an array of PersonInfo; errors point into the item', () => {
  const batch = fixture('peopleBatch.json');
  batch[1].Addresses = [{ $type: 'Feenics.Keep.WebApi.Model.EmailAddressInfo, Feenics.Keep.WebApi.Model', IsPrivate: false }];
  batch[0].$type = 'Feenics.Keep.WebApi.Model.EngageSiteInfo, Feenics.Keep.WebApi.Model';
  assert.deepEqual(validate('peopleBatch.schema.json', batch), [
    { pointer: '/1/Addresses/0', message: "must have required property 'MailTo'" },
    { pointer: '/0/$type', message: '$type must name PersonInfo (<namespace>.PersonInfo, <assembly>)' },
  ]);
  assert.deepEqual(validate('peopleBatch.schema.json', batch[0]), [{ pointer: '', message: 'must be array' }]);
});

test('errors of equal depth come in document order', () => {
  const o = fixture('inputScanner.update.json');
  o.InputScannerReportingPriorities[5].Priority = 'high';
  o.InputScannerReportingPriorities[1].StatusCode = -1;
  o.InputScannerReportingPriorities[1].Priority = null;
  assert.deepEqual(
    validate(scanner, o).map((e) => e.pointer),
    ['/InputScannerReportingPriorities/1/Priority', '/InputScannerReportingPriorities/1/StatusCode', '/InputScannerReportingPriorities/5/Priority'],
  );
});

test('errors are deduplicated and the most specific come first', () => {
  const o = fixture('person.update.json');
  o.$type = 5; // fails both the base and the kind $type rule
  o.Addresses[2].City = 1;
  const errors = validate(person, o);
  assert.deepEqual(errors, [
    { pointer: '/Addresses/2/City', message: 'must be string or null' },
    { pointer: '/$type', message: 'must be string' },
  ]);
});

test('formatErrors: one line per error, "(root)" for the root, capped with a count', () => {
  const errors: Array<Pick<SchemaError, 'pointer' | 'message'>> = [
    { pointer: '/Tags/0', message: 'must be string' },
    { pointer: '', message: "must have required property '$type'" },
    { pointer: '/Key', message: 'must be string or null' },
  ];
  assert.equal(formatErrors(errors), "/Tags/0: must be string\n(root): must have required property '$type'\n/Key: must be string or null");
  assert.equal(formatErrors(errors, 1), '/Tags/0: must be string\n... and 2 more');
  assert.equal(formatErrors([]), '');
});
