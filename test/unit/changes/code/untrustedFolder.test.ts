/** A pulled folder is untrusted input: nothing it names outside itself, or through a link, is read, written or removed. */
import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHttp } from '../../../../src/api/http';
import { OmsClient } from '../../../../src/api/client';
import { applyPlan } from '../../../../src/changes/code/apply';
import { hashOf } from '../../../../src/changes/code/fileForm';
import { ConnectionBinding, manifestName, Manifest, ManifestObject } from '../../../../src/changes/code/manifest';

/** The manifest as its file holds it (JSON: its objects a record). */
type ManifestFile = Omit<Manifest, 'objects'> & { objects: Record<string, ManifestObject> };
import { makePlan, Plan } from '../../../../src/changes/code/plan';
import { readPlanFile, savePlanFile } from '../../../../src/changes/code/planFile';
import { bindingOf, editsSincePull, pull } from '../../../../src/changes/code/pull';
import { Api, start } from '../../sandbox/harness';

let api: Api;
let client: OmsClient;
let binding: ConnectionBinding;
let floor1: string;
/** `base/pulled` is the pulled folder; `base/outside` and `base/README.md` are beside it. */
let base: string;
let root: string;
let outside: string;

before(async () => {
  api = await start({ seed: 'demo' });
  client = new OmsClient(createHttp({ baseUrl: api.sb.url, token: () => api.sb.token }));
  binding = await bindingOf(client, 'Sandbox', api.sb.url);
  floor1 = (await api.folder('Floor 1', (await api.folder('Head Office')).Key)).Key;
});
after(() => api.sb.close());
beforeEach(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-untrusted-'));
  root = path.join(base, 'pulled');
  outside = path.join(base, 'outside');
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'keep.txt'), 'mine\n');
  await fs.writeFile(path.join(base, 'README.md'), '# not yours\n');
  await pull(client, root, binding, { scope: { folderKey: floor1, recursive: false, kinds: ['inputScanner'] } });
});
afterEach(() => fs.rm(base, { recursive: true, force: true }));

async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(e.parentPath, e.name);
    out[path.relative(dir, p)] = e.isSymbolicLink() ? `-> ${await fs.readlink(p)}` : e.isFile() ? await fs.readFile(p, 'utf8') : '/';
  }
  return out;
}

/** Everything beside the pulled folder, as it is now. */
async function besides(): Promise<Record<string, string>> {
  return { ...(await tree(outside)), README: await fs.readFile(path.join(base, 'README.md'), 'utf8') };
}

async function manifest(): Promise<ManifestFile> {
  return JSON.parse(await fs.readFile(path.join(root, manifestName), 'utf8')) as ManifestFile;
}

async function editManifest(edit: (m: ManifestFile) => void): Promise<void> {
  const m = await manifest();
  edit(m);
  await fs.writeFile(path.join(root, manifestName), JSON.stringify(m, null, 2));
}

async function scannerFiles(): Promise<string[]> {
  return Object.values((await manifest()).objects)
    .map((o) => o.path)
    .sort();
}

test('a manifest folder directory of ../outside/x: Pull Again moves nothing out, names the folder, and pulls the rest', async () => {
  const before = await besides();
  const files = await scannerFiles();
  await editManifest((m) => {
    m.folders[floor1] = '../outside/x';
  });
  const report = await pull(client, root, binding, {});
  assert.deepEqual(await besides(), before, 'nothing beside the pulled folder changed');
  assert.ok(
    report.refused.some((r) => r.includes(floor1) && r.includes('../outside/x')),
    report.refused.join('\n'),
  );
  for (const f of files) await fs.access(path.join(root, f));
  const { plan } = await makePlan(client, root, binding);
  const refused = plan.entries.find((e) => e.action === 'invalid' && e.reason?.includes('../outside/x'));
  assert.ok(refused, 'the plan names the refused folder');
});

test('an object path of ../README.md with that file\'s hash: a pull neither deletes nor moves it, with or without "overwrite"', async () => {
  const before = await besides();
  const [first] = Object.keys((await manifest()).objects);
  await editManifest((m) => {
    m.objects[first] = { ...m.objects[first], path: '../README.md', hash: hashOf(before.README) };
  });
  const report = await pull(client, root, binding, {});
  assert.deepEqual(await besides(), before);
  assert.ok(
    report.refused.some((r) => r.includes('../README.md')),
    report.refused.join('\n'),
  );
  await editManifest((m) => {
    m.objects[first] = { ...m.objects[first], path: '../README.md', hash: 'f'.repeat(32) };
  });
  await pull(client, root, binding, { overwriteEdits: true });
  assert.deepEqual(await besides(), before);
  assert.equal((await scannerFiles()).filter((f) => f.startsWith('..')).length, 0, 'the object has its own file inside again');
});

test('a saved plan entry naming a file outside: Apply neither reads, sends nor rewrites it, and applies the rest', async () => {
  const [one, two] = await scannerFiles();
  for (const f of [one, two]) {
    const o = JSON.parse(await fs.readFile(path.join(root, f), 'utf8')) as Record<string, unknown>;
    o.NonSettlingErrorPriority = 5;
    await fs.writeFile(path.join(root, f), JSON.stringify(o, null, 2));
  }
  const { plan } = await makePlan(client, root, binding);
  const saved = JSON.parse(JSON.stringify(plan)) as Plan;
  const bad = saved.entries.find((e) => e.path === one)!;
  const stolen = await fs.readFile(path.join(root, one), 'utf8');
  await fs.writeFile(path.join(outside, 'victim.json'), stolen);
  bad.path = '../outside/victim.json';
  const key = bad.key!;
  const versionBefore = (await api.get(`/api/f/${floor1}/inputscanners/${key}`)).body.ConcurrencyVersion as number;
  const before = await besides();
  const results = await applyPlan(client, root, binding, saved, { stopOnError: false });
  assert.deepEqual(await besides(), before);
  const refused = results.find((r) => r.id === bad.id)!;
  assert.equal(refused.outcome, 'notSent');
  assert.match(refused.reason!, /victim\.json/);
  assert.equal((await api.get(`/api/f/${floor1}/inputscanners/${key}`)).body.ConcurrencyVersion, versionBefore, 'nothing was sent for it');
  assert.equal(results.filter((r) => r.outcome === 'applied').length, 1, 'the other entry was applied');
});

test('a saved delete whose path disagrees with the manifest deletes nothing whose file is still there', async () => {
  const m = await manifest();
  const [[gone, goneEntry], [kept]] = Object.entries(m.objects);
  await fs.rm(path.join(root, goneEntry.path));
  const { plan } = await makePlan(client, root, binding, { includeDeletes: true });
  const saved = JSON.parse(JSON.stringify(plan)) as Plan;
  const del = saved.entries.find((e) => e.action === 'delete' && e.key === gone)!;
  del.selected = true;
  del.key = kept;
  del.id = kept;
  del.base = { version: m.objects[kept].version, hash: m.objects[kept].hash };
  del.live = { version: m.objects[kept].version };
  const results = await applyPlan(client, root, binding, saved, { stopOnError: false });
  assert.equal(results.find((r) => r.id === kept)?.outcome, 'notSent');
  assert.equal((await api.get(`/api/f/${floor1}/inputscanners/${kept}`)).status, 200, 'the object whose file is there was not deleted');
});

test('a kind folder, an object file or .oms/ replaced by a link: nothing is written through it', async () => {
  const files = await scannerFiles();
  const kindDir = path.dirname(path.join(root, files[0]));
  // An object file that links outside: "overwrite" rewrites neither it nor its target.
  await fs.writeFile(path.join(outside, 'victim.json'), '{"mine": true}\n');
  await fs.rm(path.join(root, files[0]));
  await fs.symlink(path.join(outside, 'victim.json'), path.join(root, files[0]));
  let before = await besides();
  const overwrite = await pull(client, root, binding, { overwriteEdits: true });
  assert.deepEqual(await besides(), before);
  assert.ok(
    overwrite.refused.some((r) => r.includes(files[0])),
    overwrite.refused.join('\n'),
  );
  const { plan } = await makePlan(client, root, binding);
  assert.match(plan.entries.find((e) => e.path === files[0])?.reason ?? '', /symbolic link/);

  // The kind folder a link to an empty folder outside: the pull writes nothing there.
  await fs.rm(kindDir, { recursive: true });
  await fs.mkdir(path.join(outside, 'empty'));
  await fs.symlink(path.join(outside, 'empty'), kindDir);
  before = await besides();
  const linked = await pull(client, root, binding, { overwriteEdits: true });
  assert.deepEqual(await besides(), before);
  assert.ok(linked.refused.length > 0);

  // .oms/ a link outside: refused before anything is written (an outside .gitignore once became "*").
  await fs.rm(path.join(root, '.oms'), { recursive: true });
  await fs.symlink(outside, path.join(root, '.oms'));
  before = await besides();
  await assert.rejects(pull(client, root, binding, {}), /\.oms is a symbolic link/);
  await assert.rejects(makePlan(client, root, binding), /\.oms is a symbolic link/);
  assert.deepEqual(await besides(), before);
});

test('a link left where the manifest was once written first (its name and this process id): the manifest is written, nothing through the link', async () => {
  await fs.writeFile(path.join(outside, 'victim.json'), '{"mine": true}\n');
  await fs.symlink(path.join(outside, 'victim.json'), path.join(root, `${manifestName}.${process.pid}.tmp`));
  const before = await besides();
  // Another label for the same connection: the pull writes the manifest's head again.
  await pull(client, root, { ...binding, label: 'Renamed' }, {});
  assert.deepEqual(await besides(), before);
  assert.equal((await manifest()).connection.label, 'Renamed');
  assert.equal((await fs.lstat(path.join(root, manifestName))).isFile(), true);
});

test('a file nested 5,000 levels deep is an invalid entry with its name, in plan, pull and Pull Again', async () => {
  const [one] = await scannerFiles();
  const deep = `{"a": ${'['.repeat(5000)}${']'.repeat(5000)}}`;
  await fs.writeFile(path.join(root, one), deep);
  await fs.writeFile(path.join(path.dirname(path.join(root, one)), 'new.json'), deep);
  const { plan } = await makePlan(client, root, binding);
  const invalid = plan.entries.filter((e) => e.action === 'invalid');
  assert.deepEqual(invalid.map((e) => e.path).sort(), [one, `${path.posix.dirname(one)}/new.json`].sort());
  assert.ok(invalid.every((e) => /nests more than/.test(e.reason!)));
  assert.deepEqual(await editsSincePull(root), [one]);
  const again = await pull(client, root, binding, {});
  assert.deepEqual(again.keptEdits, [one]);
});

test('garbage in .oms/: a journal line "null" is named and ignored; .oms/bases a folder is a clear message', async () => {
  await fs.appendFile(path.join(root, '.oms', 'journal.jsonl'), 'null\n{"key": 1}\n');
  const { plan } = await makePlan(client, root, binding);
  assert.equal(plan.entries.filter((e) => /journal\.jsonl:\d/.test(e.reason ?? '')).length, 2);
  await fs.rm(path.join(root, '.oms', 'bases'));
  await fs.mkdir(path.join(root, '.oms', 'bases'));
  await assert.rejects(makePlan(client, root, binding), (e: Error) => /\.oms\/bases is not a file/.test(e.message) && !/EISDIR/.test(e.message));
});

test('Save Plan into a folder whose plans/ is a link out of it: refused, nothing written there', async () => {
  const { plan } = await makePlan(client, root, binding);
  await fs.symlink(outside, path.join(root, 'plans'));
  const before = await besides();
  assert.throws(() => savePlanFile(root, plan), /plans is a symbolic link/);
  assert.deepEqual(await besides(), before);
  // Made by the save itself, plans/ holds the plan.
  await fs.rm(path.join(root, 'plans'));
  const saved = savePlanFile(root, plan);
  assert.equal(path.dirname(saved), path.join(root, 'plans'));
  assert.equal((await readPlanFile(saved)).id, plan.id);
});
