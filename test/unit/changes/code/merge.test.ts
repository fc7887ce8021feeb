/** Merge of a stale entry against a real sandbox: both sides' changes land; a conflict is left to a choice. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { applyPlan } from '../../../../src/changes/code/apply';
import { mergeEntry } from '../../../../src/changes/code/merge';
import { makePlan } from '../../../../src/changes/code/plan';
import { pull } from '../../../../src/changes/code/pull';
import { api, client, binding, floor1, root, scope, scannerFiles, editFile, live, keyOf, actions } from './fixture';

test("merge a stale entry: the server's row-5 change and my row-2 change both land; a conflict is left to a choice", async () => {
  await pull(client, root, binding, { scope: scope() });
  const [a, b] = await scannerFiles();
  for (const f of [a, b])
    await editFile(f, (o) => {
      o.InputScannerReportingPriorities[1].Priority = 4;
    });
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
  assert.deepEqual(
    conflicts.map((c) => [c.pointer, c.mine, c.theirs]),
    [['/InputScannerReportingPriorities/1/Priority', 4, 5]],
  );
  assert.deepEqual((await mergeEntry(root, entryB, onServer.get(keyOf(b))!, { '/InputScannerReportingPriorities/1/Priority': 'theirs' })).conflicts, []);

  const merged = (await makePlan(client, root, binding)).plan;
  assert.deepEqual(actions(merged), { update: 1 }, 'b now equals the server: nothing to send for it');
  const results = await applyPlan(client, root, binding, merged, { stopOnError: false });
  assert.deepEqual(
    results.map((r) => r.outcome),
    ['applied'],
  );
  const after = await live(keyOf(a));
  assert.equal(after.InputScannerReportingPriorities[1].Priority, 4);
  assert.equal(after.InputScannerReportingPriorities[4].StatusCode, 3);
});

test('a stale entry naming a file outside the folder, or a link, is refused: nothing outside is read or written', async () => {
  await pull(client, root, binding, { scope: scope() });
  const [a] = await scannerFiles();
  await editFile(a, (o) => {
    o.InputScannerReportingPriorities[1].Priority = 4;
  });
  const liveA = await live(keyOf(a));
  liveA.InputScannerReportingPriorities[4].StatusCode = 3;
  await api.put(`/api/f/${floor1}/inputscanners/${keyOf(a)}`, liveA);
  const { plan, live: onServer } = await makePlan(client, root, binding);
  const entry = plan.entries.find((e) => e.path === a)!;
  const outside = path.join(path.dirname(root), `outside-${path.basename(root)}.json`);
  const mine = await fs.readFile(path.join(root, a), 'utf8');
  await fs.writeFile(outside, mine);
  try {
    // A plan entry handed in by a command's argument: its path is not trusted.
    const away = { ...entry, path: path.relative(root, outside).split(path.sep).join('/') };
    await assert.rejects(mergeEntry(root, away, onServer.get(keyOf(a))!), /leads out of the pulled folder/);
    // The entry's file replaced by a link to that file.
    await fs.rm(path.join(root, a));
    await fs.symlink(outside, path.join(root, a));
    await assert.rejects(mergeEntry(root, entry, onServer.get(keyOf(a))!), /symbolic link/);
    assert.equal(await fs.readFile(outside, 'utf8'), mine, 'the file outside is as it was');
  } finally {
    await fs.rm(outside, { force: true });
  }
});
