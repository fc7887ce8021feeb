/** Objects as code against a real sandbox: pull a folder into files, plan, apply, dry run. */
import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHttp, RequestLog } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { applyPlan, dryRun } from '../../../src/changes/code/apply';
import { BaseRecords, Bases } from '../../../src/changes/code/bases';
import { canonicalText, fileForm, hashOf, secretPlaceholder } from '../../../src/changes/code/fileForm';
import { mergeEntry } from '../../../src/changes/code/merge';
import { ConnectionBinding, manifestName, readManifest } from '../../../src/changes/code/manifest';
import { makePlan, Plan, PlanAction } from '../../../src/changes/code/plan';
import { bindingOf, pull } from '../../../src/changes/code/pull';
import { kind } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';
import type { BaseInfo, InputScannerInfo } from '../../../src/model/types';
import { Api, start, withSandbox } from '../sandbox/harness';

let api: Api;
let client: OmsClient;
let requests: RequestLog[] = [];
let binding: ConnectionBinding;
let floor1: string;
let root: string;
const scanners = kind('inputScanner');

before(async () => {
  api = await start({ seed: 'demo' });
  client = new OmsClient(createHttp({ baseUrl: api.sb.url, token: () => api.sb.token, log: (e) => requests.push(e) }));
  binding = await bindingOf(client, 'Sandbox', api.sb.url);
  floor1 = (await api.folder('Floor 1', (await api.folder('Head Office')).Key)).Key;
});
after(() => api.sb.close());
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-code-'));
  requests = [];
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

const scope = () => ({ folderKey: floor1, recursive: false, kinds: [scanners.id] });

async function files(dir = root): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.push(path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
  }
  return out.sort();
}

async function scannerFiles(): Promise<string[]> {
  return (await files()).filter((f) => f.includes('/inputscanners/'));
}

async function editFile(rel: string, edit: (o: InputScannerInfo) => void): Promise<void> {
  const o = JSON.parse(await fs.readFile(path.join(root, rel), 'utf8')) as InputScannerInfo;
  edit(o);
  await fs.writeFile(path.join(root, rel), JSON.stringify(o, null, 4));
}

async function live(key: string, collection = 'inputscanners', folderKey = floor1): Promise<InputScannerInfo> {
  return (await api.get(`/api/f/${folderKey}/${collection}/${key}`)).body as InputScannerInfo;
}

function keyOf(rel: string): string {
  return rel.split('.').slice(-2, -1)[0];
}

function actions(plan: Plan): Partial<Record<PlanAction, number>> {
  const out: Partial<Record<PlanAction, number>> = {};
  for (const e of plan.entries) out[e.action] = (out[e.action] ?? 0) + 1;
  return out;
}

async function snapshot(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of await files()) out.set(f, await fs.readFile(path.join(root, f), 'utf8'));
  return out;
}

test('pull: one canonical file per object named <name>.<Key>.json, a manifest bound to the connection, the cache kept out of git; listing in pages', async () => {
  const report = await pull(client, root, binding, { scope: scope() });
  const onServer = await api.listAll(floor1, 'inputscanners');
  const pulled = await scannerFiles();
  assert.equal(pulled.length, onServer.length);
  assert.equal(report.objects, onServer.length);
  for (const o of onServer) {
    const file = pulled.find((f) => f.endsWith(`.${o.Key}.json`));
    assert.ok(file, `a file for ${o.CommonName}`);
    assert.match(path.basename(file), /^[a-z0-9-]+\.[0-9a-f]{24}\.json$/);
    const text = await fs.readFile(path.join(root, file), 'utf8');
    assert.equal(text, canonicalText(scanners, JSON.parse(text) as BaseInfo), 'canonical text');
    assert.ok(text.endsWith('}\n') && !text.includes('\r'));
    const obj = JSON.parse(text) as Record<string, unknown>;
    for (const f of ['ConcurrencyVersion', 'Notes', 'Links', 'Href', 'InFolderHref', 'InFolderKey']) assert.ok(!(f in obj), `${f} stays out of the file`);
    assert.deepEqual(Object.keys(obj).slice(0, 3), ['$type', 'Key', 'CommonName']);
  }
  const manifest = (await readManifest(root))!;
  assert.deepEqual(manifest.connection, binding);
  const first = onServer[0];
  assert.equal(manifest.objects[first.Key!].version, first.ConcurrencyVersion);
  assert.equal(manifest.objects[first.Key!].kind, 'inputScanner');
  assert.equal(await fs.readFile(path.join(root, '.oms', '.gitignore'), 'utf8'), '*\n');
  assert.ok(requests.every((r) => r.method === 'GET'));
  assert.ok(requests.length <= 4, `a handful of requests (${requests.length}), not one per object`);
});

test('a second pull with nothing changed writes no byte; an edited file is kept unless the user overwrites edits', async () => {
  await pull(client, root, binding, { scope: scope() });
  const firstTexts = await snapshot();
  const again = await pull(client, root, binding, {});
  assert.equal(again.written, 0);
  assert.equal(again.bytesWritten, 0);
  assert.deepEqual(await snapshot(), firstTexts, 'every file, the manifest included, byte for byte');

  const [one] = await scannerFiles();
  await editFile(one, (o) => { o.NonSettlingErrorPriority = 7; });
  const kept = await pull(client, root, binding, {});
  assert.deepEqual(kept.keptEdits, [one]);
  assert.match(await fs.readFile(path.join(root, one), 'utf8'), /"NonSettlingErrorPriority": 7/);
  const overwritten = await pull(client, root, binding, { overwriteEdits: true });
  assert.equal(overwritten.written, 1);
  assert.equal(await fs.readFile(path.join(root, one), 'utf8'), firstTexts.get(one));
});

test('a cancelled pull keeps what it wrote; the next pull finishes it', async () => {
  const stop = new AbortController();
  stop.abort();
  const report = await pull(client, root, binding, { scope: scope(), signal: stop.signal });
  assert.equal(report.cancelled, true);
  assert.equal((await scannerFiles()).length, 0);
  const resumed = await pull(client, root, binding, {});
  assert.equal(resumed.cancelled, false);
  assert.equal((await scannerFiles()).length, (await api.listAll(floor1, 'inputscanners')).length);
});

test('cancelled between pages: what was written is recorded; the next pull writes only the rest, no file twice', async () => {
  await withSandbox({ seed: 'empty' }, async (big) => {
    const bigClient = new OmsClient(createHttp({ baseUrl: big.sb.url, token: () => big.sb.token }));
    const total = 2100; // five pages of a pull: 500 each, then 100
    let made = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (made < total) await bigClient.create(scanners, big.instanceKey, newObject(scanners, `Scanner ${made++}`));
    }));
    const bigBinding = await bindingOf(bigClient, 'Big', big.sb.url);
    const stop = new AbortController();
    // Cancel pressed as the fifth page is asked for: the fourth is on its way to the disk.
    const listBytes = bigClient.listBytes.bind(bigClient);
    bigClient.listBytes = (k, folderKey, page, pageSize, signal) => {
      if (page === 4) stop.abort();
      return listBytes(k, folderKey, page, pageSize, signal);
    };
    const progress: number[] = [];
    const first = await pull(bigClient, root, bigBinding, {
      scope: { folderKey: big.instanceKey, recursive: false, kinds: [scanners.id] },
      signal: stop.signal,
      onProgress: (p) => progress.push(p.written),
    });
    assert.equal(first.cancelled, true);
    assert.equal(first.written, 2000, 'the four pages read before Cancel');
    assert.equal(progress.at(-1), 2000, 'progress counts files once written');
    assert.ok(progress.every((n, i) => i === 0 || n > progress[i - 1]), `progress rises: ${progress.join(', ')}`);
    const kept = await scannerFiles();
    assert.equal(kept.length, first.written);
    assert.deepEqual(Object.values((await readManifest(root))!.objects).map((o) => o.path).sort(), kept, 'the manifest names every file written, and only those');
    const before = new Map(await Promise.all(kept.map(async (f) => [f, (await fs.stat(path.join(root, f))).mtimeMs] as const)));

    const resumed = await pull(bigClient, root, bigBinding, {});
    assert.equal(resumed.cancelled, false);
    assert.equal(resumed.written, total - first.written, 'only the rest');
    assert.equal((await scannerFiles()).length, total);
    assert.equal(Object.keys((await readManifest(root))!.objects).length, total);
    for (const [f, mtime] of before) assert.equal((await fs.stat(path.join(root, f))).mtimeMs, mtime, `${f} not written again`);
  });
});

test('small objects: pages of 1,000 from the 1,000th on (where the requests take the time), each object pulled once', async () => {
  await withSandbox({ seed: 'empty' }, async (big) => {
    const bigClient = new OmsClient(createHttp({ baseUrl: big.sb.url, token: () => big.sb.token }));
    const people = kind('person');
    const total = 2600;
    let made = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (made < total) {
        const i = made++;
        await bigClient.create(people, big.instanceKey, { ...newObject(people, `Person ${i}`), GivenName: `Given ${i}`, Surname: `Surname ${i}` });
      }
    }));
    const pages: string[] = [];
    const listBytes = bigClient.listBytes.bind(bigClient);
    bigClient.listBytes = (k, folderKey, page, pageSize, signal) => {
      pages.push(`${page}/${pageSize}`);
      return listBytes(k, folderKey, page, pageSize, signal);
    };
    const report = await pull(bigClient, root, await bindingOf(bigClient, 'Big', big.sb.url), { scope: { folderKey: big.instanceKey, recursive: false, kinds: [people.id] } });
    assert.deepEqual(pages.slice(0, 4), ['0/500', '1/500', '1/1000', '2/1000'], 'objects 0-499, 500-999, 1000-1999, 2000-2599');
    assert.ok(pages.length <= 5 && pages.slice(4).every((p) => p === '3/1000'), `one request more at most, an empty page: ${pages.join(', ')}`);
    assert.equal(report.written, total);
    const manifest = (await readManifest(root))!;
    assert.equal(new Set(Object.values(manifest.objects).map((o) => o.path)).size, total, 'a file each, none twice');
  });
});

test('a file that cannot be written: the pull names it and goes on, the manifest names only what was written, the next pull finishes', async () => {
  await pull(client, root, binding, { scope: scope() });
  const all = await scannerFiles();
  await fs.rm(root, { recursive: true });
  // A link into a folder that is not there: the file cannot be created.
  await fs.mkdir(path.dirname(path.join(root, all[1])), { recursive: true });
  await fs.symlink(path.join(root, 'gone', 'x.json'), path.join(root, all[1]));
  const report = await pull(client, root, binding, { scope: scope() });
  assert.ok(report.refused.some((r) => r.includes(all[1])), report.refused.join('\n'));
  const manifest = (await readManifest(root))!;
  for (const entry of Object.values(manifest.objects)) assert.ok(await fs.stat(path.join(root, entry.path)).then((s) => s.isFile()), `${entry.path} written`);
  assert.ok(!Object.values(manifest.objects).some((o) => o.path === all[1]));
  await fs.rm(path.join(root, all[1]));
  const again = await pull(client, root, binding, {});
  assert.deepEqual(await scannerFiles(), all);
  assert.ok(again.written >= 1 && again.written < all.length || all.length === 2, `only what was missing (${again.written} of ${all.length})`);
});

test('an object renamed on the server: the next pull moves its file to the new name (the Key stays), and changes nothing else', async () => {
  await pull(client, root, binding, { scope: scope() });
  const before = await snapshot();
  const [one] = await scannerFiles();
  const key = keyOf(one);
  const o = await live(key);
  const at = `/api/f/${floor1}/inputscanners/${key}`;
  await api.put(at, { ...o, CommonName: `${o.CommonName} Renamed` });
  try {
    const report = await pull(client, root, binding, {});
    assert.equal(report.written, 1);
    const after = await snapshot();
    const moved = [...after.keys()].find((f) => f.endsWith(`.${key}.json`))!;
    assert.notEqual(moved, one);
    assert.match(path.basename(moved), /-renamed\./);
    assert.ok(!after.has(one), 'the old name is gone');
    assert.equal((await readManifest(root))!.objects[key].path, moved);
    for (const [f, text] of before) if (f !== one && f.includes('/inputscanners/')) assert.equal(after.get(f), text, `${f} unchanged`);
  } finally {
    await api.put(at, { ...(await live(key)), CommonName: o.CommonName });
  }
});

test('a gateway that wraps the list is pulled like the service; a page that is not a list fails with the client\'s words, writing nothing', async () => {
  // What the sandbox never sends: a server answering the folder and one page of the floor's scanners, as `body` shapes them.
  const onServer = await api.listAll(floor1, 'inputscanners');
  const serve = async (body: (items: unknown[]) => unknown, run: (c: OmsClient) => Promise<void>) => {
    const server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const page = Number(url.searchParams.get('page') ?? 0);
      const answer = url.pathname.endsWith('/inputscanners') ? body(page === 0 ? onServer : []) : { Key: floor1, CommonName: 'Floor 1' };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await run(new OmsClient(createHttp({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: () => 'test' })));
    } finally {
      server.close();
    }
  };
  await serve((items) => ({ Items: items }), async (c) => {
    const report = await pull(c, root, binding, { scope: scope() });
    assert.equal(report.objects, onServer.length);
    assert.equal((await scannerFiles()).length, onServer.length);
  });
  const other = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-code-'));
  try {
    await serve(() => ({ Message: 'not a list' }), async (c) => {
      await assert.rejects(pull(c, other, binding, { scope: scope() }), /The server's list of input scanners is not an array/);
    });
    assert.deepEqual(Object.keys((await readManifest(other))!.objects), [], 'nothing recorded');
  } finally {
    await fs.rm(other, { recursive: true, force: true });
  }
});

test('plan: updates with their changed fields, deletes only when opted in, stale when both moved; in a few requests', async () => {
  await pull(client, root, binding, { scope: scope() });
  const [a, b, c, d] = await scannerFiles();
  for (const f of [a, b, c]) await editFile(f, (o) => { o.InputScannerReportingPriorities[1].Priority += 1; });
  await fs.rm(path.join(root, d));
  requests = [];
  const { plan } = await makePlan(client, root, binding);
  assert.deepEqual(actions(plan), { update: 3, deleteSkipped: 1 });
  assert.ok(requests.length <= 3, `pages, not objects (${requests.length} requests)`);
  const update = plan.entries.find((e) => e.path === a)!;
  assert.deepEqual(update.changes.map((ch) => ch.pointer), ['/InputScannerReportingPriorities/1/Priority']);
  assert.equal(update.selected, true);

  const withDeletes = (await makePlan(client, root, binding, { includeDeletes: true })).plan;
  assert.deepEqual(actions(withDeletes), { update: 3, delete: 1 });
  assert.equal(withDeletes.entries.find((e) => e.action === 'delete')!.selected, false, 'each delete is ticked by hand');

  // The server moves c, edited here: stale.
  const cLive = await live(keyOf(c));
  assert.equal((await api.put(`/api/f/${floor1}/inputscanners/${keyOf(c)}`, { ...cLive, NonSettlingErrorPriority: 9 })).status < 300, true);
  const later = (await makePlan(client, root, binding)).plan;
  const staleEntry = later.entries.find((e) => e.path === c)!;
  assert.equal(staleEntry.action, 'stale');
  assert.match(staleEntry.reason!, /v\d+ → v\d+/);
  assert.deepEqual(staleEntry.serverChanges?.map((ch) => ch.pointer), ['/NonSettlingErrorPriority']);
});

test('behind: only the server moved; the plan shows its changes and a pull brings them, after which the plan is clean', async () => {
  await pull(client, root, binding, { scope: scope() });
  const [a] = await scannerFiles();
  const current = await live(keyOf(a));
  await api.put(`/api/f/${floor1}/inputscanners/${keyOf(a)}`, { ...current, NonSettlingErrorStatus: 3 });
  const { plan } = await makePlan(client, root, binding);
  assert.deepEqual(actions(plan), { behind: 1 });
  assert.deepEqual(plan.entries[0].serverChanges?.map((ch) => ch.pointer), ['/NonSettlingErrorStatus']);
  assert.equal(plan.entries[0].selected, false);
  const report = await pull(client, root, binding, {});
  assert.equal(report.written, 1);
  assert.deepEqual(actions((await makePlan(client, root, binding)).plan), {});
});

test('apply: only the ticked entries, each version +1; a stale entry sends nothing; the manifest moves forward and the next plan is clean', async () => {
  await pull(client, root, binding, { scope: scope() });
  const [a, b, c] = await scannerFiles();
  for (const f of [a, b, c]) await editFile(f, (o) => { o.InputScannerReportingPriorities[1].Priority += 1; });
  const before = await Promise.all([a, b, c].map((f) => live(keyOf(f))));
  const { plan } = await makePlan(client, root, binding);
  plan.entries.find((e) => e.path === c)!.selected = false;
  requests = [];
  const results = await applyPlan(client, root, binding, plan, { stopOnError: false });
  assert.deepEqual(results.map((r) => r.outcome), ['applied', 'applied']);
  const afterA = await live(keyOf(a)), afterB = await live(keyOf(b)), afterC = await live(keyOf(c));
  assert.equal(afterA.ConcurrencyVersion, before[0].ConcurrencyVersion! + 1);
  assert.equal(afterA.InputScannerReportingPriorities[1].Priority, before[0].InputScannerReportingPriorities[1].Priority + 1);
  assert.equal(afterB.ConcurrencyVersion, before[1].ConcurrencyVersion! + 1);
  assert.deepEqual(afterC, before[2], 'the unticked one is untouched');
  assert.equal(requests.filter((r) => r.method === 'PUT').length, 2);
  assert.deepEqual(actions((await makePlan(client, root, binding)).plan), { update: 1 });
  assert.equal((await readManifest(root))!.objects[keyOf(a)].version, afterA.ConcurrencyVersion);

  // c changes on the server: the same plan entry is now stale and nothing is sent for it.
  await api.put(`/api/f/${floor1}/inputscanners/${keyOf(c)}`, { ...afterC, NonSettlingErrorPriority: 5 });
  plan.entries.find((e) => e.path === c)!.selected = true;
  const movedOn = await live(keyOf(c));
  requests = [];
  const second = await applyPlan(client, root, binding, plan, { stopOnError: false });
  assert.equal(second.find((r) => r.id === keyOf(c))!.outcome, 'stale');
  assert.equal(requests.filter((r) => r.method === 'PUT').length, 0);
  assert.deepEqual(await live(keyOf(c)), movedOn);
});

test('merge a stale entry: the server\'s row-5 change and my row-2 change both land; a conflict is left to a choice', async () => {
  await pull(client, root, binding, { scope: scope() });
  const [a, b] = await scannerFiles();
  for (const f of [a, b]) await editFile(f, (o) => { o.InputScannerReportingPriorities[1].Priority = 4; });
  const liveA = await live(keyOf(a));
  liveA.InputScannerReportingPriorities[4].StatusCode = 3;
  await api.put(`/api/f/${floor1}/inputscanners/${keyOf(a)}`, liveA);
  const liveB = await live(keyOf(b));
  liveB.InputScannerReportingPriorities[1].Priority = 5;
  await api.put(`/api/f/${floor1}/inputscanners/${keyOf(b)}`, liveB);

  const { plan, live: onServer } = await makePlan(client, root, binding);
  assert.deepEqual(actions(plan), { stale: 2 });
  const entryA = plan.entries.find((e) => e.path === a)!;
  assert.deepEqual((await mergeEntry(root, entryA, onServer.get(keyOf(a))!)).conflicts, []);
  const entryB = plan.entries.find((e) => e.path === b)!;
  const { conflicts } = await mergeEntry(root, entryB, onServer.get(keyOf(b))!);
  assert.deepEqual(conflicts.map((c) => [c.pointer, c.mine, c.theirs]), [['/InputScannerReportingPriorities/1/Priority', 4, 5]]);
  assert.deepEqual((await mergeEntry(root, entryB, onServer.get(keyOf(b))!, { '/InputScannerReportingPriorities/1/Priority': 'theirs' })).conflicts, []);

  const merged = (await makePlan(client, root, binding)).plan;
  assert.deepEqual(actions(merged), { update: 1 }, 'b now equals the server: nothing to send for it');
  const results = await applyPlan(client, root, binding, merged, { stopOnError: false });
  assert.deepEqual(results.map((r) => r.outcome), ['applied']);
  const after = await live(keyOf(a));
  assert.equal(after.InputScannerReportingPriorities[1].Priority, 4);
  assert.equal(after.InputScannerReportingPriorities[4].StatusCode, 3);
});

test("merge bases of a pull's page: encoded once into a buffer that grows as needed, each text's bytes and hash its own, read back whole", async () => {
  const texts = ['{\n  "CommonName": "Zoë Østergård 東京 🚪"\n}\n', `${JSON.stringify({ CommonName: 'x'.repeat(5000) }, null, 2)}\n`, '{}\n'];
  const records = new BaseRecords(16); // smaller than one record: the buffer grows, copying the records before
  const added = texts.map((t) => records.add(t));
  for (const [i, { bytes, hash }] of added.entries()) {
    if (i === added.length - 1) assert.deepEqual(bytes, Buffer.from(texts[i]), 'the last text as its UTF-8 bytes');
    assert.equal(hash, hashOf(texts[i]));
  }
  const bases = new Bases(root);
  await fs.mkdir(path.dirname(bases.file), { recursive: true });
  assert.equal(records.appendTo(bases.file), (await fs.stat(bases.file)).size);
  assert.equal(records.count, 3);
  assert.deepEqual(texts.map((t) => new Bases(root).get(hashOf(t))), texts);
  assert.throws(() => records.add('{"a": "\u001e"}'), /canonical JSON/, 'a raw record separator would cut the record');
});

test('merge bases: one cache file, not a file per object; a record cut short by a crash is ignored; a pull into a clone without .oms/ writes them again', async () => {
  await pull(client, root, binding, { scope: scope() });
  const cache = (await files()).filter((f) => f.startsWith('.oms/'));
  assert.deepEqual(cache, ['.oms/.gitignore', '.oms/bases'], 'no file per object in the cache');
  const [a] = await scannerFiles();
  await editFile(a, (o) => { o.InputScannerReportingPriorities[1].Priority = 4; });
  const liveA = await live(keyOf(a));
  liveA.InputScannerReportingPriorities[4].StatusCode = 3;
  await api.put(`/api/f/${floor1}/inputscanners/${keyOf(a)}`, liveA);
  // A crash while a resumed pull appended a's base again: its record cut short at the end.
  const pulledHash = (await readManifest(root))!.objects[keyOf(a)].hash;
  await fs.appendFile(path.join(root, '.oms', 'bases'), `\u001e${pulledHash} {\n  "$type`);
  let { plan, live: onServer } = await makePlan(client, root, binding);
  assert.deepEqual((await mergeEntry(root, plan.entries[0], onServer.get(keyOf(a))!)).conflicts, [], 'the whole base, not the cut one');
  const merged = (await readManifest(root))!.objects[keyOf(a)];
  assert.equal(new Bases(root).get(merged.hash), canonicalText(scanners, fileForm(scanners, await live(keyOf(a)))), 'the base the merge wrote after the cut record is whole');

  // A clone: the files and manifest from git, no local cache. Merging has no base until a pull writes them again.
  await editFile(a, (o) => { o.InputScannerReportingPriorities[2].Priority = 4; });
  await api.put(`/api/f/${floor1}/inputscanners/${keyOf(a)}`, { ...(await live(keyOf(a))), NonSettlingErrorPriority: 5 });
  await fs.rm(path.join(root, '.oms'), { recursive: true });
  ({ plan, live: onServer } = await makePlan(client, root, binding));
  await assert.rejects(mergeEntry(root, plan.entries[0], onServer.get(keyOf(a))!), /No merge base/);
  const again = await pull(client, root, binding, {});
  assert.deepEqual(again.keptEdits, [a]);
  assert.deepEqual((await files()).filter((f) => f.startsWith('.oms/')), ['.oms/.gitignore', '.oms/bases']);
  const [stale] = (await makePlan(client, root, binding)).plan.entries;
  assert.equal(stale.action, 'stale');
});

test('a cancelled apply: applied objects are in the manifest, the rest not sent; planning again shows only the rest', async () => {
  await pull(client, root, binding, { scope: scope() });
  const edited = (await scannerFiles()).slice(0, 3);
  for (const f of edited) await editFile(f, (o) => { o.NonSettlingErrorPriority = 8; });
  const { plan } = await makePlan(client, root, binding);
  const stop = new AbortController();
  const results = await applyPlan(client, root, binding, plan, { stopOnError: false, concurrency: 1, signal: stop.signal, onResult: () => stop.abort() });
  assert.deepEqual(results.map((r) => r.outcome), ['applied', 'notSent', 'notSent']);
  const again = (await makePlan(client, root, binding)).plan;
  assert.deepEqual(actions(again), { update: 2 });
  assert.ok(!again.entries.some((e) => e.id === results[0].id));
});

test('a saved plan refuses entries whose file changed since it was made, and applies the rest', async () => {
  await pull(client, root, binding, { scope: scope() });
  const [a, b] = await scannerFiles();
  for (const f of [a, b]) await editFile(f, (o) => { o.NonSettlingErrorPriority = 3; });
  const saved = JSON.parse(JSON.stringify((await makePlan(client, root, binding)).plan)) as Plan;
  await editFile(b, (o) => { o.NonSettlingErrorPriority = 4; });
  const results = await applyPlan(client, root, binding, saved, { stopOnError: false });
  assert.equal(results.find((r) => r.id === keyOf(a))!.outcome, 'applied');
  const refused = results.find((r) => r.id === keyOf(b))!;
  assert.equal(refused.outcome, 'notSent');
  assert.match(refused.reason!, /file changed since the plan/);
  assert.notEqual((await live(keyOf(b))).NonSettlingErrorPriority, 4);
});

test('dry run: the exact writes as cURL with $TOKEN, and nothing changes on the server', async () => {
  await pull(client, root, binding, { scope: scope() });
  const [a] = await scannerFiles();
  await editFile(a, (o) => { o.NonSettlingErrorPriority = 2; });
  const { plan } = await makePlan(client, root, binding);
  const before = await live(keyOf(a));
  const { commands } = await dryRun(client, root, binding, plan);
  const curl = commands.filter((c) => !c.startsWith('#'));
  assert.equal(curl.length, 1);
  assert.match(curl[0], new RegExp(`-X PUT '${api.sb.url}/api/f/${floor1}/inputscanners/${keyOf(a)}'`));
  assert.match(curl[0], /Authorization: Bearer %s.*"\$TOKEN"/);
  assert.ok(!curl[0].includes(api.sb.token));
  assert.match(curl[0], /"NonSettlingErrorPriority":2/);
  assert.deepEqual(await live(keyOf(a)), before);
  // The real apply sends that same body.
  const [r] = await applyPlan(client, root, binding, plan, { stopOnError: false });
  assert.equal(r.outcome, 'applied');
  assert.equal((await live(keyOf(a))).NonSettlingErrorPriority, 2);
});

test('create and delete: a file without Key is created and renamed to carry its Key; a ticked delete deletes', async () => {
  await pull(client, root, binding, { scope: scope() });
  const [a, b] = await scannerFiles();
  const fresh = JSON.parse(await fs.readFile(path.join(root, a), 'utf8')) as Record<string, unknown>;
  delete fresh.Key;
  fresh.CommonName = 'Made As Code';
  const dir = path.posix.dirname(a);
  await fs.writeFile(path.join(root, dir, 'new-scanner.json'), JSON.stringify(fresh));
  await fs.rm(path.join(root, b));
  const { plan } = await makePlan(client, root, binding, { includeDeletes: true });
  assert.deepEqual(actions(plan), { create: 1, delete: 1 });
  plan.entries.find((e) => e.action === 'delete')!.selected = true;
  const results = await applyPlan(client, root, binding, plan, { stopOnError: false });
  assert.deepEqual(results.map((r) => r.outcome).sort(), ['applied', 'applied']);
  assert.equal((await api.get(`/api/f/${floor1}/inputscanners/${keyOf(b)}`)).status, 404);
  const made = (await api.listAll(floor1, 'inputscanners')).find((o) => o.CommonName === 'Made As Code')!;
  assert.ok(made);
  assert.ok((await scannerFiles()).includes(`${dir}/made-as-code.${made.Key}.json`));
  const manifest = (await readManifest(root))!;
  assert.ok(manifest.objects[made.Key!]);
  assert.ok(!manifest.objects[keyOf(b)]);
  assert.deepEqual(actions((await makePlan(client, root, binding)).plan), {});
});

test('invalid: schema, server-owned fields, two files with one Key, a broken file; nothing of it is sent', async () => {
  await pull(client, root, binding, { scope: scope() });
  const [a, b, c, d] = await scannerFiles();
  await editFile(a, (o) => { o.InputScannerReportingPriorities.push(o.InputScannerReportingPriorities[0]); });
  await editFile(b, (o) => { (o as BaseInfo).Notes = []; });
  await fs.copyFile(path.join(root, c), path.join(root, path.posix.dirname(c), 'copy.json'));
  await fs.writeFile(path.join(root, d), '{ "broken": ');
  const { plan } = await makePlan(client, root, binding);
  const reasons = plan.entries.map((e) => `${e.action}: ${e.reason ?? ''}`).join('\n');
  assert.deepEqual(actions(plan), { invalid: 5 }, reasons);
  assert.match(reasons, /Schema: \/InputScannerReportingPriorities/);
  assert.match(reasons, /Notes is the server's to set/);
  assert.match(reasons, /2 files hold Key/);
  assert.match(reasons, /not valid JSON/);
  for (const e of plan.entries) e.selected = true;
  requests = [];
  const results = await applyPlan(client, root, binding, plan, { stopOnError: false });
  assert.ok(results.every((r) => r.outcome === 'notSent'));
  assert.equal(requests.length, 0);
});

test('a pulled folder is bound to its connection: another instance is refused, naming the one it belongs to; a broken manifest is refused', async () => {
  await pull(client, root, binding, { scope: scope() });
  const other: ConnectionBinding = { label: 'Other', url: 'https://oms.example.com', instanceKey: 'aaaaaaaaaaaaaaaaaaaaaaaa' };
  await assert.rejects(makePlan(client, root, other), /pulled from Sandbox .*plan it against Sandbox/);
  await assert.rejects(pull(client, root, other, {}), /pulled from Sandbox/);
  await fs.writeFile(path.join(root, manifestName), '{"format":1');
  await assert.rejects(makePlan(client, root, binding), /oms\.manifest\.json is not valid JSON/);
});

test('secrets: SiteKeyBase64 is a placeholder in the file and the live value is kept when the site is applied', async () => {
  const office = (await api.folder('Head Office')).Key;
  await pull(client, root, binding, { scope: { folderKey: office, recursive: false, kinds: ['engageSite'] } });
  const [file] = (await files()).filter((f) => f.includes('/engagesites/'));
  const key = keyOf(file);
  const site = (await api.get(`/api/f/${office}/engagesites/${key}`)).body as BaseInfo;
  assert.ok(site.SiteKeyBase64, 'the demo site has a key');
  const text = await fs.readFile(path.join(root, file), 'utf8');
  assert.ok(!text.includes(site.SiteKeyBase64 as string));
  assert.equal((JSON.parse(text) as BaseInfo).SiteKeyBase64, secretPlaceholder);
  const edited = { ...(JSON.parse(text) as BaseInfo), CommonName: 'Renamed As Code' };
  await fs.writeFile(path.join(root, file), JSON.stringify(edited));
  const { plan } = await makePlan(client, root, binding);
  const results = await applyPlan(client, root, binding, plan, { stopOnError: false });
  assert.deepEqual(results.map((r) => r.outcome), ['applied']);
  const after = (await api.get(`/api/f/${office}/engagesites/${key}`)).body as BaseInfo;
  assert.equal(after.CommonName, 'Renamed As Code');
  assert.equal(after.SiteKeyBase64, site.SiteKeyBase64);
});

test('a field removed from a file is removed on the server (a PUT replaces the whole object); the fields the file never held are kept', async () => {
  const office = (await api.folder('Head Office')).Key;
  const [first] = (await api.get(`/api/f/${office}/engagesites`)).body as BaseInfo[];
  const at = `/api/f/${office}/engagesites/${first.Key}`;
  assert.ok((await api.put(at, { ...first, Tags: ['as-code'] })).status < 300);
  await pull(client, root, binding, { scope: { folderKey: office, recursive: false, kinds: ['engageSite'] } });
  const file = (await files()).find((f) => f.endsWith(`.${first.Key}.json`))!;
  const { Tags: _dropped, ...rest } = JSON.parse(await fs.readFile(path.join(root, file), 'utf8')) as BaseInfo;
  await fs.writeFile(path.join(root, file), JSON.stringify(rest, null, 2));
  const { plan } = await makePlan(client, root, binding);
  assert.deepEqual(plan.entries.filter((e) => e.action === 'update').map((e) => e.changes.map((c) => c.pointer)), [['/Tags']]);
  const results = await applyPlan(client, root, binding, plan, { stopOnError: false });
  assert.deepEqual(results.map((r) => r.outcome), ['applied']);
  const after = (await api.get(at)).body as BaseInfo;
  assert.ok(!(after.Tags as string[] | undefined)?.length, `Tags removed: ${JSON.stringify(after.Tags)}`);
  assert.equal(after.SiteKeyBase64, first.SiteKeyBase64, 'the secret the file holds as a placeholder is kept');
  assert.deepEqual(after.Notes, first.Notes, 'server-owned fields are kept');
});
