/** What a pull and a plan make of a pulled folder's shape: another scope, files moved or renamed by hand, a hand-edited hash. */
import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHttp } from '../../../../src/api/http';
import { OmsClient } from '../../../../src/api/client';
import { ConnectionBinding, manifestName, Manifest, ManifestObject, readManifest } from '../../../../src/changes/code/manifest';
import { makePlan } from '../../../../src/changes/code/plan';
import { bindingOf, pull, ScopeChange } from '../../../../src/changes/code/pull';
import type { BaseInfo } from '../../../../src/model/types';
import { Api, start } from '../../sandbox/harness';

let api: Api;
let client: OmsClient;
let binding: ConnectionBinding;
let head: string;
let floor1: string;
let root: string;

before(async () => {
  api = await start({ seed: 'demo' });
  client = new OmsClient(createHttp({ baseUrl: api.sb.url, token: () => api.sb.token }));
  binding = await bindingOf(client, 'Sandbox', api.sb.url);
  head = (await api.folder('Head Office')).Key;
  floor1 = (await api.folder('Floor 1', head)).Key;
});
after(() => api.sb.close());
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-shape-'));
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

async function manifest(): Promise<Manifest> {
  return (await readManifest(root))!;
}

async function exists(rel: string): Promise<boolean> {
  return fs.access(path.join(root, rel)).then(
    () => true,
    () => false,
  );
}

test('a pull of another scope into a pulled folder asks first, naming what it removes; never over edited files', async () => {
  await pull(client, root, binding, { scope: { folderKey: floor1, recursive: false, kinds: ['inputScanner'] } });
  const floor1Files = [...(await manifest()).objects.values()].map((o) => o.path);
  const other = { folderKey: head, recursive: false, kinds: ['person' as const] };
  await assert.rejects(pull(client, root, binding, { scope: other }), (e: unknown) => e instanceof ScopeChange && e.message.includes(floor1Files[0]));
  for (const f of floor1Files) assert.ok(await exists(f), `${f} is still there`);

  const edited = path.join(root, floor1Files[0]);
  await fs.writeFile(edited, (await fs.readFile(edited, 'utf8')).replace('"CommonName": "', '"CommonName": "Edited '));
  await assert.rejects(pull(client, root, binding, { scope: other, replaceScope: true }), /edited since/);
  assert.ok(await exists(floor1Files[0]));

  await fs.rm(root, { recursive: true });
  await pull(client, root, binding, { scope: { folderKey: floor1, recursive: false, kinds: ['inputScanner'] } });
  await pull(client, root, binding, { scope: other, replaceScope: true });
  for (const f of floor1Files) assert.ok(!(await exists(f)), `${f} was replaced, as agreed`);
  assert.deepEqual(Object.keys((await manifest()).folders), [head]);
  const { plan } = await makePlan(client, root, binding);
  assert.deepEqual(plan.entries, [], 'no leftover folder makes objects behind');
});

test("a file moved into another folder's or kind's directory is invalid, with the reason", async () => {
  await pull(client, root, binding, { scope: { folderKey: head, recursive: true, kinds: ['inputScanner', 'person'] } });
  const m = await manifest();
  const scanner = [...m.objects.values()].find((o) => o.kind === 'inputScanner' && o.folderKey === floor1)!;
  const otherFolder = Object.keys(m.folders).find((k) => k !== floor1)!;
  const elsewhere = `${m.folders[otherFolder]}/inputscanners/${path.posix.basename(scanner.path)}`;
  await fs.mkdir(path.dirname(path.join(root, elsewhere)), { recursive: true });
  await fs.rename(path.join(root, scanner.path), path.join(root, elsewhere));
  let { plan } = await makePlan(client, root, binding);
  assert.match(plan.entries.find((e) => e.path === elsewhere)?.reason ?? '', /belongs in/);
  assert.equal(plan.entries.find((e) => e.path === elsewhere)?.action, 'invalid');

  const asPerson = `${m.folders[floor1]}/people/${path.posix.basename(scanner.path)}`;
  await fs.mkdir(path.dirname(path.join(root, asPerson)), { recursive: true });
  await fs.rename(path.join(root, elsewhere), path.join(root, asPerson));
  ({ plan } = await makePlan(client, root, binding));
  const entry = plan.entries.find((e) => e.path === asPerson);
  assert.equal(entry?.action, 'invalid');
  assert.equal(entry?.selected, false);
});

test('a file renamed by hand: Pull Again with "overwrite" finds it by its Key; never two files with one Key', async () => {
  await pull(client, root, binding, { scope: { folderKey: floor1, recursive: false, kinds: ['inputScanner'] } });
  const [key, entry] = [...(await manifest()).objects][0];
  const renamed = `${path.posix.dirname(entry.path)}/my-name.json`;
  const text = await fs.readFile(path.join(root, entry.path), 'utf8');
  await fs.rename(path.join(root, entry.path), path.join(root, renamed));
  await fs.writeFile(path.join(root, renamed), text.replace('"CommonName": "', '"CommonName": "Mine '));
  await pull(client, root, binding, { overwriteEdits: true });
  const holding: string[] = [];
  for (const name of await fs.readdir(path.join(root, path.posix.dirname(entry.path)))) {
    const o = JSON.parse(await fs.readFile(path.join(root, path.posix.dirname(entry.path), name), 'utf8')) as BaseInfo;
    if (o.Key === key) holding.push(name);
  }
  assert.deepEqual(holding, [path.posix.basename(entry.path)]);
  const { plan } = await makePlan(client, root, binding);
  assert.deepEqual(plan.entries, []);
});

test('a hand-edited manifest hash is no update: an entry with no changed field is not one', async () => {
  await pull(client, root, binding, { scope: { folderKey: floor1, recursive: false, kinds: ['inputScanner'] } });
  const m = JSON.parse(await fs.readFile(path.join(root, manifestName), 'utf8')) as { objects: Record<string, ManifestObject> };
  const key = Object.keys(m.objects)[0];
  m.objects[key].hash = '0'.repeat(32);
  await fs.writeFile(path.join(root, manifestName), JSON.stringify(m, null, 2));
  const { plan } = await makePlan(client, root, binding);
  assert.deepEqual(
    plan.entries.filter((e) => e.action === 'update'),
    [],
  );
  assert.deepEqual((await makePlan(client, root, binding)).plan.entries, [], 'and it stays away');
});
