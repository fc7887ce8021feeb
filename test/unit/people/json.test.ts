import { test } from 'node:test';
import assert from 'node:assert/strict';

import { describeInvalid, invalidRows, PeopleFileError, readPeople, validRows } from '../../../src/people';
import { readPeopleCsv } from '../../../src/people/csv';
import { readPeopleJson } from '../../../src/people/json';
import { itemOffsets } from '../../../src/people/json';

const person = (name: string, extra: Record<string, unknown> = {}) => ({
  $type: 'Feenics.Keep.WebApi.Model.PersonInfo, Feenics.Keep.WebApi.Model',
  CommonName: name,
  GivenName: name,
  Surname: null,
  Addresses: [],
  CardAssignments: null,
  Key: null,
  Href: null,
  InFolderHref: null,
  InFolderKey: null,
  ...extra,
});

test('an array of PersonInfo: each item keeps the line it starts on', () => {
  const text = JSON.stringify([person('A'), person('B'), person('C')], null, 2);
  const file = readPeopleJson(text);
  assert.equal(file.format, 'json');
  assert.deepEqual(
    file.rows.map((r) => r.errors),
    [[], [], []],
  );
  const lines = text.split('\n');
  for (const r of file.rows) assert.equal(lines[r.line - 1].trim(), '{', `row ${r.index} at line ${r.line}`);
  assert.equal(file.rows[0].line, 2);
});

test('invalid items are reported by pointer and line', () => {
  const items = [
    person('ok'),
    { ...person('bad'), $type: 'X.Folder, Y' },
    person('mail', {
      Addresses: [
        {
          $type: 'Feenics.Keep.WebApi.Model.EmailAddressInfo, Feenics.Keep.WebApi.Model',
          MailTo: 'nope',
          IsPrivate: false,
          Type: 'Work',
          Key: null,
          Href: null,
        },
      ],
    }),
    42,
  ];
  const file = readPeopleJson(JSON.stringify(items, null, 2));
  assert.equal(validRows(file).length, 1);
  assert.match(file.rows[1].errors.join(), /^\/\$type \$type must name PersonInfo/);
  assert.match(file.rows[2].errors.join(), /\/Addresses\/0\/MailTo "nope": an e-mail address needs an @/);
  assert.match(file.rows[3].errors.join(), /\(item\) must be object/);
  assert.ok(file.rows[3].line > file.rows[2].line);
});

test('not JSON, not an array: the whole file is refused with a reason', () => {
  assert.throws(
    () => readPeopleJson('{"a": 1}'),
    (e: unknown) => e instanceof PeopleFileError && /expected a JSON array/.test(e.message),
  );
  assert.throws(
    () => readPeopleJson('[\n{"a": 1},\n{oops}\n]'),
    (e: unknown) => e instanceof PeopleFileError && /not valid JSON/.test(e.message) && /^line 3/.test(e.message),
  );
});

test('itemOffsets: strings with brackets and escapes, nested arrays, compact text', () => {
  const text = '[{"a":"]},[\\"x"},[1,[2]],"s,t" , 3]';
  const starts = itemOffsets(text);
  assert.deepEqual(
    starts.map((o) => text[o]),
    ['{', '[', '"', '3'],
  );
  assert.deepEqual(itemOffsets('[]'), []);
  assert.deepEqual(itemOffsets(' [ ] '), []);
});

test('a BOM is accepted; readPeople picks the format by name, then by content', () => {
  assert.equal(readPeopleJson('\uFEFF[]').rows.length, 0);
  assert.equal(readPeople('x.people.json', '[]').format, 'json');
  assert.equal(readPeople('x.CSV', 'Surname\nA\n').format, 'csv');
  assert.equal(readPeople('x.txt', '  [ ]').format, 'json');
  assert.equal(readPeople('x.txt', 'Surname\nA\n').format, 'csv');
});

test('a CSV row written out as JSON reads back identical and valid', () => {
  const csv = readPeopleCsv('Given Name,Surname,Email,Tags\nAda,Lovelace,ada@example.com,a;b\n');
  const back = readPeopleJson(JSON.stringify(csv.rows.map((r) => r.person)));
  assert.deepEqual(back.rows[0].person, csv.rows[0].person);
  assert.deepEqual(back.rows[0].errors, []);
});

test('items on one line are named by their number, not all "line 1"', () => {
  const file = readPeopleJson(JSON.stringify([person('A'), person('', { GivenName: '' }), person('C', { Addresses: 5 })]));
  assert.deepEqual(
    invalidRows(file).map((r) => r.place),
    ['item 2', 'item 3'],
  );
  assert.match(describeInvalid(invalidRows(file)), /^item 2: has no name/);
  const spread = readPeopleJson(JSON.stringify([person('A'), person('', { GivenName: '' })], null, 2));
  assert.match(invalidRows(spread)[0].place, /^item 2 \(line \d+\)$/);
});

test('$type may be left out, as in a CSV row; the person and address types are filled in', () => {
  const file = readPeopleJson(
    JSON.stringify([{ GivenName: 'Ada', Surname: 'Lovelace', Addresses: [{ MailTo: 'ada@example.com', Type: 'Work', IsPrivate: false }] }]),
  );
  assert.deepEqual(file.rows[0].errors, []);
  assert.match(String(file.rows[0].person.$type), /\.PersonInfo, /);
  assert.match(String(file.rows[0].person.Addresses![0].$type), /\.EmailAddressInfo, /);
  const wrong = readPeopleJson(JSON.stringify([{ $type: 'Nope', GivenName: 'Ada' }]));
  assert.equal(wrong.rows[0].errors.length > 0, true, 'a $type that is there is still checked');
});
