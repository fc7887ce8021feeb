/** Crashes and lost answers: a create or a PUT that landed without its answer is never sent twice, nor called stale. */
import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHttp } from '../../../../src/api/http';
import { OmsClient } from '../../../../src/api/client';
import { applyPlan } from '../../../../src/changes/code/apply';
import { ConnectionBinding, readManifest } from '../../../../src/changes/code/manifest';
import { makePlan } from '../../../../src/changes/code/plan';
import { PendingCreates } from '../../../../src/changes/code/pendingCreates';
import { bindingOf, pull } from '../../../../src/changes/code/pull';
import type { BaseInfo } from '../../../../src/model/types';
import { kind } from '../../../../src/model/kinds';
import { fileForm } from '../../../../src/changes/code/fileForm';
import { Api, person, start } from '../../sandbox/harness';

let api: Api;
let proxy: http.Server;
let client: OmsClient;
let binding: ConnectionBinding;
let url: string;
let folderKey: string;
let root: string;
/**
 * What the proxy does with writes: pass them, pass them and answer 200 with a body that is not JSON, answer that
 * without passing, or pass them and answer late.
 */
let writes: 'pass' | 'garble' | 'drop' | 'slow' = 'pass';

before(async () => {
  api = await start({ seed: 'demo' });
  proxy = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const write = req.method !== 'GET';
      if (write && writes === 'drop') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('<html>');
      const upstream = await fetch(api.sb.url + req.url, {
        method: req.method,
        headers: { authorization: req.headers.authorization ?? '', 'content-type': req.headers['content-type'] ?? '' },
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      const text = await upstream.text();
      if (write && writes === 'garble') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"Key": "');
      if (write && writes === 'slow') await new Promise((r) => setTimeout(r, 300));
      res.writeHead(upstream.status, { 'Content-Type': upstream.headers.get('content-type') ?? 'application/json' }).end(text);
    })();
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  client = new OmsClient(createHttp({ baseUrl: url, token: () => api.sb.token }));
  binding = await bindingOf(client, 'Sandbox', url);
  const head = await api.folder('Head Office');
  folderKey = (await api.folder('Floor 1', head.Key)).Key;
  assert.equal((await api.post(`/api/f/${folderKey}/people`, person('Pat', 'Put'))).status, 201);
});
after(async () => {
  proxy.close();
  await api.sb.close();
});
beforeEach(async () => {
  writes = 'pass';
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-lost-'));
  await pull(client, root, binding, { scope: { folderKey, recursive: false, kinds: ['person'] } });
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

async function people(): Promise<BaseInfo[]> {
  return api.listAll(folderKey, 'people');
}

/** New files (no Key) in the folder's people directory. */
async function newPeople(names: string[]): Promise<void> {
  const dir = path.join(root, Object.values((await readManifest(root))!.folders)[0], 'people');
  await fs.mkdir(dir, { recursive: true });
  for (const name of names) {
    const [given, surname] = name.split(' ');
    await fs.writeFile(
      path.join(dir, `${name.toLowerCase().replace(' ', '-')}.json`),
      JSON.stringify(fileForm(kind('person'), person(given, surname)), null, 2),
    );
  }
}

async function creates(): Promise<string[]> {
  return (await makePlan(client, root, binding)).plan.entries.filter((e) => e.action === 'create').map((e) => e.path);
}

test('a create answered 200 with a body that is not JSON: the next plan finds it and gives the file its Key; nothing is created twice', async () => {
  const before = (await people()).length;
  await newPeople(['Ada Lovelace', 'Alan Turing']);
  writes = 'garble';
  const first = await makePlan(client, root, binding);
  const results = await applyPlan(client, root, binding, first.plan, { stopOnError: false });
  assert.ok(
    results.every((r) => r.outcome === 'failed'),
    'the apply could not read the answers',
  );
  assert.equal((await people()).length, before + 2, 'both landed');
  writes = 'pass';
  const { plan } = await makePlan(client, root, binding);
  assert.deepEqual(
    plan.entries.filter((e) => e.action === 'create' || e.action === 'behind'),
    [],
    'neither is offered again',
  );
  assert.equal(plan.resolved?.length, 2);
  assert.match(plan.resolved?.[0] ?? '', /answer was lost/);
  const manifest = (await readManifest(root))!;
  for (const o of await people()) assert.ok(manifest.objects.get(o.Key!)!, `${String(o.CommonName)} is in the manifest`);
  await applyPlan(client, root, binding, plan, { stopOnError: false });
  assert.equal((await people()).length, before + 2);
});

test('a lost create with only a like object on the server is not ticked and says why; with none it may be sent again, saying so', async () => {
  await newPeople(['Grace Hopper', 'Edsger Dijkstra']);
  writes = 'garble';
  await applyPlan(client, root, binding, (await makePlan(client, root, binding)).plan, { stopOnError: false });
  writes = 'pass';
  // Someone changed Grace on the server meanwhile; Edsger's create never reached it.
  const grace = (await people()).find((p) => p.CommonName === 'Grace Hopper')!;
  await api.put(`/api/f/${folderKey}/people/${grace.Key}`, { ...grace, Surname: 'Murray Hopper' });
  const edsger = (await people()).find((p) => p.CommonName === 'Edsger Dijkstra')!;
  await api.delete(`/api/f/${folderKey}/people/${edsger.Key}`);
  const { plan } = await makePlan(client, root, binding);
  const held = plan.entries.find((e) => e.action === 'create' && e.path.includes('grace'))!;
  assert.equal(held.selected, false);
  assert.match(held.reason!, /like it/);
  const again = plan.entries.find((e) => e.action === 'create' && e.path.includes('edsger'))!;
  assert.equal(again.selected, true);
  assert.match(again.reason!, /answer was lost/);
});

test('a plan made in another clone after the answers were lost (so made later) is refused for those creates: nothing twice', async () => {
  await newPeople(['Katherine Johnson', 'Dorothy Vaughan']);
  const elsewhere = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-lost-clone-'));
  try {
    await fs.cp(root, elsewhere, { recursive: true, filter: (p) => !p.endsWith(`${path.sep}.oms`) }); // a clone: the files, not this machine's cache
    const before = (await people()).length;
    writes = 'garble';
    await applyPlan(client, root, binding, (await makePlan(client, root, binding)).plan, { stopOnError: false });
    writes = 'pass';
    assert.equal((await people()).length, before + 2, 'both landed, their answers lost');
    const theirs = (await makePlan(client, elsewhere, binding)).plan;
    assert.equal(theirs.entries.filter((e) => e.action === 'create' && e.selected).length, 2, 'the other clone never sent them');
    const results = await applyPlan(client, root, binding, theirs, { stopOnError: false });
    assert.deepEqual(
      results.map((r) => r.outcome),
      ['notSent', 'notSent'],
    );
    assert.match(results[0].reason ?? '', /outcome is not known/);
    assert.equal((await people()).length, before + 2, 'nothing created twice');
  } finally {
    await fs.rm(elsewhere, { recursive: true, force: true });
  }
});

for (const stop of ['its file written', 'the file it came from removed']) {
  test(`an apply killed once a create's answer was recorded, ${stop}, before the manifest: the next plan adopts it by its Key, nothing twice`, async () => {
    const name = stop === 'its file written' ? 'Hedy Lamarr' : 'Joan Clarke';
    const slug = name.toLowerCase().replace(' ', '-');
    await newPeople([name]);
    const dir = path.join(root, Object.values((await readManifest(root))!.folders)[0], 'people');
    const { plan } = await makePlan(client, root, binding);
    const killed = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-lost-killed-'));
    try {
      await fs.cp(root, killed, { recursive: true }); // the folder as the killed apply found it
      const before = (await people()).length;
      const [result] = await applyPlan(client, root, binding, plan, { stopOnError: false });
      assert.equal(result.outcome, 'applied');
      // Where the killed apply stopped: the create sent and answered (pending, with its Key), its file written with the Key.
      const entry = plan.entries.find((e) => e.action === 'create')!;
      const pending = new PendingCreates(killed);
      pending.record({ path: entry.path, kind: entry.kind, folderKey: entry.folderKey });
      pending.answered(entry.path, result.after!.Key!);
      const created = `${slug}.${result.after!.Key}.json`;
      const killedDir = path.join(killed, path.relative(root, dir));
      await fs.copyFile(path.join(dir, created), path.join(killedDir, created));
      if (stop !== 'its file written') await fs.rm(path.join(killedDir, `${slug}.json`));

      const next = (await makePlan(client, killed, binding)).plan;
      assert.deepEqual(
        next.entries.filter((e) => e.action === 'create' || e.action === 'invalid'),
        [],
        'not offered again, its Key not called unpulled',
      );
      assert.match(next.resolved?.[0] ?? '', /stopped before recording it/);
      assert.deepEqual(
        (await fs.readdir(killedDir)).filter((f) => f.startsWith(slug)),
        [created],
        'one file, with its Key',
      );
      assert.equal(
        (await readManifest(killed))!.objects.get(result.after!.Key!)?.path,
        path.relative(killed, path.join(killedDir, created)).split(path.sep).join('/'),
      );
      assert.equal(new PendingCreates(killed).size, 0, 'settled');
      assert.equal((await people()).length, before + 1);
    } finally {
      await fs.rm(killed, { recursive: true, force: true });
    }
  });
}

test('a PUT that landed but whose answer was lost: the next plan counts it applied, not stale', async () => {
  const one = (await people()).find((p) => p.CommonName === 'Pat Put')!;
  const manifest = (await readManifest(root))!;
  const file = path.join(root, manifest.objects.get(one.Key!)!.path);
  const o = JSON.parse(await fs.readFile(file, 'utf8')) as BaseInfo;
  await fs.writeFile(file, JSON.stringify({ ...o, Surname: 'Changed' }, null, 2));
  writes = 'garble';
  const [result] = await applyPlan(client, root, binding, (await makePlan(client, root, binding)).plan, { stopOnError: false });
  assert.equal(result.outcome, 'failed');
  writes = 'pass';
  assert.equal((await api.get(`/api/f/${folderKey}/people/${one.Key}`)).body.Surname, 'Changed');
  const { plan } = await makePlan(client, root, binding);
  assert.deepEqual(plan.entries, [], 'nothing stale, nothing to send');
  assert.equal((await readManifest(root))!.objects.get(one.Key!)!.version, (await api.get(`/api/f/${folderKey}/people/${one.Key}`)).body.ConcurrencyVersion);
});

test('an apply of 200 creates killed mid-way: the next plan and apply create each object once', { timeout: 120_000 }, async () => {
  const before = (await people()).length;
  await newPeople(Array.from({ length: 200 }, (_, i) => `Person${i} Killed`));
  writes = 'slow';
  const child = fork(path.join(__dirname, 'applyChild.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, OMS_ROOT: root, OMS_URL: url, OMS_TOKEN: api.sb.token },
    stdio: 'ignore',
  });
  const exited = new Promise((r) => child.once('exit', r));
  for (let landed = 0; landed < 40;) {
    await new Promise((r) => setTimeout(r, 50));
    landed = (await people()).length - before;
  }
  child.kill('SIGKILL');
  await exited;
  await new Promise((r) => setTimeout(r, 500)); // the writes in flight land
  writes = 'pass';
  const landed = (await people()).length - before;
  assert.ok(landed > 0 && landed < 200, `${landed} landed before the kill`);
  const { plan } = await makePlan(client, root, binding);
  assert.equal(plan.entries.filter((e) => e.action === 'create' && e.selected).length, 200 - landed, 'only the creates that did not land');
  await applyPlan(client, root, binding, plan, { stopOnError: false });
  const all = await people();
  assert.equal(all.length, before + 200);
  assert.equal(new Set(all.map((p) => p.CommonName)).size, all.length, 'no object twice');
  assert.deepEqual(await creates(), []);
});
