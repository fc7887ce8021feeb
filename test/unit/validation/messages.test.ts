// The schema messages in the user's language: each rule (ajv keyword) our schemas can fail on, and the
// common others, says its words through the l10n bundle with the field and the value filled in; only
// a keyword the validator does not know falls back to ajv's English.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { getL10nPseudoLocalized } from '@vscode/l10n-dev';

import { describeErrors, formatErrors, validate } from '../../../src/validation/validator';
import { useBundle } from '../../../src/l10n';
import { fixture } from './helpers';

interface Case {
  keyword: string;
  /** The error, from our schemas' validators or (keywords they do not use) ajv on a small schema. */
  errors: () => Array<{ pointer: string; message: string; keyword: string }>;
  pointer: string;
  english: string;
  /** What of the value the message must still hold in another language. */
  data: string[];
}

const scanner = (edit: (o: any) => void) => () => {
  const o = fixture('inputScanner.update.json');
  edit(o);
  return validate('inputScanner.schema.json', o);
};

const ajv = addFormats(new Ajv({ allErrors: true, verbose: true }));
const compiled = (schema: object, value: unknown) => () => {
  const fn = ajv.compile(schema);
  assert.equal(fn(value), false);
  return describeErrors(fn.errors ?? [], value);
};

const cases: Case[] = [
  {
    keyword: 'required',
    errors: scanner((o) => delete o.InputScannerReportingPriorities[0].StatusCode),
    pointer: '/InputScannerReportingPriorities/0',
    english: "must have required property 'StatusCode'",
    data: ['StatusCode'],
  },
  {
    keyword: 'type',
    errors: scanner((o) => (o.InputScannerReportingPriorities[1].Priority = 'high')),
    pointer: '/InputScannerReportingPriorities/1/Priority',
    english: 'must be integer',
    data: [],
  },
  {
    keyword: 'type',
    errors: () => {
      const o = fixture('person.update.json');
      o.Addresses[2].City = 1;
      return validate('person.schema.json', o);
    },
    pointer: '/Addresses/2/City',
    english: 'must be string or null',
    data: [],
  },
  {
    keyword: 'type',
    errors: scanner((o) => (o.InputScannerReportingPriorities[4].StatusCode = '1')),
    pointer: '/InputScannerReportingPriorities/4/StatusCode',
    english:
      'must be integer, one of 0 (Inactive, normal state of circuit), 1 (Active), 2 (Supervisory fault, ground fault), ' +
      '3 (Supervisory fault, shorted circuit), 4 (Supervisory fault, open circuit), 5 (Supervisory fault, foreign voltage), ' +
      '6 (Non-settling error, the typical NonSettlingErrorStatus)',
    data: ['0', '6'],
  },
  {
    keyword: 'enum',
    errors: scanner((o) => (o.InputScannerReportingPriorities[3].StatusCode = 9)),
    pointer: '/InputScannerReportingPriorities/3/StatusCode',
    english:
      'must be one of 0 (Inactive, normal state of circuit), 1 (Active), 2 (Supervisory fault, ground fault), ' +
      '3 (Supervisory fault, shorted circuit), 4 (Supervisory fault, open circuit), 5 (Supervisory fault, foreign voltage), ' +
      '6 (Non-settling error, the typical NonSettlingErrorStatus)',
    data: ['0', '6'],
  },
  {
    keyword: 'maxItems',
    errors: scanner((o) => o.InputScannerReportingPriorities.push(o.InputScannerReportingPriorities[0])),
    pointer: '/InputScannerReportingPriorities',
    english: 'must have exactly 8 items (has 9)',
    data: ['8', '9'],
  },
  {
    keyword: 'pattern',
    errors: scanner((o) => (o.$type = 'Feenics.Keep.WebApi.Model.FolderInfo, Feenics.Keep.WebApi.Model')),
    pointer: '/$type',
    english: '$type must name InputScannerInfo (<namespace>.InputScannerInfo, <assembly>)',
    data: [],
  },
  {
    keyword: 'pattern',
    errors: () => validate('faultRule.schema.json', { path: 'api', status: 500, count: 1 }),
    pointer: '/path',
    english: 'must match the pattern ^/',
    data: ['^/'],
  },
  {
    keyword: 'minimum',
    errors: () => validate('faultRule.schema.json', { path: '/api', status: 500, count: 0 }),
    pointer: '/count',
    english: 'must be 1 or more',
    data: ['1'],
  },
  {
    keyword: 'maximum',
    errors: () => validate('faultRule.schema.json', { path: '/api', status: 600, count: 1 }),
    pointer: '/status',
    english: 'must be 599 or less',
    data: ['599'],
  },
  {
    keyword: 'minLength',
    errors: () => validate('pushNotificationRequest.schema.json', { ...fixture('pushNotificationRequest.json'), PushNotificationType: '' }),
    pointer: '/PushNotificationType',
    english: 'must not be empty',
    data: [],
  },
  {
    keyword: 'format',
    errors: () => validate('inviteAddress.schema.json', 'someone at example.com'),
    pointer: '',
    english: 'must be an email address',
    data: [],
  },
  {
    keyword: 'errorMessage',
    errors: () => validate('pushNotificationRequest.schema.json', { ...fixture('pushNotificationRequest.json'), Message: null, MessageTemplateKey: null }),
    pointer: '',
    english: 'must set Message or MessageTemplateKey (at least one non-empty string)',
    data: [],
  },
  // Keywords our schemas do not use (yet): ajv on a small schema.
  {
    keyword: 'additionalProperties',
    errors: compiled({ type: 'object', additionalProperties: false }, { Colour: 'red' }),
    pointer: '',
    english: "must not have property 'Colour'",
    data: ['Colour'],
  },
  {
    keyword: 'const',
    errors: compiled({ properties: { Kind: { const: 'door' } } }, { Kind: 'gate' }),
    pointer: '/Kind',
    english: 'must be "door"',
    data: ['door'],
  },
  {
    keyword: 'uniqueItems',
    errors: compiled({ uniqueItems: true }, ['a', 'b', 'a']),
    pointer: '',
    english: 'must not hold the same item twice (items 0 and 2)',
    data: ['0', '2'],
  },
  { keyword: 'minItems', errors: compiled({ minItems: 2 }, ['a']), pointer: '', english: 'must have at least 2 items (has 1)', data: ['2', '1'] },
  { keyword: 'maxLength', errors: compiled({ maxLength: 3 }, 'door'), pointer: '', english: 'must be at most 3 characters long', data: ['3'] },
  { keyword: 'minLength', errors: compiled({ minLength: 3 }, 'ab'), pointer: '', english: 'must be at least 3 characters long', data: ['3'] },
  { keyword: 'exclusiveMinimum', errors: compiled({ exclusiveMinimum: 0 }, 0), pointer: '', english: 'must be more than 0', data: ['0'] },
  { keyword: 'exclusiveMaximum', errors: compiled({ exclusiveMaximum: 10 }, 10), pointer: '', english: 'must be less than 10', data: ['10'] },
  { keyword: 'multipleOf', errors: compiled({ multipleOf: 5 }, 7), pointer: '', english: 'must be a multiple of 5', data: ['5'] },
  { keyword: 'format', errors: compiled({ format: 'date' }, 'Tuesday'), pointer: '', english: 'must be in the date format', data: ['date'] },
];

/** Words of three letters or more, as English has them (the pseudo language writes none). */
const words = (text: string) => text.match(/[A-Za-z]{3,}/g) ?? [];

test('each keyword gives its message with the field and the value, in English by default', () => {
  for (const c of cases) {
    const errors = c.errors();
    assert.deepEqual(errors, [{ pointer: c.pointer, message: c.english, keyword: c.keyword }], c.keyword);
  }
});

test("in another language (the pseudo bundle from l10n/bundle.l10n.json) each keyword's words are translated, the field and the value kept", (t) => {
  const english = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
  useBundle(getL10nPseudoLocalized(english) as Record<string, string>);
  t.after(() => useBundle(undefined));
  for (const c of cases) {
    const [error] = c.errors();
    assert.equal(error.keyword, c.keyword);
    assert.notEqual(error.message, c.english, `${c.keyword}: translated`);
    for (const d of c.data) assert.ok(error.message.includes(d), `${c.keyword}: "${error.message}" holds ${d}`);
    const untranslated = words(error.message).filter((w) => !c.data.some((d) => d.includes(w)));
    assert.deepEqual(untranslated, [], `${c.keyword}: "${error.message}"`);
  }
  const lines = formatErrors([...cases[0].errors(), { pointer: '', message: 'x' }, { pointer: '/a', message: 'y' }], 2).split('\n');
  assert.equal(lines.length, 3);
  assert.match(lines[0], /^\/InputScannerReportingPriorities\/0: /);
  assert.deepEqual(words(lines[1]), [], `the root named in the language: ${lines[1]}`);
  assert.ok(lines[2].includes('1') && !words(lines[2]).length, `the rest counted in the language: ${lines[2]}`);
});

test("a keyword the validator does not know keeps ajv's own message", () => {
  const fn = ajv.compile({ contains: { const: 'door' } });
  assert.equal(fn(['gate']), false);
  const contains = (fn.errors ?? []).find((e) => e.keyword === 'contains')!;
  const described = describeErrors([contains], ['gate']);
  assert.deepEqual(described, [{ pointer: '', message: contains.message, keyword: 'contains' }]);
  assert.match(contains.message!, /must contain/);
});
