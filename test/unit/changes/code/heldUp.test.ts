/**
 * A pull again, a plan and a read of a folder of 30,000 people, with the sandbox in a process of its own as a
 * service would be: nothing written, nothing planned, every object read. How long each held this thread up (a timer
 * of 1 ms firing late) is printed beside them; the goal (50 ms) is the benches' to measure
 * (`bench/objectsAsCode.bench.ts` at 10,000 and 100,000), not a timed assertion here.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { createHttp } from '../../../../src/api/http';
import { OmsClient } from '../../../../src/api/client';
import { makePlan } from '../../../../src/changes/code/plan';
import { ConnectionBinding, readManifest } from '../../../../src/changes/code/manifest';
import { bindingOf, pull } from '../../../../src/changes/code/pull';
import { kind } from '../../../../src/model/kinds';
import { newObject } from '../../../../src/model/templates';

const repo = path.resolve(__dirname, '../../../..');
const token = 'held-up-test-token';
const count = 30_000;
const people = kind('person');

let dir: string;
let child: ChildProcess;
let client: OmsClient;
let binding: ConnectionBinding;
let folderKey: string;

before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'oms-held-up-'));
  const cli = path.join(dir, 'sandbox.js');
  await build({ entryPoints: [path.join(repo, 'src/sandbox/cli.ts')], outfile: cli, bundle: true, platform: 'node', format: 'cjs', logLevel: 'error' });
  child = spawn(process.execPath, [cli, '--port', '0', '--seed', 'empty'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, OMS_SANDBOX_TOKEN: token },
  });
  const { url, instance } = await new Promise<{ url: string; instance: string }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (\S+) instance=([0-9a-f]{24})/.exec(out);
      if (m) resolve({ url: m[1], instance: m[2] });
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code}) before listening: ${out}`)));
  });
  client = new OmsClient(createHttp({ baseUrl: url, token: () => token }));
  binding = await bindingOf(client, 'Sandbox', url);
  folderKey = instance; // the empty seed's one folder
  const all = Array.from({ length: count }, (_, i) => ({ ...newObject(people, `Person ${i}`), GivenName: `Given${i}`, Surname: `Surname ${i}` }));
  const report = await client.addPeople(folderKey, all, { batchSize: 1000, concurrency: 4 });
  assert.equal(report.added, count);
});
after(async () => {
  child?.kill();
  await rm(dir, { recursive: true, force: true });
});

/**
 * `fn`'s value and the longest a timer of 1 ms waited beyond its time meanwhile: the CPU time this process used
 * between two of its ticks, or the wall time when less (on a busy machine, time another process had the core is
 * not this thread's work).
 */
async function heldUp<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  let wall = performance.now(),
    cpu = cpuMs(),
    most = 0;
  const tick = () => {
    const [nowWall, nowCpu] = [performance.now(), cpuMs()];
    most = Math.max(most, Math.min(nowWall - wall, nowCpu - cpu) - 1);
    [wall, cpu] = [nowWall, nowCpu];
  };
  const timer = setInterval(tick, 1);
  try {
    const value = await fn();
    tick();
    return { value, ms: most };
  } finally {
    clearInterval(timer);
  }
}

test(
  `a pull again of ${count.toLocaleString('en')} people writes nothing, a plan lists nothing, a read holds them all; ` +
    'how long each held the thread up is printed',
  async (t) => {
    const root = path.join(dir, 'folder');
    const scope = { folderKey, recursive: false, kinds: [people.id] };
    // The first pull of the process (its threads start, its code is compiled): shown, not held to the goal here.
    const first = await heldUp(() => pull(client, root, binding, { scope }));
    assert.equal(first.value.written, count);
    const again = await heldUp(() => pull(client, root, binding, {}));
    assert.equal(again.value.written, 0, 'nothing changed');
    const planned = await heldUp(() => makePlan(client, root, binding));
    assert.equal(planned.value.plan.unchanged, count);
    assert.deepEqual(planned.value.plan.entries, []);
    const read = await heldUp(() => readManifest(root));
    assert.equal(read.value!.objects.size, count);
    const ms = (step: { ms: number }) => `${step.ms.toFixed(0)} ms`;
    const figures = `pull ${ms(first)}, pull again ${ms(again)}, plan ${ms(planned)}, manifest read ${ms(read)}`;
    t.diagnostic(`held up: ${figures}`);
  },
);
