/** Save history on disk: newest first, bounded, owner-only, safe under concurrent saves. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HistoryEntry, maxEntries, maxEntryBytes, SaveHistory } from '../../../src/save/history';
import { newObject } from '../../../src/model/templates';
import { kind } from '../../../src/model/kinds';

const entry = (key: string, version: number, extra: Record<string, unknown> = {}): HistoryEntry => ({
  savedAt: new Date(2026, 0, 1, 0, 0, version).toISOString(),
  kind: 'engageSite',
  folderKey: 'f',
  key,
  object: { ...newObject(kind('engageSite'), `v${version}`), Key: key, ConcurrencyVersion: version, ...extra },
});

test('entries per object, newest first, in a file only its owner can read', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'oms-history-'));
  const history = new SaveHistory(dir);
  await history.record('conn', entry('a', 1));
  await history.record('conn', entry('b', 1));
  await history.record('conn', entry('a', 2));
  assert.deepEqual(
    (await history.list('conn', 'a')).map((e) => e.object.ConcurrencyVersion),
    [2, 1],
  );
  assert.deepEqual(await history.list('other', 'a'), [], 'per connection');
  const [file] = await readdir(dir);
  assert.equal((await stat(join(dir, file))).mode & 0o777, 0o600);
});

test('bounded in count and size; concurrent records all land', async () => {
  const history = new SaveHistory(await mkdtemp(join(tmpdir(), 'oms-history-')));
  await Promise.all(Array.from({ length: maxEntries + 10 }, (_, i) => history.record('conn', entry('a', i))));
  const kept = await history.list('conn', 'a');
  assert.equal(kept.length, maxEntries);
  assert.equal(kept[0].object.ConcurrencyVersion, maxEntries + 9, 'the newest kept');
  await history.record('conn', entry('big', 1, { Blob: 'x'.repeat(maxEntryBytes) }));
  assert.deepEqual(await history.list('conn', 'big'), [], 'an object larger than the bound is not recorded');
});
