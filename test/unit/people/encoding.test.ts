/** A people file's bytes are read as they are meant, never into replacement characters. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NotUtf8Error, readPeople, validRows } from '../../../src/people';

// "José Müller, Montréal" as a spreadsheet saves it in Latin-1 (Windows-1252): é = 0xE9, ü = 0xFC.
const latin1 = Buffer.from('Given Name,Surname,City\nJosé,Müller,Montréal\n', 'latin1');

test('a Latin-1 CSV is refused with where and why, not read into replacement characters', () => {
  assert.throws(
    () => readPeople('staff.csv', latin1),
    (e: unknown) => {
      assert.ok(e instanceof NotUtf8Error);
      assert.equal(e.line, 2);
      assert.match(e.message, /line 2: not UTF-8 \(byte 0xE9\): choose the file's encoding, or save it as UTF-8/);
      return true;
    },
  );
});

test('read in the encoding the user chose, the names are as written', () => {
  const [row] = validRows(readPeople('staff.csv', latin1, { encoding: 'windows-1252' }));
  assert.equal(row.person.CommonName, 'José Müller');
  assert.equal((row.person.Addresses![0] as { City?: string }).City, 'Montréal');
});

test('UTF-8 with or without a BOM, and UTF-16 with a BOM, are read as they are', () => {
  const text = 'Given Name,Surname\nJosé,Müller\n';
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const be = Buffer.from(le.subarray(2)).swap16();
  const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
  for (const bytes of [Buffer.from(text), withBom, le, Buffer.concat([Buffer.from([0xfe, 0xff]), be])]) {
    assert.equal(validRows(readPeople('staff.csv', bytes))[0].person.CommonName, 'José Müller', bytes.subarray(0, 3).toString('hex'));
  }
});

test('a replacement character already in the file is refused: the service would store it', () => {
  assert.throws(() => readPeople('staff.csv', Buffer.from('Given Name,Surname\nJos\uFFFD,M\uFFFDller\n')), /line 2: holds the replacement character/);
  assert.throws(() => readPeople('staff.people.json', Buffer.from('[{"GivenName": "Jos\uFFFD"}]')), /replacement character/);
});
