/** Ticks a user set in a plan survive the next plan of the folder (and the one after Apply) while the entry is unchanged. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { applyPlan } from '../../../src/changes/code/apply';
import { makePlan, Plan, PlanEntry } from '../../../src/changes/code/plan';
import { bindingOf, pull } from '../../../src/changes/code/pull';
import { carryTicks } from '../../../src/changes/code/ticks';
import type { ConnectionBinding } from '../../../src/changes/code/manifest';
import type { InputScannerInfo } from '../../../src/model/types';
import { Api, start } from '../sandbox/harness';

let api: Api;
let client: OmsClient;
let binding: ConnectionBinding;
let root: string;

before(async () => {
  api = await start({ seed: 'demo' });
  client = new OmsClient(createHttp({ baseUrl: api.sb.url, token: () => api.sb.token }));
  binding = await bindingOf(client, 'Sandbox', api.sb.url);
  const floor1 = (await api.folder('Floor 1', (await api.folder('Head Office')).Key)).Key;
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-ticks-'));
  await pull(client, root, binding, { scope: { folderKey: floor1, recursive: false, kinds: ['inputScanner'] } });
});
after(async () => {
  await api.sb.close();
  await fs.rm(root, { recursive: true, force: true });
});

async function scannerFiles(): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(root, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.endsWith('.json') && e.parentPath.endsWith('inputscanners')) out.push(path.join(e.parentPath, e.name));
  }
  return out.sort();
}

async function edit(file: string, priority: number): Promise<void> {
  const o = JSON.parse(await fs.readFile(file, 'utf8')) as InputScannerInfo;
  o.NonSettlingErrorPriority = priority;
  await fs.writeFile(file, JSON.stringify(o, null, 2) + '\n');
}

/** A new plan of the folder, as the view shows it: the ticks of the last one carried. */
async function replan(last: Plan): Promise<Plan> {
  const { plan } = await makePlan(client, root, binding, { includeDeletes: true });
  carryTicks(last, plan);
  return plan;
}

const entryOf = (plan: Plan, file: string): PlanEntry => {
  const e = plan.entries.find((x) => file.endsWith(x.path));
  assert.ok(e, `an entry for ${path.basename(file)}`);
  return e;
};

test('an update unticked on purpose stays unticked after a re-plan and after Apply sent the others; a delete ticked stays ticked', async () => {
  const [a, b, c, d] = await scannerFiles();
  await edit(a, 7);
  await edit(b, 8);
  await edit(c, 9);
  await fs.rm(d);
  const first = (await makePlan(client, root, binding, { includeDeletes: true })).plan;
  assert.deepEqual(
    [a, b, c, d].map((f) => [entryOf(first, f).action, entryOf(first, f).selected]),
    [
      ['update', true],
      ['update', true],
      ['update', true],
      ['delete', false],
    ],
    'updates start ticked, deletes not',
  );
  entryOf(first, b).selected = false; // unticked by the user
  entryOf(first, d).selected = true; // ticked by the user

  const second = await replan(first);
  assert.equal(entryOf(second, b).selected, false, 'the unticked update stays unticked');
  assert.equal(entryOf(second, d).selected, true, 'the ticked delete stays ticked');
  assert.equal(entryOf(second, a).selected, true);

  // Apply sends what is ticked except the delete (left for the end of the test): a and c.
  entryOf(second, d).selected = false;
  const results = await applyPlan(client, root, binding, second, { stopOnError: false });
  assert.deepEqual(
    results.map((r) => r.outcome),
    ['applied', 'applied'],
  );
  entryOf(second, d).selected = true;
  const third = await replan(second);
  assert.deepEqual(
    third.entries.filter((e) => e.action === 'update').map((e) => [path.basename(e.path), e.selected]),
    [[path.basename(b), false]],
    'after Apply only the unticked update is left, still unticked (the next Apply would not send it)',
  );
  assert.equal(entryOf(third, d).selected, true);

  // The entry changes (edited again): it is a new entry, ticked as any update starts.
  await edit(b, 6);
  const fourth = await replan(third);
  assert.equal(entryOf(fourth, b).selected, true, 'an edited entry starts from the default again');
  assert.equal(entryOf(fourth, d).selected, true);
});
