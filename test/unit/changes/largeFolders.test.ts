/**
 * What keeps objects as code linear in a folder's size, against a real sandbox: the manifest a line per object,
 * written by the changed lines; files not read again while their stat matches; a plan keeping only what it shows.
 */
import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs, statSync, utimesSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { applyPlan } from '../../../src/changes/code/apply';
import { ConnectionBinding, Manifest, manifestName, readManifest } from '../../../src/changes/code/manifest';
import { makePlan } from '../../../src/changes/code/plan';
import { bindingOf, pull } from '../../../src/changes/code/pull';
import { kind } from '../../../src/model/kinds';
import type { InputScannerInfo } from '../../../src/model/types';
import { Api, start } from '../sandbox/harness';

let api: Api;
let client: OmsClient;
let binding: ConnectionBinding;
let floor1: string;
let root: string;
const scanners = kind('inputScanner');

before(async () => {
  api = await start({ seed: 'demo' });
  client = new OmsClient(createHttp({ baseUrl: api.sb.url, token: () => api.sb.token }));
  binding = await bindingOf(client, 'Sandbox', api.sb.url);
  floor1 = (await api.folder('Floor 1', (await api.folder('Head Office')).Key)).Key;
});
after(() => api.sb.close());
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-large-'));
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

const scope = () => ({ folderKey: floor1, recursive: false, kinds: [scanners.id] });
const manifestText = () => fs.readFile(path.join(root, manifestName), 'utf8');

/** The object lines of a manifest's text. */
function objectLines(text: string): string[] {
  const lines = text.split('\n');
  return lines.slice(lines.indexOf('  "objects": {') + 1, lines.lastIndexOf('  }'));
}

async function pulledFiles(): Promise<string[]> {
  return [...(await readManifest(root))!.objects.values()].map((o) => o.path).sort();
}

/** Rewrites a file with an edit of the same size, then puts its modification time back. */
async function sameSizeEdit(rel: string, mtime: Date): Promise<void> {
  const file = path.join(root, rel);
  const text = await fs.readFile(file, 'utf8');
  const edited = text.replace('"CommonName": "F', '"CommonName": "f');
  assert.notEqual(edited, text);
  await fs.writeFile(file, edited);
  utimesSync(file, mtime, mtime);
}

/** As JSON holds it: the manifest's records have no prototype (a Key such as `__proto__` is an entry). */
/** A manifest as its file holds it: plain JSON, its objects a record. */
const plain = (m: Manifest | undefined) => JSON.parse(JSON.stringify({ ...m, objects: Object.fromEntries(m?.objects ?? []) })) as unknown;

test('the manifest holds one line per object, sorted: a changed object is one changed line, a pull with nothing new leaves the file as it is', async () => {
  await pull(client, root, binding, { scope: scope() });
  const text = await manifestText();
  const manifest = (await readManifest(root))!;
  const lines = objectLines(text).map((l) => l.replace(/,$/, ''));
  assert.equal(lines.length, manifest.objects.size, 'a line per object');
  assert.deepEqual(lines, [...lines].sort());
  assert.deepEqual(JSON.parse(text), plain(manifest), 'still one JSON document');
  const before = statSync(path.join(root, manifestName));
  await pull(client, root, binding, {});
  assert.equal(statSync(path.join(root, manifestName)).ino, before.ino, 'not written again');

  const [one] = await pulledFiles();
  const key = one.split('.').slice(-2, -1)[0];
  await fs.writeFile(path.join(root, one), (await fs.readFile(path.join(root, one), 'utf8')).replace('"CommonName": "F', '"CommonName": "FF'));
  const { plan } = await makePlan(client, root, binding);
  const [applied] = await applyPlan(client, root, binding, plan, { stopOnError: false });
  assert.equal(applied.outcome, 'applied');
  const after = (await manifestText()).split('\n');
  const changed = text.split('\n').filter((l, i) => l !== after[i]);
  assert.equal(changed.length, 1, 'one line of the diff');
  assert.ok(changed[0].includes(JSON.stringify(key)));
  assert.deepEqual(
    (await readManifest(root, [key]))!.objects,
    new Map([[key, (await readManifest(root))!.objects.get(key)!]]),
    'an apply reads its objects alone',
  );
});

test('a manifest of another form (pretty-printed, hand-edited out of order) is read whole and written a line per object, no object twice', async () => {
  await pull(client, root, binding, { scope: scope() });
  const manifest = (await readManifest(root))!;
  const keys = [...manifest.objects.keys()];
  const reversed = { ...manifest, objects: Object.fromEntries(keys.reverse().map((k) => [k, manifest.objects.get(k)!])) };
  await fs.writeFile(path.join(root, manifestName), JSON.stringify(reversed, null, 2) + '\n');
  assert.deepEqual(plain(await readManifest(root)), JSON.parse(JSON.stringify(reversed)));
  const [one] = await pulledFiles();
  const key = one.split('.').slice(-2, -1)[0];
  await api.put(`/api/f/${floor1}/inputscanners/${key}`, {
    ...((await api.get(`/api/f/${floor1}/inputscanners/${key}`)).body as object),
    NonSettlingErrorPriority: 4,
  });
  await pull(client, root, binding, {});
  const text = await manifestText();
  assert.equal(objectLines(text).length, keys.length, 'a line per object, none twice');
  assert.equal((await readManifest(root))!.objects.get(key)!.version, manifest.objects.get(key)!.version! + 1);

  // Out of order, a line per object (a hand edit): the changed object's line is found, not added again.
  const lines = text.split('\n');
  const shuffled = objectLines(text)
    .map((l) => l.replace(/,$/, ''))
    .reverse();
  await fs.writeFile(path.join(root, manifestName), [...lines.slice(0, lines.indexOf('  "objects": {') + 1), shuffled.join(',\n'), '  }', '}', ''].join('\n'));
  await api.put(`/api/f/${floor1}/inputscanners/${key}`, {
    ...((await api.get(`/api/f/${floor1}/inputscanners/${key}`)).body as object),
    NonSettlingErrorPriority: 5,
  });
  await pull(client, root, binding, {});
  const again = await manifestText();
  assert.equal(again.split('\n').filter((l) => l.includes(JSON.stringify(key))).length, 1, 'no object twice');
  assert.equal((await readManifest(root))!.objects.get(key)!.version, manifest.objects.get(key)!.version! + 2);
});

test("a file whose size and modification time match what the pull wrote is not read again (as git's index); any edit that moves them is seen", async () => {
  await pull(client, root, binding, { scope: scope() });
  const [a, b, c] = await pulledFiles();
  // Times a file system keeps exactly (Node sets them in ms): a's a minute ago, c's a minute ahead.
  const past = new Date(Date.now() - 60_000),
    ahead = new Date(Date.now() + 60_000);
  utimesSync(path.join(root, a), past, past);
  utimesSync(path.join(root, c), ahead, ahead);
  await pull(client, root, binding, {}); // reads them (their stat moved), finds them as pulled and records their stat
  // a: an edit of the same size, its time put back: taken as unchanged, not read (git does the same).
  await sameSizeEdit(a, past);
  // b: edited now, its time moves: read, the edit kept and planned.
  await fs.writeFile(path.join(root, b), (await fs.readFile(path.join(root, b), 'utf8')).replace('"CommonName": "F', '"CommonName": "FF'));
  // c: "racily clean": modified no earlier than the stats were recorded, so its stat proves nothing: read.
  await sameSizeEdit(c, ahead);
  const report = await pull(client, root, binding, {});
  assert.deepEqual(report.keptEdits.sort(), [b, c].sort());
  const { plan } = await makePlan(client, root, binding);
  assert.deepEqual(
    plan.entries.map((e) => [e.path, e.action]).sort(),
    [
      [b, 'update'],
      [c, 'update'],
    ].sort(),
  );
});

test('a plan keeps the live objects of its entries only, not every listed one', async () => {
  await pull(client, root, binding, { scope: scope() });
  const [one] = await pulledFiles();
  const text = await fs.readFile(path.join(root, one), 'utf8');
  const edited = JSON.parse(text) as InputScannerInfo;
  edited.NonSettlingErrorPriority = 3;
  await fs.writeFile(path.join(root, one), JSON.stringify(edited, null, 2) + '\n');
  const { plan, live } = await makePlan(client, root, binding);
  assert.ok(plan.unchanged > 1);
  assert.deepEqual(
    [...live.keys()],
    plan.entries.map((e) => e.key),
  );
  assert.equal(live.get(plan.entries[0].key!)?.CommonName, edited.CommonName);
});
