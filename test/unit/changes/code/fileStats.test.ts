// The record of pulled files' stats (.oms/stats): it says which files need not be read, and it stays the
// size of the folder however many pulls and applies record into it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { FileStats, stampStats } from '../../../../src/changes/code/fileStats';

test('.oms/stats is written anew once mostly stale: a thousand rewrites of 10 files keep it near 10 lines, and every record still holds', async (t) => {
  const root = mkdtempSync(path.join(tmpdir(), 'oms-stats-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(path.join(root, '.oms'));
  const files = Array.from({ length: 10 }, (_, i) => `f${i}.json`);
  const lines = () =>
    readFileSync(path.join(root, '.oms', 'stats'), 'utf8')
      .split('\n')
      .filter(Boolean).length;
  let most = 0;
  for (let round = 0; round < 120; round++) {
    const stats = await new FileStats(root).load();
    for (const f of files) {
      writeFileSync(path.join(root, f), `{"round": ${round}}`.padEnd(20 + (round % 7)));
    }
    // Files written in the same tick of the clock as the stats file are read again anyway ("racily clean").
    if (round === 119) await new Promise((r) => setTimeout(r, 50));
    for (const f of files) stats.record(f, `hash-${round}`);
    stats.flush();
    most = Math.max(most, lines());
  }
  assert.ok(most <= 2 * files.length + 1000 + files.length, `the stats file reached ${most} lines for ${files.length} files`);
  assert.ok(lines() < 1000, `${lines()} lines after 1,200 records of 10 files`);
  const stats = await new FileStats(root).load();
  for (const f of files) assert.equal(stats.holds(f, 'hash-119'), true, `${f} is known by its stat`);
  assert.equal(stats.holds(files[0], 'hash-118'), false);
});

test('after stampStats, files written in the tick of the last record are known by their stats (not racily clean)', async (t) => {
  const root = mkdtempSync(path.join(tmpdir(), 'oms-stats-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(path.join(root, '.oms'));
  const stats = new FileStats(root);
  const files = Array.from({ length: 50 }, (_, i) => `f${i}.json`);
  for (const f of files) writeFileSync(path.join(root, f), '{}');
  for (const f of files) stats.record(f, 'h');
  stats.flush();
  await stampStats(root);
  const read = await new FileStats(root).load();
  assert.deepEqual(
    files.filter((f) => !read.holds(f, 'h')),
    [],
  );
});
