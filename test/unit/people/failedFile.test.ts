import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { readPeople, validRows, writeFailedFile } from '../../../src/people';
import { readPeopleCsv } from '../../../src/people/csv';
import { failedFileName, fileTimestamp } from '../../../src/people/failedFile';
import { validate } from '../../../src/validation/validator';

const when = new Date('2024-01-31T15:45:02.123Z');

test('names: next to the input, timestamped, no growing chain when fed back', () => {
  assert.equal(fileTimestamp(when), '20240131T154502Z');
  assert.equal(failedFileName('/d/people.csv', when), 'people.failed-20240131T154502Z.people.json');
  assert.equal(failedFileName('staff.json', when), 'staff.failed-20240131T154502Z.people.json');
  assert.equal(failedFileName('staff.people.json', when), 'staff.failed-20240131T154502Z.people.json');
  assert.equal(failedFileName('people.failed-20230101T000000Z.people.json', when), 'people.failed-20240131T154502Z.people.json');
  assert.equal(failedFileName('people.failed-20230101T000000Z-2.people.json', when), 'people.failed-20240131T154502Z.people.json');
  assert.equal(failedFileName('.csv', when), 'people.failed-20240131T154502Z.people.json');
});

test('round trip: failed items written as JSON read back as the same valid people', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'oms-failed-'));
  try {
    const input = join(dir, 'staff.csv');
    const csv =
      'First Name,Last Name,E-mail,Phone,City,Tags\n' +
      Array.from({ length: 5 }, (_, i) => `P${i},Q${i},p${i}@example.com,555-010${i},Ottawa,t${i};all`).join('\n') +
      '\n';
    writeFileSync(input, csv);
    const people = validRows(readPeopleCsv(readFileSync(input))).map((r) => r.person);
    const failed = people.slice(1, 4);
    const file = await writeFailedFile(input, failed, when);
    assert.equal(file, join(dir, 'staff.failed-20240131T154502Z.people.json'));
    const text = readFileSync(file, 'utf8');
    assert.deepEqual(validate('peopleBatch.schema.json', JSON.parse(text)), []);
    const back = readPeople(file, readFileSync(file));
    assert.equal(back.format, 'json');
    assert.deepEqual(
      back.rows.map((r) => r.person),
      failed,
    );
    assert.deepEqual(
      back.rows.map((r) => r.errors),
      [[], [], []],
    );

    // The same second again: a new name, the first file untouched.
    const second = await writeFailedFile(input, people.slice(0, 1), when);
    assert.equal(second, join(dir, 'staff.failed-20240131T154502Z-2.people.json'));
    assert.equal(readFileSync(file, 'utf8'), text);
    // Feeding the failed file back names the next one after the original input.
    const third = await writeFailedFile(file, failed, new Date('2024-02-01T00:00:00Z'));
    assert.equal(third, join(dir, 'staff.failed-20240201T000000Z.people.json'));
    assert.equal(readdirSync(dir).length, 4);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('invalid rows written out keep what the user typed, and are reported again when fed back', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'oms-failed-'));
  try {
    const file = readPeopleCsv('Surname,Email\nA,a@example.com\nB,broken\n');
    const bad = file.rows.filter((r) => r.errors.length).map((r) => r.person);
    const written = await writeFailedFile(join(dir, 'x.csv'), bad, when);
    const back = readPeople(written, readFileSync(written, 'utf8'));
    assert.equal(back.rows.length, 1);
    assert.match(back.rows[0].errors.join(), /\/Addresses\/0\/MailTo "broken"/);
    assert.equal(back.rows[0].line, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
