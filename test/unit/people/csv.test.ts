import { test } from 'node:test';
import assert from 'node:assert/strict';

import { invalidRows, PeopleFileError, readPeople, validRows } from '../../../src/people';
import { fieldOfHeader, readPeopleCsv } from '../../../src/people/csv';
import { validate } from '../../../src/validation/validator';
import type { EmailAddressInfo, MailingAddressInfo, PhoneInfo } from '../../../src/model/types';

const header = 'Given Name,Surname,E-mail,Phone,Street,City,Province,Country,Postal Code,Tags';

test('a full row becomes a PersonInfo that passes the person schema', () => {
  const file = readPeopleCsv(`${header}\nAda,Lovelace,ada@example.com,+1 613 555 0100,1 Bank St,Ottawa,ON,Canada,K1P 1A1,staff; night-shift;staff\n`);
  assert.equal(file.format, 'csv');
  assert.equal(file.rows.length, 1);
  const [row] = file.rows;
  assert.deepEqual(row.errors, []);
  assert.equal(row.line, 2);
  const p = row.person;
  assert.equal(p.CommonName, 'Ada Lovelace');
  assert.equal(p.GivenName, 'Ada');
  assert.equal(p.Surname, 'Lovelace');
  assert.deepEqual(p.Tags, ['staff', 'night-shift']);
  // What the server gives (keys, hrefs, its empty lists) is left out of what is sent.
  for (const field of ['Key', 'Href', 'InFolderKey', 'ConcurrencyVersion', 'Links', 'Notes', 'CardAssignments']) assert.ok(!(field in p), field);
  assert.match(p.$type, /\.PersonInfo, /);
  const [email, phone, mail] = p.Addresses as [EmailAddressInfo, PhoneInfo, MailingAddressInfo];
  assert.equal(email.MailTo, 'ada@example.com');
  assert.match(email.$type, /\.EmailAddressInfo, /);
  assert.equal(phone.Number, '+1 613 555 0100');
  assert.ok(!('Key' in phone) && !('Href' in phone));
  assert.deepEqual([mail.Street, mail.City, mail.Province, mail.Country, mail.PostalCode], ['1 Bank St', 'Ottawa', 'ON', 'Canada', 'K1P 1A1']);
  assert.deepEqual(validate('person.schema.json', p), []);
});

test('common header spellings are accepted case-insensitively', () => {
  for (const [h, field] of [
    ['FIRST NAME', 'givenName'],
    ['first_name', 'givenName'],
    ['Forename', 'givenName'],
    ['Last Name', 'surname'],
    ['family-name', 'surname'],
    ['SURNAME', 'surname'],
    ['Email Address', 'email'],
    ['e-mail', 'email'],
    ['Mail', 'email'],
    ['Phone Number', 'phone'],
    ['Telephone', 'phone'],
    ['Mobile', 'phone'],
    ['Street Address', 'street'],
    ['Town', 'city'],
    ['State', 'province'],
    ['Province/State', 'province'],
    ['Zip', 'postalCode'],
    ['Postcode', 'postalCode'],
    ['ZIP Code', 'postalCode'],
    ['Country', 'country'],
    ['tag', 'tags'],
  ] as const) {
    assert.equal(fieldOfHeader(h), field, h);
  }
  assert.equal(fieldOfHeader('Employee Id'), undefined);
  const spelled = readPeopleCsv(
    'FIRST_NAME,last-name,EMAIL ADDRESS,Telephone,ZIP,State,Town,Address,tag\nGrace,Hopper,grace@navy.mil,555,20001,DC,Washington,1 Navy Way,a;b\n',
  );
  const p = spelled.rows[0].person;
  assert.deepEqual(spelled.rows[0].errors, []);
  assert.equal(p.GivenName, 'Grace');
  assert.equal(p.Surname, 'Hopper');
  const mail = p.Addresses!.find((a) => a.$type.includes('Mailing')) as MailingAddressInfo;
  assert.deepEqual([mail.Street, mail.City, mail.Province, mail.PostalCode, mail.Country], ['1 Navy Way', 'Washington', 'DC', '20001', undefined]);
  assert.ok(!('Country' in mail), 'an empty column is left out, not sent as null');
  assert.deepEqual(p.Tags, ['a', 'b']);
});

test('unknown columns are ignored and named in a note', () => {
  const file = readPeopleCsv('Given Name,Surname,Employee Id,Badge\nA,B,12,x\n');
  assert.deepEqual(file.notes, ['Ignored columns: Employee Id, Badge']);
  assert.deepEqual(file.rows[0].errors, []);
});

test('BOM, CRLF, quoted commas, quotes and line breaks inside fields', () => {
  const text =
    '\uFEFFGiven Name,Surname,Street,City,Tags\r\n' + '"Anne-Marie","O\'Neil, Jr.","12 ""Main"" St\r\nUnit 4",Montréal,"a;b"\r\n' + 'Bob,Smith,,Ottawa,\r\n';
  const file = readPeopleCsv(text);
  assert.equal(file.rows.length, 2);
  const [a, b] = file.rows;
  assert.deepEqual(a.errors, []);
  assert.equal(a.person.GivenName, 'Anne-Marie');
  assert.equal(a.person.Surname, "O'Neil, Jr.");
  assert.equal((a.person.Addresses![0] as MailingAddressInfo).Street, '12 "Main" St\r\nUnit 4');
  assert.equal((a.person.Addresses![0] as MailingAddressInfo).City, 'Montréal');
  assert.equal(a.line, 2);
  // The quoted line break makes the first record span lines 2-3.
  assert.equal(b.line, 4);
  assert.deepEqual(b.errors, []);
});

test('a file without quotes (split directly) reads as the same file read by csv-parse', () => {
  for (const eol of ['\n', '\r\n', '\r']) {
    const lines = [
      '\uFEFFGiven Name,Surname,E-mail,City,Tags',
      'Ada,Lovelace,ada@example.com,,a;b',
      '',
      ',,,,',
      'Bob,Smith,bad,Ottawa,',
      'Too,Few',
      ' Chloé , Müller ,c@example.org,Lyon,x',
    ];
    for (const text of [lines.join(eol), lines.join(eol) + eol]) {
      // One quoted field sends the same content through csv-parse.
      const quoted = text.replace('Lovelace', '"Lovelace"');
      assert.deepEqual(readPeopleCsv(text), readPeopleCsv(quoted), JSON.stringify(eol));
    }
  }
  const rows = readPeopleCsv('Given Name,Surname\n\nA,B\n').rows;
  assert.deepEqual(
    rows.map((r) => [r.line, r.person.CommonName]),
    [[3, 'A B']],
  );
});

test('bytes are read as UTF-8 (accents survive)', () => {
  const bytes = new TextEncoder().encode('Given Name,Surname\nChloé,Müller\n');
  assert.equal(readPeopleCsv(bytes).rows[0].person.CommonName, 'Chloé Müller');
});

test('invalid rows are reported with their line numbers, valid ones kept, none dropped', () => {
  const text = [
    header,
    'Ada,Lovelace,ada@example.com,,,,,,,',
    'Bad,Mail,not-an-email,,,,,,,',
    '',
    ',,,,,,,,,staff',
    'Too,Many,x@y.org,,,,,,,,extra',
    'Too,Few',
    'Alan,Turing,alan@example.org,,,,,,,',
  ].join('\n');
  const file = readPeopleCsv(text);
  assert.equal(file.rows.length, 6);
  assert.deepEqual(
    validRows(file).map((r) => r.line),
    [2, 8],
  );
  const invalid = invalidRows(file);
  assert.deepEqual(
    invalid.map((r) => r.line),
    [3, 5, 6, 7],
  );
  assert.match(invalid[0].errors.join(), /^e-mail "not-an-email": an e-mail address needs an @/);
  assert.match(invalid[1].errors.join(), /has no name/);
  assert.match(invalid[2].errors.join(), /has 11 fields, the header has 10/);
  assert.match(invalid[3].errors.join(), /has 2 fields, the header has 10/);
  // Index counts people in file order, valid or not.
  assert.deepEqual(
    file.rows.map((r) => r.index),
    [0, 1, 2, 3, 4, 5],
  );
});

test('e-mail problems are named precisely', () => {
  const rows = readPeopleCsv('Surname,Email\nA,a@b\nB,a@@b.com\nC,a b@c.com\nD,a@b.co\n').rows;
  assert.deepEqual(
    rows.map((r) => r.errors.length),
    [1, 1, 1, 0],
  );
  assert.match(rows[0].errors[0], /not a full domain/);
  assert.match(rows[1].errors[0], /one @/);
  assert.match(rows[2].errors[0], /no spaces/);
});

test('a file without a name column, an empty file, a duplicate column are refused as a whole', () => {
  assert.throws(
    () => readPeopleCsv('Email,Phone\na@b.com,1\n'),
    (e: unknown) => e instanceof PeopleFileError && /no given name, surname or name column/.test(e.message),
  );
  assert.throws(() => readPeopleCsv(''), /empty/);
  assert.throws(() => readPeopleCsv('\n\n'), /empty/);
  assert.throws(() => readPeopleCsv('First Name,Given Name\na,b\n'), /both give the given name/);
  assert.throws(
    () => readPeopleCsv('Given Name,Surname\n"unterminated,x\n'),
    (e: unknown) => e instanceof PeopleFileError && /not readable as CSV/.test(e.message),
  );
});

test('a header only gives no rows', () => {
  assert.deepEqual(readPeopleCsv('Given Name,Surname\n').rows, []);
});

test('rows with an e-mail address an earlier row has are flagged, not sent as more identical people', () => {
  const file = readPeople(
    'staff.csv',
    'Given Name,Surname,Email\nAda,Lovelace,ada@example.com\nAda,Lovelace,ada@example.com\nAda,Lovelace,ADA@example.com \nBob,Byte,bob@example.com\n',
  );
  assert.deepEqual(
    validRows(file).map((r) => r.line),
    [2, 5],
  );
  assert.deepEqual(
    invalidRows(file).map((r) => r.errors),
    [['same e-mail address as line 2 (ada@example.com): one person per address'], ['same e-mail address as line 2 (ADA@example.com): one person per address']],
  );
});

test('blank rows are counted and said, not dropped from the counts in silence', () => {
  const text = 'Given Name,Surname\nAda,Lovelace\n\n,\nBob,Byte\n   \n';
  for (const t of [text, text.replace('Bob', '"Bob"')]) {
    // the plain path and csv-parse's
    const file = readPeopleCsv(t);
    assert.equal(file.rows.length, 2);
    assert.deepEqual(file.blankLines, [3, 4, 6], t);
    assert.deepEqual(file.notes, ['3 blank rows skipped (lines 3, 4, 6)']);
  }
  assert.deepEqual(readPeopleCsv('Given Name,Surname\nAda,Lovelace\n').notes, [], 'the end of the last line is no blank row');
});
