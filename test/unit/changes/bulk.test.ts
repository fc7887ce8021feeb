/** Bulk edit operations, the preview's counts against a real sandbox, and undo as a run that never overwrites a later change. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, Sandbox } from '../../../src/sandbox/server';
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { bulkChanges, previewCounts, mergedUndo, previewChanges, Target, undoPlan } from '../../../src/changes/bulk';
import { applyOperation } from '../../../src/changes/operations';
import { runChanges } from '../../../src/changes/executor';
import { RunJournal } from '../../../src/changes/runJournal';
import { kind } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';
import type { BaseInfo, InputScannerInfo } from '../../../src/model/types';
import { Api } from '../sandbox/harness';
import { pageCountingClient } from '../api/pagesAsked';

const scannerKind = kind('inputScanner');
let sb: Sandbox;
let api: Api;
let client: OmsClient;
let folderKey: string;

before(async () => {
  sb = await startSandbox({ port: 0, seed: 'empty' });
  api = new Api(sb);
  client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
  folderKey = sb.instanceKey;
});
after(() => sb.close());

async function scanners(n: number, prefix: string): Promise<Target[]> {
  const out: Target[] = [];
  for (let i = 0; i < n; i++) {
    const res = await api.post(`/api/f/${folderKey}/inputscanners`, newObject(scannerKind, `${prefix} ${i}`));
    out.push({ kind: scannerKind, folderKey, key: res.body.Key, name: res.body.CommonName });
  }
  return out;
}
/** A bulk run (row 850–1150 Priority = 7) journalled as the commands do. */
async function journalledRun(targets: Target[]): Promise<{ journal: RunJournal; runId: string }> {
  const journal = new RunJournal(join(await mkdtemp(join(tmpdir(), 'oms-undo-')), 'runs'));
  const changes = bulkChanges(targets, { type: 'setRow', min: 850, max: 1150, field: 'Priority', value: 7 });
  const writer = await journal.begin({ title: 'set', connectionId: 'c', total: changes.length });
  await runChanges(client, changes, {
    stopOnError: false,
    onResult: (r) =>
      void writer.record(
        changes.find((c) => c.id === r.id)!,
        r,
      ),
  });
  await writer.close();
  return { journal, runId: writer.header.runId };
}
const read = async (t: Target) => (await api.get(`/api/f/${folderKey}/inputscanners/${t.key}`)).body as InputScannerInfo;

test('a priority row is found by its resistance range, not its place; a scanner without that range is not applicable', () => {
  const s = newObject(scannerKind, 'Door') as InputScannerInfo;
  s.InputScannerReportingPriorities.reverse();
  const edited = applyOperation(s, { type: 'setRow', min: 850, max: 1150, field: 'Priority', value: 9 }) as InputScannerInfo;
  const row = edited.InputScannerReportingPriorities.find((r) => r.MinResistanceCode === 850)!;
  assert.equal(row.Priority, 9);
  assert.equal(edited.InputScannerReportingPriorities.filter((r) => r.Priority === 9).length, 1);
  assert.deepEqual(applyOperation(s, { type: 'setRow', min: 1, max: 2, field: 'Priority', value: 9 }), {
    skip: 'has no priority row 1–2',
    notApplicable: true,
  });
});

test('replace only where the field holds the given value; tags as a set', () => {
  const s = { ...newObject(scannerKind, 'Door'), Tags: ['a'] } as BaseInfo;
  assert.equal((applyOperation(s, { type: 'replace', field: 'NonSettlingErrorPriority', from: 1, to: 4 }) as BaseInfo).NonSettlingErrorPriority, 4);
  assert.equal((applyOperation(s, { type: 'replace', field: 'NonSettlingErrorPriority', from: 2, to: 4 }) as { notApplicable?: boolean }).notApplicable, true);
  assert.deepEqual((applyOperation(s, { type: 'addTag', tag: 'b' }) as BaseInfo).Tags, ['a', 'b']);
  assert.equal(applyOperation(s, { type: 'addTag', tag: 'a' }), s, 'already there: the same object (a no-op)');
  assert.deepEqual((applyOperation(s, { type: 'removeTag', tag: 'a' }) as BaseInfo).Tags, []);
});

test('the preview reads every object and counts changes, no-ops, invalid and not applicable; it sends nothing', async () => {
  const targets = await scanners(14, 'Preview');
  // One already as wanted, one without the field the operation replaces from.
  const s0 = await read(targets[0]);
  await api.put(`/api/f/${folderKey}/inputscanners/${targets[0].key}`, { ...s0, NonSettlingErrorPriority: 5 });
  const versions = await Promise.all(targets.map(async (t) => (await read(t)).ConcurrencyVersion));
  const shown: number[] = [];
  const entries = await previewChanges(client, bulkChanges(targets, { type: 'set', field: 'NonSettlingErrorPriority', value: 5 }), {
    onEntry: (_e, done) => shown.push(done),
  });
  assert.deepEqual(previewCounts(entries), { change: 13, noop: 1, invalid: 0, notApplicable: 0, stale: 0 });
  assert.deepEqual(entries[1].changes, [{ pointer: '/NonSettlingErrorPriority', from: 1, to: 5 }]);
  assert.equal(shown.length, 14, 'each entry reported as it is known');
  assert.deepEqual(await Promise.all(targets.map(async (t) => (await read(t)).ConcurrencyVersion)), versions, 'nothing sent');

  const invalid = await previewChanges(client, bulkChanges(targets.slice(0, 2), { type: 'set', field: 'NonSettlingErrorPriority', value: 'high' }));
  assert.deepEqual(previewCounts(invalid), { change: 0, noop: 0, invalid: 2, notApplicable: 0, stale: 0 });
  assert.match(invalid[0].reason ?? '', /schema/);
  const identity = await previewChanges(client, bulkChanges(targets.slice(0, 1), { type: 'set', field: 'Key', value: 'x' }));
  assert.match(identity[0].reason ?? '', /Key/);
  assert.equal(identity[0].status, 'invalid');
});

test('undo puts back what a run changed; an object changed by someone since is stale and keeps that change', async () => {
  const targets = await scanners(4, 'Undo');
  const { journal, runId } = await journalledRun(targets);
  const edited = await read(targets[3]);
  await api.put(`/api/f/${folderKey}/inputscanners/${targets[3].key}`, { ...edited, CommonName: 'Edited after the run' });

  const undo = undoPlan((await journal.read(runId)).entries, (id) => kind(id)).changes;
  assert.deepEqual(previewCounts(await previewChanges(client, undo)), { change: 3, noop: 0, invalid: 0, notApplicable: 0, stale: 1 });
  const results = await runChanges(client, undo, { stopOnError: false });
  assert.deepEqual(
    results.map((r) => r.outcome),
    ['applied', 'applied', 'applied', 'stale'],
  );
  for (const t of targets.slice(0, 3)) assert.equal((await read(t)).InputScannerReportingPriorities[2].Priority, 2, 'back to the sample value');
  const kept = await read(targets[3]);
  assert.equal(kept.CommonName, 'Edited after the run');
  assert.equal(kept.InputScannerReportingPriorities[2].Priority, 7, 'the stale one is not overwritten');
});

test(
  "a stale undo merges: a later edit of another field is kept and the run's change is put back; " +
    'an edit of the same field is a conflict and nothing is sent',
  async () => {
    const targets = await scanners(2, 'Merge');
    const { journal, runId } = await journalledRun(targets);
    const [other, same] = await Promise.all(targets.map(read));
    await api.put(`/api/f/${folderKey}/inputscanners/${other.Key}`, { ...other, CommonName: 'Renamed after the run' });
    const rows = same.InputScannerReportingPriorities.map((r) => (r.MinResistanceCode === 850 ? { ...r, Priority: 8 } : r));
    await api.put(`/api/f/${folderKey}/inputscanners/${same.Key}`, { ...same, InputScannerReportingPriorities: rows });

    const { entries } = await journal.read(runId);
    const entryOf = (key: string) => entries.find((e) => e.key === key)!;
    const clean = mergedUndo(entryOf(other.Key!), scannerKind, await read(targets[0]));
    const conflict = mergedUndo(entryOf(same.Key!), scannerKind, await read(targets[1]));
    assert.deepEqual(conflict, { conflicts: ['/InputScannerReportingPriorities/2/Priority'] });
    assert.ok('change' in clean);
    const [result] = await runChanges(client, [clean.change], { stopOnError: false });
    assert.equal(result.outcome, 'applied');
    const now = await read(targets[0]);
    assert.equal(now.CommonName, 'Renamed after the run', 'the later edit stays');
    assert.equal(now.InputScannerReportingPriorities[2].Priority, 2, "the run's change is put back");
    assert.equal((await read(targets[1])).InputScannerReportingPriorities[2].Priority, 8, 'the conflicting one keeps the later edit');
  },
);

test('a preview of a large group compares each object as its page arrives: the first is shown before the last page is asked for', async () => {
  const targets = await scanners(2100, 'Paged');
  const { client: reader, asked } = pageCountingClient(sb);
  let askedAtFirst: number | undefined;
  const entries = await previewChanges(reader, bulkChanges(targets, { type: 'set', field: 'NonSettlingErrorPriority', value: 5 }), {
    onEntry: () => {
      askedAtFirst ??= asked.length;
    },
  });
  assert.equal(previewCounts(entries).change, 2100, 'every object read and compared once');
  assert.deepEqual(
    entries.map((e) => e.change.key),
    targets.map((t) => t.key),
    'in the order of the changes',
  );
  assert.ok(askedAtFirst! < Math.max(...asked), `first entry after ${askedAtFirst} page requests, of pages 0-${Math.max(...asked)}`);
});
