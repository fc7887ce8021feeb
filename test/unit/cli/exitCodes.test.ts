/**
 * `oms apply` and `oms pull` exit codes tell the truth, against a sandbox: apply exits 0 only when every
 * entry of its plan was applied or unchanged (a stale, behind or invalid entry makes it 2, named); an
 * invalid file refuses the whole apply (1, nothing sent) unless --skip-invalid; pull names every
 * manifest entry it refused and why, and exits 2.
 */
import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BaseInfo } from '../../../src/model/types';
import { Api, start } from '../sandbox/harness';
import { buildOms, oms, OmsRun } from './oms';

const token = 'cli-exit-test-token-51c7e0';
let api: Api;
let warehouse: string;
let root: string;
let served: string[] = [];
const env: Record<string, string> = { OMS_TOKEN: token };

before(async () => {
  buildOms();
  api = await start({ seed: 'demo', token, log: (line) => served.push(line) });
  warehouse = (await api.folder('Warehouse')).Key;
  env.OMS_URL = api.sb.url; // as a pipeline names its service
});
after(() => api.sb.close());
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-cli-exit-'));
  ok(await oms(['pull', root, '--url', api.sb.url, '--folder', warehouse, '--kinds', 'inputScanner'], { env }));
  served = [];
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

const ok = (run: OmsRun, code = 0) => assert.equal(run.code, code, `exit ${run.code}\nstdout: ${run.out}\nstderr: ${run.err}`);
const writes = () => served.filter((l) => /^(PUT|POST|DELETE) \/api\//.test(l));

interface Pulled {
  key: string;
  rel: string;
  object: BaseInfo;
}

/** The pulled scanners, in the manifest's order. */
async function scanners(): Promise<Pulled[]> {
  const manifest = JSON.parse(await fs.readFile(path.join(root, 'oms.manifest.json'), 'utf8')) as { objects: Record<string, { path: string }> };
  return Promise.all(
    Object.entries(manifest.objects).map(async ([key, { path: rel }]) => ({
      key,
      rel,
      object: JSON.parse(await fs.readFile(path.join(root, rel), 'utf8')) as BaseInfo,
    })),
  );
}

async function rename({ rel, object }: Pulled, name: string): Promise<void> {
  await fs.writeFile(path.join(root, rel), JSON.stringify({ ...object, CommonName: name }, null, 2) + '\n');
}

/** Changes the object on the service (its version moves). */
async function changeOnService({ key }: Pulled, name: string): Promise<void> {
  const url = `/api/f/${warehouse}/inputscanners/${key}`;
  const live = (await api.get(url)).body as BaseInfo;
  const put = await api.put(url, { ...live, CommonName: name });
  assert.ok(put.status < 300, `PUT ${put.status}`);
}

test('a stale entry (changed here and on the service) is not sent: apply exits 2 and names it', async () => {
  const [a, b] = await scanners();
  await rename(a, 'Renamed here');
  await rename(b, 'Renamed here too');
  await changeOnService(a, 'Renamed there');
  const plan = await oms(['plan', root], { env });
  ok(plan);
  assert.match(plan.out, /1 stale/);
  served = [];

  const apply = await oms(['apply', root, '--auto-approve'], { env });
  ok(apply, 2);
  assert.match(apply.out, /stale 1/);
  assert.match(apply.out, /stale: Renamed here \(/, 'the stale entry is named with its reason');
  assert.deepEqual(writes().length, 1, 'the update that could go went');
});

test('an object changed on the service only (behind) makes apply exit 2, named', async () => {
  const [a, b] = await scanners();
  await rename(b, 'Renamed here');
  await changeOnService(a, 'Renamed on the service');
  const apply = await oms(['apply', root, '--auto-approve'], { env });
  ok(apply, 2);
  assert.match(apply.out, /behind: Renamed on the service \(/);
  assert.match(apply.out, /behind 1/);
});

test('nothing to send, but an entry is behind: exit 2, not "all applied"', async () => {
  const [a] = await scanners();
  await changeOnService(a, 'Renamed on the service alone');
  served = [];
  const apply = await oms(['apply', root, '--auto-approve'], { env });
  ok(apply, 2);
  assert.match(apply.out, /behind: Renamed on the service alone/);
  assert.deepEqual(writes(), []);
});

test('an invalid file refuses the whole apply (exit 1, nothing sent) unless --skip-invalid (exit 2, the rest sent, the invalid named)', async () => {
  const [a, b] = await scanners();
  await rename(a, 'Renamed with a broken neighbour');
  await fs.writeFile(path.join(root, b.rel), '{ "broken": ');
  const plan = await oms(['plan', root], { env });
  ok(plan, 1);

  const refused = await oms(['apply', root, '--auto-approve'], { env });
  ok(refused, 1);
  assert.match(refused.err, /invalid/i);
  assert.ok(refused.err.includes(path.basename(b.rel)), `the invalid file is named\n${refused.err}`);
  assert.match(refused.err, /--skip-invalid/);
  assert.match(refused.err, /Nothing was sent/);
  assert.deepEqual(writes(), [], 'nothing sent');

  const skipped = await oms(['apply', root, '--auto-approve', '--skip-invalid'], { env });
  ok(skipped, 2);
  assert.equal(writes().length, 1, 'the valid change went');
  assert.match(skipped.out, new RegExp(`invalid: ${path.basename(b.rel).replace(/\./g, '\\.')}`));
  assert.match(skipped.out, /invalid 1/);
});

test('a saved plan with an invalid entry is refused as a whole too, unless --skip-invalid', async () => {
  const [a, b] = await scanners();
  await rename(a, 'Renamed in a saved plan');
  await fs.writeFile(path.join(root, b.rel), '[]');
  const planFile = path.join(root, '..', `${path.basename(root)}.plan.json`);
  try {
    ok(await oms(['plan', root, '--out', planFile], { env }), 1);
    ok(await oms(['apply', root, planFile, '--auto-approve'], { env }), 1);
    assert.deepEqual(writes(), []);
    ok(await oms(['apply', root, planFile, '--auto-approve', '--skip-invalid'], { env }), 2);
    assert.equal(writes().length, 1);
  } finally {
    await fs.rm(planFile, { force: true });
  }
});

test('an error after writes went out (the manifest cannot be written back) is not "nothing was sent": exit 2', async () => {
  const [a, b] = await scanners();
  await rename(a, 'Renamed before the error');
  await rename(b, 'Renamed before the error too');
  await api.post('/sandbox/faults', { path: `/api/f/${warehouse}/inputscanners`, method: 'PUT', count: 10, delayMs: 400 });
  try {
    const run = oms(['apply', root, '--auto-approve'], { env });
    const url = `/api/f/${warehouse}/inputscanners/${a.key}`;
    while (((await api.get(url)).body as BaseInfo).CommonName !== 'Renamed before the error') await new Promise((r) => setTimeout(r, 20));
    // While the answers are on their way: the manifest replaced by a folder, so the apply cannot write it back.
    await fs.rename(path.join(root, 'oms.manifest.json'), path.join(root, 'moved.json'));
    await fs.mkdir(path.join(root, 'oms.manifest.json'));
    const apply = await run;
    ok(apply, 2);
    assert.match(apply.err, /stopped after sending \d+ writes?/);
  } finally {
    await api.delete('/sandbox/faults');
  }
});

test('every entry applied: exit 0', async () => {
  const [a] = await scanners();
  await rename(a, 'Renamed alone');
  const apply = await oms(['apply', root, '--auto-approve'], { env });
  ok(apply, 0);
  assert.match(apply.out, /Applied 1 /);
});

test('oms pull names each manifest entry it refused and why, and exits 2', async () => {
  const manifestFile = path.join(root, 'oms.manifest.json');
  const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8')) as { folders: Record<string, string> };
  manifest.folders[warehouse] = '../outside';
  await fs.writeFile(manifestFile, JSON.stringify(manifest, null, 2) + '\n');
  const pull = await oms(['pull', root], { env });
  ok(pull, 2);
  assert.ok(pull.err.includes(`folder ${warehouse} (../outside)`), `the folder entry is named\n${pull.err}`);
  assert.match(pull.err, /refused/);
  await assert.rejects(fs.stat(path.join(root, '..', 'outside')), 'nothing written outside the folder');
});
