/** Plan against a real sandbox: files vs what was pulled vs the server (update, delete, stale, behind, invalid). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { applyPlan } from '../../../../src/changes/code/apply';
import { manifestName } from '../../../../src/changes/code/manifest';
import { makePlan } from '../../../../src/changes/code/plan';
import { pull } from '../../../../src/changes/code/pull';
import type { BaseInfo } from '../../../../src/model/types';
import { api, client, requests, binding, floor1, root, scope, scannerFiles, editFile, live, keyOf, actions } from './fixture';

test('plan: updates with their changed fields, deletes only when opted in, stale when both moved; in a few requests', async () => {
  await pull(client, root, binding, { scope: scope() });
  const [a, b, c, d] = await scannerFiles();
  for (const f of [a, b, c])
    await editFile(f, (o) => {
      o.InputScannerReportingPriorities[1].Priority += 1;
    });
  await fs.rm(path.join(root, d));
  requests.length = 0;
  const { plan } = await makePlan(client, root, binding);
  assert.deepEqual(actions(plan), { update: 3, deleteSkipped: 1 });
  assert.ok(requests.length <= 3, `pages, not objects (${requests.length} requests)`);
  const update = plan.entries.find((e) => e.path === a)!;
  assert.deepEqual(
    update.changes.map((ch) => ch.pointer),
    ['/InputScannerReportingPriorities/1/Priority'],
  );
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
  assert.deepEqual(
    staleEntry.serverChanges?.map((ch) => ch.pointer),
    ['/NonSettlingErrorPriority'],
  );
});
test("a plan asks for each page with the last pull's tag: unchanged (304), its objects are at their pulled versions, only an edited one is read", async () => {
  await pull(client, root, binding, { scope: scope() });
  const [a, b, c] = await scannerFiles();
  const pulledA = await fs.readFile(path.join(root, a), 'utf8');
  await editFile(a, (o) => {
    o.NonSettlingErrorPriority = 6;
  });
  const reads = () =>
    requests
      .filter((r) => r.method === 'GET' && r.path.startsWith(`/api/f/${floor1}/inputscanners`))
      .map((r) => `${r.path.split('?')[0].split('/').pop()} ${r.status}`);
  requests.length = 0;
  const { plan } = await makePlan(client, root, binding);
  assert.deepEqual(reads(), ['inputscanners 304', `${keyOf(a)} 200`]);
  assert.deepEqual(actions(plan), { update: 1 });
  assert.deepEqual(
    plan.entries[0].changes.map((ch) => ch.pointer),
    ['/NonSettlingErrorPriority'],
  );
  assert.equal(plan.entries[0].live?.version, (await live(keyOf(a))).ConcurrencyVersion);

  // Moved on the server: its page is read whole.
  await api.put(`/api/f/${floor1}/inputscanners/${keyOf(b)}`, { ...(await live(keyOf(b))), NonSettlingErrorPriority: 2 });
  requests.length = 0;
  assert.deepEqual(actions((await makePlan(client, root, binding)).plan), { update: 1, behind: 1 });
  assert.deepEqual(reads(), ['inputscanners 200']);

  // A manifest that is not what the pull wrote (an older one from git): the 304 is not taken for its versions.
  await fs.writeFile(path.join(root, a), pulledA);
  await pull(client, root, binding, {});
  const manifestFile = path.join(root, manifestName);
  const version = (await live(keyOf(c))).ConcurrencyVersion!;
  const text = await fs.readFile(manifestFile, 'utf8');
  const line = text.split('\n').find((l) => l.includes(`"${keyOf(c)}": `))!;
  await fs.writeFile(manifestFile, text.replace(line, line.replace(`"version":${version}`, `"version":${version - 1}`)));
  requests.length = 0;
  const older = (await makePlan(client, root, binding)).plan;
  assert.deepEqual(reads(), ['inputscanners 304', 'inputscanners 200']);
  assert.deepEqual(actions(older), { behind: 1 });
  assert.equal(older.entries[0].key, keyOf(c));
});
test('behind: only the server moved; the plan shows its changes and a pull brings them, after which the plan is clean', async () => {
  await pull(client, root, binding, { scope: scope() });
  const [a] = await scannerFiles();
  const current = await live(keyOf(a));
  await api.put(`/api/f/${floor1}/inputscanners/${keyOf(a)}`, { ...current, NonSettlingErrorStatus: 3 });
  const { plan } = await makePlan(client, root, binding);
  assert.deepEqual(actions(plan), { behind: 1 });
  assert.deepEqual(
    plan.entries[0].serverChanges?.map((ch) => ch.pointer),
    ['/NonSettlingErrorStatus'],
  );
  assert.equal(plan.entries[0].selected, false);
  const report = await pull(client, root, binding, {});
  assert.equal(report.written, 1);
  assert.deepEqual(actions((await makePlan(client, root, binding)).plan), {});
});
test('invalid: schema, server-owned fields, two files with one Key, a broken file; nothing of it is sent', async () => {
  await pull(client, root, binding, { scope: scope() });
  const [a, b, c, d] = await scannerFiles();
  await editFile(a, (o) => {
    o.InputScannerReportingPriorities.push(o.InputScannerReportingPriorities[0]);
  });
  await editFile(b, (o) => {
    (o as BaseInfo).Notes = [];
  });
  await fs.copyFile(path.join(root, c), path.join(root, path.posix.dirname(c), 'copy.json'));
  await fs.writeFile(path.join(root, d), '{ "broken": ');
  const { plan } = await makePlan(client, root, binding);
  const reasons = plan.entries.map((e) => `${e.action}: ${e.reason ?? ''}`).join('\n');
  assert.deepEqual(actions(plan), { invalid: 5 }, reasons);
  assert.match(reasons, /Schema: \/InputScannerReportingPriorities/);
  assert.match(reasons, /Notes is the server's to set/);
  assert.match(reasons, /is held by more than one file/);
  assert.match(reasons, /not valid JSON/);
  for (const e of plan.entries) e.selected = true;
  requests.length = 0;
  const results = await applyPlan(client, root, binding, plan, { stopOnError: false });
  assert.ok(results.every((r) => r.outcome === 'notSent'));
  assert.equal(requests.length, 0);
});
test("a pull of chosen objects (a query's results): its plan lists none of the scope's others, and pulling it again refreshes just those", async () => {
  const onServer = await api.listAll(floor1, 'inputscanners');
  assert.ok(onServer.length >= 3, 'a scope with objects left out');
  const chosen = onServer.slice(0, 2).map((o) => o.Key!);
  const report = await pull(client, root, binding, { scope: scope(), only: new Set(chosen) });
  assert.equal(report.objects, 2, 'the report counts the objects pulled, not those listed');
  assert.deepEqual((await scannerFiles()).map(keyOf).sort(), [...chosen].sort());
  const { plan } = await makePlan(client, root, binding, { includeDeletes: true });
  assert.deepEqual(actions(plan), {}, 'not pulled is not "new on the server", and never a delete');
  // Changed on the server: a pulled one is behind; one not pulled stays out of the plan.
  for (const key of [chosen[0], onServer[2].Key!]) await api.put(`/api/f/${floor1}/inputscanners/${key}`, { ...(await live(key)), NonSettlingErrorStatus: 3 });
  const { plan: later } = await makePlan(client, root, binding);
  assert.deepEqual(actions(later), { behind: 1 });
  assert.equal(later.entries[0].key, chosen[0]);
  await pull(client, root, binding, {});
  assert.deepEqual((await scannerFiles()).map(keyOf).sort(), [...chosen].sort(), 'pulled again: the same objects, no other');
  assert.deepEqual(actions((await makePlan(client, root, binding)).plan), {});
  // A whole pull of the scope then makes it the folder's again.
  await pull(client, root, binding, { scope: scope() });
  assert.equal((await scannerFiles()).length, onServer.length);
});
