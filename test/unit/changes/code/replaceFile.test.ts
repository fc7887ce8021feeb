/**
 * An object file put in place by an apply or a merge is replaced whole (written beside it, then renamed over
 * it): what a killed process leaves is the old file or the new one, never one cut short; a link in its place
 * is replaced, not written through.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { replaceNoFollow } from '../../../../src/changes/code/safePaths';

function folder(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'oms-replace-'));
}

test('a file replaced holds the new text, and nothing else is left beside it', () => {
  const dir = folder();
  const file = path.join(dir, 'a.json');
  fs.writeFileSync(file, '{"old": true}\n');
  replaceNoFollow(file, '{"new": true}\n');
  assert.equal(fs.readFileSync(file, 'utf8'), '{"new": true}\n');
  assert.deepEqual(fs.readdirSync(dir), ['a.json']);
});

test('a link in the file’s place is replaced by the file; what it pointed at is untouched', () => {
  const dir = folder();
  const outside = path.join(folder(), 'outside.json');
  fs.writeFileSync(outside, 'theirs\n');
  const file = path.join(dir, 'a.json');
  fs.symlinkSync(outside, file);
  replaceNoFollow(file, 'ours\n');
  assert.equal(fs.readFileSync(outside, 'utf8'), 'theirs\n');
  assert.ok(fs.lstatSync(file).isFile(), 'a regular file now');
  assert.equal(fs.readFileSync(file, 'utf8'), 'ours\n');
});
