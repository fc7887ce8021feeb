/**
 * The run shell against a real sandbox, with the `vscode` stand-in: every outcome of a run
 * (deletes included) reaches the save events, the journal on disk is what Retry Failed reads, a
 * retried run is no longer offered, an undo deletes what a run created and creates again what it
 * deleted, and secrets stay out of journals and request listings.
 */
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ui } from './hostShim';
import { sandboxServices } from './sandboxServices';
import type { Sandbox } from '../../../src/sandbox/server';
import { OmsClient } from '../../../src/api/client';
import { bulkChanges, previewChanges, undoPlan, type Target } from '../../../src/changes/bulk';
import type { Change } from '../../../src/changes/executor';
import { RunJournal } from '../../../src/changes/runJournal';
import type { Connection } from '../../../src/connection/connection';
import type { ObjectAddress } from '../../../src/fs/objectUri';
import { kind } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';
import type { BaseInfo } from '../../../src/model/types';
import { sendChanges } from '../../../src/runs/core/changesRun';
import { requestsText } from '../../../src/runs/preview';
import { outstandingRuns } from '../../../src/runs/core/retry';
import type { RunHost } from '../../../src/runs/core/run';
import { editorView } from '../../../src/runs/vscodeHost';
import { Api } from '../sandbox/harness';

const scanner = kind('inputScanner');
const site = kind('engageSite');
let sb: Sandbox;
let api: Api;
let client: OmsClient;
let connection: Connection;
let folderKey: string;
let approvals: string[];

before(async () => {
  ({ sb, api, client, connection, approvals } = await sandboxServices());
  folderKey = sb.instanceKey;
});
after(() => sb.close());
beforeEach(() => ui.reset());

/** A host whose events are recorded as the extension's save events would receive them. */
type TestHost = RunHost & { journal: RunJournal; wrote: Array<[string, BaseInfo | undefined]>; ended: { written: string[]; deleted: string[] } };
async function host(): Promise<TestHost> {
  const wrote: Array<[string, BaseInfo | undefined]> = [];
  const ended = { written: [] as string[], deleted: [] as string[] };
  return {
    journal: new RunJournal(join(await mkdtemp(join(tmpdir(), 'oms-shell-')), 'runs')),
    view: editorView,
    events: {
      wrote: (a: ObjectAddress, o: BaseInfo | undefined) => void wrote.push([a.key, o]),
      ended: (w: readonly ObjectAddress[], d: readonly ObjectAddress[]) => {
        ended.written.push(...w.map((a) => a.key));
        ended.deleted.push(...d.map((a) => a.key));
        return Promise.resolve();
      },
    },
    wrote,
    ended,
  };
}

async function scanners(n: number, prefix: string): Promise<Target[]> {
  const out: Target[] = [];
  for (let i = 0; i < n; i++) {
    const res = await api.post(`/api/f/${folderKey}/inputscanners`, newObject(scanner, `${prefix} ${i}`));
    out.push({ kind: scanner, folderKey, key: res.body.Key, name: res.body.CommonName });
  }
  return out;
}
const tagsOf = async (t: Target) => ((await api.get(`/api/f/${folderKey}/inputscanners/${t.key}`)).body as BaseInfo).Tags ?? [];

test(
  'a run asks once, journals every object on disk, and its writes reach the save events; ' +
    'Retry Failed reads that journal and stops offering it once retried',
  async () => {
    const h = await host();
    const targets = await scanners(6, 'Retry');
    await api.post('/sandbox/faults', { path: `/api/f/${folderKey}/inputscanners/${targets[2].key}`, status: 500, count: 1 });
    const op = { type: 'addTag' as const, tag: 'night-shift' };
    approvals.length = 0;
    const run = await sendChanges(
      h,
      {
        connection,
        journal: h.journal,
        title: 'Tag',
        changes: bulkChanges(targets, op),
        header: { recipe: { type: 'bulk', operation: op } },
        words: { runLabel: '' },
      },
      false,
    );
    assert.equal(approvals.length, 1, 'one approval for the whole run');
    assert.deepEqual(
      run.results.filter((r) => r.outcome === 'failed').map((r) => r.id),
      [targets[2].key],
    );
    assert.deepEqual(
      h.wrote.map(([k]) => k).sort(),
      targets
        .filter((_, i) => i !== 2)
        .map((t) => t.key)
        .sort(),
    );
    assert.equal(h.ended.written.length, 5);
    assert.match(ui.messages.join('\n'), /Tag: 5 applied · 1 failed/);

    // What a new window (after a reload) sees: the journal on disk.
    const again = new RunJournal((h.journal as unknown as { dir: string }).dir);
    const [outstanding] = await outstandingRuns(again, 'c1');
    assert.equal(outstanding.header.runId, run.runId);
    assert.deepEqual(
      outstanding.entries.map((e) => e.id),
      [targets[2].key],
    );

    const retried = await sendChanges(
      h,
      {
        connection,
        journal: h.journal,
        title: 'Retry',
        changes: bulkChanges([targets[2]], op),
        header: { recipe: { type: 'bulk', operation: op }, retryOf: run.runId },
        words: { runLabel: '' },
      },
      false,
    );
    assert.deepEqual(
      retried.results.map((r) => r.outcome),
      ['applied'],
    );
    assert.deepEqual(await outstandingRuns(again, 'c1'), [], 'a run whose failures were all retried is not offered again');
    for (const t of targets) assert.deepEqual(await tagsOf(t), ['night-shift']);
  },
);

test('a delete of a run reaches the save events (the tree, Go to Object and open editors are told it is gone)', async () => {
  const h = await host();
  const [gone] = await scanners(1, 'Gone');
  const change: Change = { id: gone.key, label: gone.name, kind: scanner, folderKey, key: gone.key, op: 'delete', build: (live) => live! };
  const run = await sendChanges(h, { connection, journal: h.journal, title: 'Delete', changes: [change], words: { runLabel: '' } }, false);
  assert.deepEqual(
    run.results.map((r) => r.outcome),
    ['applied'],
  );
  assert.deepEqual(h.wrote, [[gone.key, undefined]]);
  assert.deepEqual(h.ended.deleted, [gone.key]);
  assert.equal((await api.get(`/api/f/${folderKey}/inputscanners/${gone.key}`)).status, 404);
});

test('Undo of a run with a create and a delete deletes what it created and creates again what it deleted', async () => {
  const h = await host();
  const [doomed] = await scanners(1, 'Doomed');
  const body = { ...newObject(scanner, 'Fresh'), Tags: ['new'] } as BaseInfo;
  const changes: Change[] = [
    { id: 'fresh.json', label: 'Fresh', kind: scanner, folderKey, op: 'create', build: () => body },
    { id: doomed.key, label: doomed.name, kind: scanner, folderKey, key: doomed.key, op: 'delete', build: (live) => live! },
  ];
  const run = await sendChanges(h, { connection, journal: h.journal, title: 'Apply', changes, words: { runLabel: '' } }, false);
  const created = h.wrote.find(([, o]) => o?.CommonName === 'Fresh')![0];
  const { entries } = await h.journal.read(run.runId);
  const undo = undoPlan(entries, (id) => kind(id));
  assert.deepEqual(undo.changes.map((c) => [c.op, c.label]).sort(), [
    ['create', doomed.name],
    ['delete', 'Fresh'],
  ]);
  const preview = await previewChanges(client, undo.changes);
  assert.deepEqual(
    preview.map((e) => e.status),
    ['change', 'change'],
  );
  const undone = await sendChanges(
    h,
    { connection, journal: h.journal, title: 'Undo', changes: undo.changes, header: { of: run.runId, recipe: { type: 'undo' } }, words: { runLabel: '' } },
    false,
  );
  assert.deepEqual(
    undone.results.map((r) => r.outcome),
    ['applied', 'applied'],
  );
  assert.equal((await api.get(`/api/f/${folderKey}/inputscanners/${created}`)).status, 404, 'what the run created is gone');
  const list = (await api.get(`/api/f/${folderKey}/inputscanners?pageSize=1000`)).body as { Items?: BaseInfo[] } | BaseInfo[];
  const items = Array.isArray(list) ? list : (list.Items ?? []);
  assert.ok(
    items.some((o) => o.CommonName === doomed.name),
    'what the run deleted is there again',
  );
});

test('secrets: the journal keeps no SiteKeyBase64, Undo says it cannot put one back, and the listed requests show a placeholder', async () => {
  const h = await host();
  const secret = 'c2VjcmV0LXNpdGUta2V5LTEyMzQ=';
  const made = (await api.post(`/api/f/${folderKey}/engagesites`, { ...newObject(site, 'Lobby'), SiteKeyBase64: secret })).body as BaseInfo;
  const change: Change = {
    id: made.Key!,
    label: 'Lobby',
    kind: site,
    folderKey,
    key: made.Key!,
    op: 'update',
    build: (live) => ({ ...live!, SiteKeyBase64: 'bmV3LXNpdGUta2V5LTU2Nzg=', Tags: ['rotated'] }),
  };
  const run = await sendChanges(h, { connection, journal: h.journal, title: 'Rotate', changes: [change], words: { runLabel: '' } }, false);
  assert.deepEqual(
    run.results.map((r) => r.outcome),
    ['applied'],
  );
  const dir = (h.journal as unknown as { dir: string }).dir;
  const text = (await Promise.all((await readdir(dir)).map((f) => readFile(join(dir, f), 'utf8')))).join('\n');
  assert.ok(!text.includes(secret) && !text.includes('bmV3LXNpdGUta2V5LTU2Nzg='), 'no secret in the journal');
  const undo = undoPlan((await h.journal.read(run.runId)).entries, (id) => kind(id));
  assert.match(undo.notes.map((n) => `${n.label}: ${n.note}`).join('\n'), /Lobby: SiteKeyBase64 cannot be put back/);
  await sendChanges(h, { connection, journal: h.journal, title: 'Undo', changes: undo.changes, words: { runLabel: '' } }, false);
  const now = (await api.get(`/api/f/${folderKey}/engagesites/${made.Key}`)).body as BaseInfo;
  assert.deepEqual(now.Tags ?? [], [], 'the rest is put back');
  assert.equal(now.SiteKeyBase64, 'bmV3LXNpdGUta2V5LTU2Nzg=', 'the secret keeps its value now (not wiped)');

  const [entry] = await previewChanges(client, [{ ...change, build: (live) => ({ ...live!, Tags: ['x'] }) }]);
  const listed = await requestsText(connection, [entry]);
  assert.ok(!listed.includes('bmV3LXNpdGUta2V5LTU2Nzg='), listed);
  assert.match(listed, /SiteKeyBase64":"\(secret left out/);
});

test('a journal line `null` or garbage is a clear message naming the run and line, not a TypeError', async () => {
  const h = await host();
  const writer = await h.journal.begin({ title: 't', connectionId: 'c1', total: 1 });
  await writer.close();
  const file = join((h.journal as unknown as { dir: string }).dir, `${writer.header.runId}.jsonl`);
  await appendFile(file, 'null\n{"id":"k","kind":"inputScanner","outcome":"applied"}\n');
  // line 2: the counts written at close
  await assert.rejects(h.journal.read(writer.header.runId), (e: Error) => !(e instanceof TypeError) && /damaged at line 3/.test(e.message));
});
