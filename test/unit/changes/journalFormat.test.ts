/**
 * The run journal's format (docs/journal.md): a journal written by an older version is still read,
 * one written by a newer version is refused with a message that says so, and a run's header names
 * the service it ran on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunJournal } from '../../../src/changes/runJournal';

const line = (o: unknown) => JSON.stringify(o) + '\n';
const entry = { id: 'k1', label: 'Door 1', kind: 'inputScanner', folderKey: 'f', key: 'k1', op: 'update', outcome: 'applied', afterVersion: 2 };

test('a format 3 journal (before the service was named) is read; a newer format is refused clearly, not called damaged', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'oms-journal-format-'));
  const header = { runId: '20261207t030000000z-aaaaaa', title: 'Tag', connectionId: 'c1', startedAt: '2026-12-07T03:00:00.000Z', total: 1 };
  await writeFile(join(dir, `${header.runId}.jsonl`), line({ format: 3, ...header }) + line(entry) + line({ summary: { applied: 1 } }));
  const newer = { ...header, runId: '20261207t040000000z-bbbbbb' };
  await writeFile(join(dir, `${newer.runId}.jsonl`), line({ format: 5, ...newer }) + line(entry));
  const journal = new RunJournal(dir);

  const old = await journal.read(header.runId);
  assert.equal(old.header.format, 3);
  assert.deepEqual(
    old.entries.map((e) => [e.id, e.outcome]),
    [['k1', 'applied']],
  );
  await assert.rejects(journal.read(newer.runId), (e: Error) => /recorded by a newer version \(journal format 5; this version reads up to 4\)/.test(e.message));
  assert.deepEqual(
    (await journal.runs()).map((r) => r.header.runId),
    [header.runId],
    'the newer run is not listed as if it were readable',
  );

  const writer = await journal.begin({ title: 'New', connectionId: 'cli', url: 'http://127.0.0.1:1', total: 0 });
  await writer.close();
  const made = await journal.read(writer.header.runId);
  assert.equal(made.header.format, 4);
  assert.equal(made.header.url, 'http://127.0.0.1:1');
});
