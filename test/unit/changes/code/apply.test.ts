/** Apply and dry run against a real sandbox: only ticked entries, versions checked, creates, deletes, secrets kept. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { applyPlan, dryRun } from '../../../../src/changes/code/apply';
import { secretPlaceholder } from '../../../../src/changes/code/fileForm';
import { readManifest } from '../../../../src/changes/code/manifest';
import { makePlan, type Plan } from '../../../../src/changes/code/plan';
import { pull } from '../../../../src/changes/code/pull';
import type { BaseInfo } from '../../../../src/model/types';
import { api, client, requests, binding, floor1, root, scope, files, scannerFiles, editFile, live, keyOf, actions } from './fixture';

test('apply: only the ticked entries, each version +1; a stale entry sends nothing; the manifest moves forward and the next plan is clean', async () => {
  await pull(client, root, binding, { scope: scope() });
  const [a, b, c] = await scannerFiles();
  for (const f of [a, b, c])
    await editFile(f, (o) => {
      o.InputScannerReportingPriorities[1].Priority += 1;
    });
  const before = await Promise.all([a, b, c].map((f) => live(keyOf(f))));
  const { plan } = await makePlan(client, root, binding);
  plan.entries.find((e) => e.path === c)!.selected = false;
  requests.length = 0;
  const results = await applyPlan(client, root, binding, plan, { stopOnError: false });
  assert.deepEqual(
    results.map((r) => r.outcome),
    ['applied', 'applied'],
  );
  const afterA = await live(keyOf(a)),
    afterB = await live(keyOf(b)),
    afterC = await live(keyOf(c));
  assert.equal(afterA.ConcurrencyVersion, before[0].ConcurrencyVersion! + 1);
  assert.equal(afterA.InputScannerReportingPriorities[1].Priority, before[0].InputScannerReportingPriorities[1].Priority + 1);
  assert.equal(afterB.ConcurrencyVersion, before[1].ConcurrencyVersion! + 1);
  assert.deepEqual(afterC, before[2], 'the unticked one is untouched');
  assert.equal(requests.filter((r) => r.method === 'PUT').length, 2);
  assert.deepEqual(actions((await makePlan(client, root, binding)).plan), { update: 1 });
  assert.equal((await readManifest(root))!.objects.get(keyOf(a))!.version, afterA.ConcurrencyVersion);

  // c changes on the server: the same plan entry is now stale and nothing is sent for it.
  await api.put(`/api/f/${floor1}/inputscanners/${keyOf(c)}`, { ...afterC, NonSettlingErrorPriority: 5 });
  plan.entries.find((e) => e.path === c)!.selected = true;
  const movedOn = await live(keyOf(c));
  requests.length = 0;
  const second = await applyPlan(client, root, binding, plan, { stopOnError: false });
  assert.equal(second.find((r) => r.id === keyOf(c))!.outcome, 'stale');
  assert.equal(requests.filter((r) => r.method === 'PUT').length, 0);
  assert.deepEqual(await live(keyOf(c)), movedOn);
});
test('a cancelled apply: applied objects are in the manifest, the rest not sent; planning again shows only the rest', async () => {
  await pull(client, root, binding, { scope: scope() });
  const edited = (await scannerFiles()).slice(0, 3);
  for (const f of edited)
    await editFile(f, (o) => {
      o.NonSettlingErrorPriority = 8;
    });
  const { plan } = await makePlan(client, root, binding);
  const stop = new AbortController();
  const results = await applyPlan(client, root, binding, plan, { stopOnError: false, concurrency: 1, signal: stop.signal, onResult: () => stop.abort() });
  assert.deepEqual(
    results.map((r) => r.outcome),
    ['applied', 'notSent', 'notSent'],
  );
  const again = (await makePlan(client, root, binding)).plan;
  assert.deepEqual(actions(again), { update: 2 });
  assert.ok(!again.entries.some((e) => e.id === results[0].id));
});
test('a saved plan refuses entries whose file changed since it was made, and applies the rest', async () => {
  await pull(client, root, binding, { scope: scope() });
  const [a, b] = await scannerFiles();
  for (const f of [a, b])
    await editFile(f, (o) => {
      o.NonSettlingErrorPriority = 3;
    });
  const saved = JSON.parse(JSON.stringify((await makePlan(client, root, binding)).plan)) as Plan;
  await editFile(b, (o) => {
    o.NonSettlingErrorPriority = 4;
  });
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
  await editFile(a, (o) => {
    o.NonSettlingErrorPriority = 2;
  });
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
  assert.ok(manifest.objects.get(made.Key!)!);
  assert.ok(!manifest.objects.get(keyOf(b))!);
  assert.deepEqual(actions((await makePlan(client, root, binding)).plan), {});
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
  assert.deepEqual(
    results.map((r) => r.outcome),
    ['applied'],
  );
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
  assert.deepEqual(
    plan.entries.filter((e) => e.action === 'update').map((e) => e.changes.map((c) => c.pointer)),
    [['/Tags']],
  );
  const results = await applyPlan(client, root, binding, plan, { stopOnError: false });
  assert.deepEqual(
    results.map((r) => r.outcome),
    ['applied'],
  );
  const after = (await api.get(at)).body as BaseInfo;
  assert.ok(!(after.Tags as string[] | undefined)?.length, `Tags removed: ${JSON.stringify(after.Tags)}`);
  assert.equal(after.SiteKeyBase64, first.SiteKeyBase64, 'the secret the file holds as a placeholder is kept');
  assert.deepEqual(after.Notes, first.Notes, 'server-owned fields are kept');
});
