/** The run journal: private files, entries as the run reports them, a 10,000-object run, a cut-short line, pruning. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, stat, appendFile, writeFile, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keptRuns, RunJournal, RunWriter } from '../../../src/changes/runJournal';
import type { Change, ChangeResult } from '../../../src/changes/executor';
import { kind } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';

const scannerKind = kind('inputScanner');
const change = (i: number): Change => ({ id: `k${i}`, label: `Door ${i}`, kind: scannerKind, folderKey: 'f', key: `k${i}`, op: 'update', build: () => ({ skip: '' }) });
const applied = (i: number): ChangeResult => ({
  id: `k${i}`, label: `Door ${i}`, outcome: 'applied',
  before: { ...newObject(scannerKind, `Door ${i}`), Key: `k${i}`, ConcurrencyVersion: 3 },
  after: { ...newObject(scannerKind, `Door ${i}`), Key: `k${i}`, ConcurrencyVersion: 4 },
});

async function journalDir(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'oms-runs-')), 'runs');
}

test('a run is journalled privately: folder 0700, file 0600; each entry keeps the object before and the version after', async () => {
  const dir = await journalDir();
  const journal = new RunJournal(dir);
  const writer = await journal.begin({ title: 'Bulk edit: set NonSettlingErrorPriority = 2', connectionId: 'c1', total: 2 });
  await writer.record(change(1), applied(1));
  await writer.record(change(2), { id: 'k2', label: 'Door 2', outcome: 'failed', reason: '500: Injected fault' });
  await writer.close();
  assert.equal((await stat(dir)).mode & 0o777, 0o700);
  const [file] = await readdir(dir);
  assert.equal((await stat(join(dir, file))).mode & 0o777, 0o600);

  const run = await journal.read(writer.header.runId);
  assert.equal(run.header.title, 'Bulk edit: set NonSettlingErrorPriority = 2');
  assert.deepEqual(run.entries.map((e) => [e.key, e.outcome, e.before?.ConcurrencyVersion, e.afterVersion, e.reason]), [
    ['k1', 'applied', 3, 4, undefined],
    ['k2', 'failed', undefined, undefined, '500: Injected fault'],
  ]);
  const [summary] = await journal.runs('c1');
  assert.deepEqual(summary.counts, { applied: 1, failed: 1 });
  assert.deepEqual(await journal.runs('other connection'), []);
});

test('a 10,000-object run fits and reads back whole', async () => {
  const journal = new RunJournal(await journalDir());
  const writer = await journal.begin({ title: 'big', connectionId: 'c', total: 10_000 });
  await Promise.all(Array.from({ length: 10_000 }, (_, i) => writer.record(change(i), applied(i))));
  await writer.close();
  const run = await journal.read(writer.header.runId);
  assert.equal(run.entries.length, 10_000);
  assert.equal(run.entries[9_999].key, 'k9999', 'in the order the run reported them');
});

test('a line cut short (the window closed mid-write) ends the journal; what came before stands', async () => {
  const dir = await journalDir();
  const journal = new RunJournal(dir);
  const writer = await journal.begin({ title: 't', connectionId: 'c', total: 3 });
  await writer.record(change(1), applied(1));
  await writer.close();
  await appendFile(join(dir, `${writer.header.runId}.jsonl`), '{"id":"k2","lab');
  assert.deepEqual((await journal.read(writer.header.runId)).entries.map((e) => e.key), ['k1']);
});

test(`only the newest ${keptRuns} runs are kept`, async () => {
  const dir = await journalDir();
  const journal = new RunJournal(dir);
  const ids: string[] = [];
  for (let i = 0; i < keptRuns + 3; i++) {
    const w = await journal.begin({ title: `run ${i}`, connectionId: 'c', total: 0 });
    await w.close();
    ids.push(w.header.runId);
  }
  const kept = (await journal.runs()).map((r) => r.header.runId);
  assert.equal(kept.length, keptRuns);
  assert.equal(kept[0], ids.at(-1), 'newest first');
  assert.ok(!kept.includes(ids[0]));
});

test('a line queued as a flush ends (in the same turn) is written before its promise resolves, not left for a later line', async () => {
  const written: string[] = [];
  let release!: () => void;
  let late: Promise<void> | undefined;
  const file = {
    appendFile(text: string) {
      written.push(text);
      const landed = new Promise<void>((r) => (release = r));
      // Reacts to the same write as the flush, after the flush's own continuation: as the executor's other objects do.
      queueMicrotask(() => void landed.then(() => (late = writer.line({ n: 'b' }))));
      return landed;
    },
    datasync: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  const writer = new RunWriter({ format: 1, runId: 'r', startedAt: '', title: 't', connectionId: 'c', total: 2 }, file as unknown as FileHandle);
  const first = writer.line({ n: 'a' });
  await new Promise((r) => setTimeout(r, 10));
  release();
  await first;
  await new Promise((r) => setTimeout(r, 10));
  release();
  await late;
  assert.equal(written.join(''), '{"n":"a"}\n{"n":"b"}\n');
});

test('the journal keeps no derived field of an object (links, notes, addresses): a 10,000-scanner run stays under 9.5 KB an object (four copies: before and sent, before and after)', async () => {
  const dir = await journalDir();
  const writer = await new RunJournal(dir).begin({ title: 't', connectionId: 'c', total: 10_000 });
  const links = [{ Relation: 'Meta', Anchor: { Href: 'meta', Text: 'Meta' } }, { Relation: 'Images', Anchor: { Href: 'images', Text: 'Images' } }];
  const served = (i: number, v: number) => ({
    ...newObject(scannerKind, `Door ${i}`), Key: `k${i}`, ConcurrencyVersion: v, Href: `/api/f/f/inputscanners/k${i}`, InFolderHref: '/api/f/f', Links: Array(10).fill(links).flat(),
  });
  for (let i = 0; i < 10_000; i++) {
    await writer.intent(change(i), served(i, 3), served(i, 3));
    await writer.record(change(i), { id: `k${i}`, label: `Door ${i}`, outcome: 'applied', before: served(i, 3), after: served(i, 4) });
  }
  await writer.close();
  const [name] = await readdir(dir);
  const perObject = (await stat(join(dir, name))).size / 10_000;
  assert.ok(perObject < 9500, `${perObject.toFixed(0)} bytes an object`);
  const { entries } = await new RunJournal(dir).read(writer.header.runId);
  assert.equal(entries[0].before?.ConcurrencyVersion, 3);
  assert.equal(entries[0].before?.Links, undefined);
});

test('the list of runs reads an ended run\'s first and last lines only (its counts), and counts a run that died from all its lines', async () => {
  const journal = new RunJournal(await journalDir());
  const ended = await journal.begin({ title: 'ended', connectionId: 'c1', total: 3 });
  await ended.record(change(1), applied(1));
  await ended.intent(change(2), { CommonName: 'Door 2' });
  await ended.record(change(2), { id: 'k2', label: 'Door 2', outcome: 'failed', reason: '500' });
  await ended.intent(change(3), { CommonName: 'Door 3' }); // no answer came
  await ended.close();
  const died = await journal.begin({ title: 'died', connectionId: 'c1', total: 2 });
  await died.record(change(1), applied(1));
  await died.intent(change(2), { CommonName: 'Door 2' });
  // The ended run's middle damaged: its summary does not read it; reading the run whole says so.
  const dir = (journal as unknown as { dir: string }).dir;
  const file = join(dir, `${ended.header.runId}.jsonl`);
  const lines = (await readFile(file, 'utf8')).split('\n');
  lines.splice(2, 0, '{"damaged": true}');
  await writeFile(file, lines.join('\n'));
  const runs = await journal.runs('c1');
  assert.deepEqual(runs.map((r) => [r.header.title, r.counts]), [
    ['died', { applied: 1, unknown: 1 }],
    ['ended', { applied: 1, failed: 1, unknown: 1 }],
  ]);
  await assert.rejects(journal.read(ended.header.runId), /damaged at line 3/);
  // A last line that is not counts (or holds nonsense) is no summary: the run is read whole.
  await appendFile(join(dir, `${died.header.runId}.jsonl`), '{"summary": {"applied": -1}}\n');
  assert.deepEqual((await journal.runs('c1'))[0].counts, { applied: 1, unknown: 1 });
});
