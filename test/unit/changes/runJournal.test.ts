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
const change = (i: number): Change => ({
  id: `k${i}`,
  label: `Door ${i}`,
  kind: scannerKind,
  folderKey: 'f',
  key: `k${i}`,
  op: 'update',
  build: () => ({ skip: '' }),
});
const applied = (i: number): ChangeResult => ({
  id: `k${i}`,
  label: `Door ${i}`,
  outcome: 'applied',
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
  assert.deepEqual(
    run.entries.map((e) => [e.key, e.outcome, e.before?.ConcurrencyVersion, e.afterVersion, e.reason]),
    [
      ['k1', 'applied', 3, 4, undefined],
      ['k2', 'failed', undefined, undefined, '500: Injected fault'],
    ],
  );
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
  assert.deepEqual(
    (await journal.read(writer.header.runId)).entries.map((e) => e.key),
    ['k1'],
  );
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

test('beyond the newest 5 runs, older ones are kept only while all of them fit the budget', async () => {
  const dir = await journalDir();
  const journal = new RunJournal(dir, 50_000);
  const ids: string[] = [];
  for (let i = 0; i < 8; i++) {
    const w = await journal.begin({ title: `run ${i}`, connectionId: 'c', total: 2 });
    // About 9 KB a run: the budget holds five of the eight.
    for (let k = 0; k < 2; k++) await w.record(change(k), applied(k));
    await w.close();
    ids.push(w.header.runId);
  }
  const sizes = await Promise.all(ids.map(async (id) => (await stat(join(dir, `${id}.jsonl`)).catch(() => undefined))?.size ?? 0));
  const kept = (await journal.runs()).map((r) => r.header.runId);
  assert.ok(kept.length > 5 && kept.length < 8, `${kept.length} kept of 8 (sizes ${sizes.join(', ')})`);
  assert.deepEqual(kept, ids.slice(-kept.length).reverse(), 'the newest, newest first');
  assert.ok(
    sizes.slice(-kept.length, -1).reduce((a, b) => a + b, 0) <= 50_000,
    `the runs before the newest within the budget: ${sizes.join(', ')}; ${kept.length} kept`,
  );

  const tiny = new RunJournal(dir, 1);
  await (await tiny.begin({ title: 'one more', connectionId: 'c', total: 0 })).close();
  assert.equal((await tiny.runs()).length, 5, 'the newest 5 whatever their size');
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

test(
  'the journal keeps no derived field of an object (links, notes, addresses), and nothing twice: ' +
    'a 10,000-scanner run adding a tag stays under 3 KB an object (one copy, before, and the field sent)',
  async () => {
    const dir = await journalDir();
    const writer = await new RunJournal(dir).begin({ title: 't', connectionId: 'c', total: 10_000 });
    const links = [
      { Relation: 'Meta', Anchor: { Href: 'meta', Text: 'Meta' } },
      { Relation: 'Images', Anchor: { Href: 'images', Text: 'Images' } },
    ];
    const served = (i: number, v: number) => ({
      ...newObject(scannerKind, `Door ${i}`),
      Key: `k${i}`,
      ConcurrencyVersion: v,
      Href: `/api/f/f/inputscanners/k${i}`,
      InFolderHref: '/api/f/f',
      Links: Array(10).fill(links).flat(),
    });
    for (let i = 0; i < 10_000; i++) {
      const tagged = (v: number) => ({ ...served(i, v), Tags: ['x'] });
      await writer.intent(change(i), tagged(3), served(i, 3));
      await writer.record(change(i), { id: `k${i}`, label: `Door ${i}`, outcome: 'applied', before: served(i, 3), after: tagged(4) });
    }
    await writer.close();
    const [name] = await readdir(dir);
    const perObject = (await stat(join(dir, name))).size / 10_000;
    assert.ok(perObject < 3000, `${perObject.toFixed(0)} bytes an object`);
    const { entries } = await new RunJournal(dir).read(writer.header.runId);
    assert.equal(entries[0].before?.ConcurrencyVersion, 3);
    assert.equal(entries[0].before?.Links, undefined);
    assert.equal(entries[0].after?.ConcurrencyVersion, 4);
    assert.equal(entries[0].after?.CommonName, 'Door 0');
    assert.deepEqual(entries[0].after?.Tags, ['x']);
  },
);

test('a write never answered reads back with what was sent exactly: a field changed, one set to null, one left out', async () => {
  const dir = await journalDir();
  const writer = await new RunJournal(dir).begin({ title: 't', connectionId: 'c', total: 1 });
  const live = { ...newObject(scannerKind, 'Door 0'), Key: 'k0', ConcurrencyVersion: 3, Description: 'old', Tags: ['a'] };
  const { Tags: _left, ...sent } = { ...live, CommonName: 'Door zero', Description: null };
  await writer.intent(change(0), sent, live);
  await writer.close();
  const { entries } = await new RunJournal(dir).read(writer.header.runId);
  const { before, sent: read } = entries[0];
  assert.equal(entries[0].outcome, 'unknown');
  assert.deepEqual([before?.Description, before?.Tags], ['old', ['a']]);
  const { Tags: _gone, ...kept } = before!;
  assert.deepEqual(read, { ...kept, CommonName: 'Door zero', Description: null });
  assert.ok(read && !('Tags' in read));
});

test('an outcome reads back whole: before and after from its last intent if the same, written out if not (the server changed more than was sent)', async () => {
  const dir = await journalDir();
  const writer = await new RunJournal(dir).begin({ title: 't', connectionId: 'c', total: 2 });
  const object = (i: number, v: number, more: object = {}) => ({ ...newObject(scannerKind, `Door ${i}`), Key: `k${i}`, ConcurrencyVersion: v, ...more });
  // k0: tried twice (the first write unanswered), the last intent's copies count; k1: the server answers with a field of its own.
  await writer.intent(change(0), object(0, 2, { Tags: ['first'] }), object(0, 2));
  await writer.intent(change(0), object(0, 3, { Tags: ['x'] }), object(0, 3));
  await writer.record(change(0), { id: 'k0', label: 'Door 0', outcome: 'applied', before: object(0, 3), after: object(0, 4, { Tags: ['x'] }) });
  await writer.intent(change(1), object(1, 7, { Tags: ['x'] }), object(1, 7));
  await writer.record(change(1), {
    id: 'k1',
    label: 'Door 1',
    outcome: 'applied',
    before: object(1, 7),
    after: object(1, 8, { Tags: ['x'], Description: 'set by the server' }),
  });
  await writer.close();
  const text = await readFile(join(dir, `${writer.header.runId}.jsonl`), 'utf8');
  const outcomes = text
    .split('\n')
    .filter((l) => l.includes('"outcome"'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(
    outcomes.map((o) => [o.fromIntent, 'before' in o, 'after' in o]),
    [
      [['before', 'after'], false, false],
      [['before'], false, true],
    ],
  );
  const { entries } = await new RunJournal(dir).read(writer.header.runId);
  const field = (o: object | undefined, name: string) => (o as Record<string, unknown> | undefined)?.[name];
  assert.deepEqual(
    entries.map((e) => [e.before?.ConcurrencyVersion, e.after?.ConcurrencyVersion, e.afterVersion, field(e.after, 'Tags'), field(e.after, 'Description')]),
    [
      [3, 4, 4, ['x'], field(object(0, 4), 'Description')],
      [7, 8, 8, ['x'], 'set by the server'],
    ],
  );
});

test('a journal of the first format (every outcome with its objects) still reads', async () => {
  const dir = await journalDir();
  const { mkdir } = await import('node:fs/promises');
  await mkdir(dir, { recursive: true });
  const o = (v: number) => ({ ...newObject(scannerKind, 'Door'), Key: 'k1', ConcurrencyVersion: v });
  await writeFile(
    join(dir, '20260101t000000000z-abcdef.jsonl'),
    [
      { format: 1, runId: '20260101t000000000z-abcdef', title: 'old', connectionId: 'c', startedAt: '2026-01-01T00:00:00.000Z', total: 1 },
      { intent: true, id: 'k1', label: 'Door', kind: 'inputScanner', folderKey: 'f', op: 'update', key: 'k1', before: o(1), sent: o(1) },
      {
        id: 'k1',
        label: 'Door',
        kind: 'inputScanner',
        folderKey: 'f',
        op: 'update',
        outcome: 'applied',
        key: 'k1',
        before: o(1),
        afterVersion: 2,
        after: o(2),
      },
      { summary: { applied: 1 } },
    ]
      .map((l) => JSON.stringify(l) + '\n')
      .join(''),
  );
  const journal = new RunJournal(dir);
  assert.deepEqual(
    (await journal.runs('c')).map((r) => r.counts),
    [{ applied: 1 }],
  );
  const { entries } = await journal.read('20260101t000000000z-abcdef');
  assert.deepEqual(
    entries.map((e) => [e.outcome, e.before?.ConcurrencyVersion, e.after?.ConcurrencyVersion]),
    [['applied', 1, 2]],
  );
});

test("the list of runs reads an ended run's first and last lines only (its counts), and counts a run that died from all its lines", async () => {
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
  assert.deepEqual(
    runs.map((r) => [r.header.title, r.counts]),
    [
      ['died', { applied: 1, unknown: 1 }],
      ['ended', { applied: 1, failed: 1, unknown: 1 }],
    ],
  );
  await assert.rejects(journal.read(ended.header.runId), /damaged at line 3/);
  // A last line that is not counts (or holds nonsense) is no summary: the run is read whole.
  await appendFile(join(dir, `${died.header.runId}.jsonl`), '{"summary": {"applied": -1}}\n');
  assert.deepEqual((await journal.runs('c1'))[0].counts, { applied: 1, unknown: 1 });
});
