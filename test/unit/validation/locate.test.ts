import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { locate, locateNearest } from '../../../src/validation/locate';
import { validate } from '../../../src/validation/validator';
import { fixturesDir } from './helpers';

function textAt(text: string, pointer: string): string | undefined {
  const r = locate(text, pointer);
  return r && text.slice(r.offset, r.offset + r.length);
}

const doc = `{
  "$type": "Ns.InputScannerInfo, Ns",
  "Tags": ["a", "b/c"],
  "a/b": { "m~n": 1 },
  "Nested": { "List": [ { "x": -1.5e3 }, [true, false, null] ] },
  "Empty": {},
  "Str": "with \\"quotes\\" and \\u00e9"
}`;

test('the root is the whole document (without surrounding whitespace)', () => {
  assert.equal(textAt(`  ${doc}\n`, ''), doc);
});

test('members, array items and nested values', () => {
  assert.equal(textAt(doc, '/$type'), '"Ns.InputScannerInfo, Ns"');
  assert.equal(textAt(doc, '/Tags'), '["a", "b/c"]');
  assert.equal(textAt(doc, '/Tags/1'), '"b/c"');
  assert.equal(textAt(doc, '/Nested/List/0/x'), '-1.5e3');
  assert.equal(textAt(doc, '/Nested/List/1/2'), 'null');
  assert.equal(textAt(doc, '/Empty'), '{}');
  assert.equal(textAt(doc, '/Str'), '"with \\"quotes\\" and \\u00e9"');
});

test('escaped pointer segments (~1 for /, ~0 for ~)', () => {
  assert.equal(textAt(doc, '/a~1b/m~0n'), '1');
});

test('missing paths and bad pointers give undefined', () => {
  assert.equal(locate(doc, '/Nope'), undefined);
  assert.equal(locate(doc, '/Tags/2'), undefined);
  assert.equal(locate(doc, '/Tags/x'), undefined);
  assert.equal(locate(doc, '/Tags/01'), undefined);
  assert.equal(locate(doc, '/$type/0'), undefined);
  assert.equal(locate(doc, 'Tags'), undefined);
});

test('unreadable text gives undefined instead of throwing', () => {
  assert.equal(locate('{"a": ', '/a'), undefined);
  assert.equal(locate('{"a": 1} x', '/a'), undefined);
  assert.equal(locate('{"a": tru}', '/a'), undefined);
  assert.equal(locate('', ''), undefined);
});

test('comments and trailing commas are tolerated, as in the VS Code editor', () => {
  const text = '{\n  // a comment\n  "a": [1, 2,], /* block */ "b": 3,\n}';
  assert.equal(textAt(text, '/a/1'), '2');
  assert.equal(textAt(text, '/b'), '3');
});

test('the last of duplicate keys wins, as in JSON.parse', () => {
  const text = '{"a": 1, "a": [2]}';
  assert.equal(textAt(text, '/a'), '[2]');
  assert.equal(textAt(text, '/a/0'), '2');
});

test('locateNearest falls back to the deepest existing ancestor', () => {
  const near = locateNearest(doc, '/Nested/List/0/missing')!;
  assert.equal(near.pointer, '/Nested/List/0');
  assert.equal(doc.slice(near.offset, near.offset + near.length), '{ "x": -1.5e3 }');
  assert.equal(locateNearest(doc, '/Tags/0')!.pointer, '/Tags/0');
  assert.equal(locateNearest('not json', '/a'), undefined);
});

test('every error pointer of a broken document locates to the offending value', () => {
  const text = readFileSync(join(fixturesDir, 'inputScanner.update.json'), 'utf8')
    .replace('"StatusCode": 0', '"StatusCode": 9')
    .replace('"Tags": [\n    "north"', '"Tags": [\n    7');
  const errors = validate('inputScanner.schema.json', JSON.parse(text));
  assert.deepEqual(
    errors.map((e) => e.pointer),
    ['/InputScannerReportingPriorities/2/StatusCode', '/Tags/0'],
  );
  assert.equal(textAt(text, errors[0].pointer), '9');
  assert.equal(textAt(text, errors[1].pointer), '7');
});
