/**
 * An apply stopped at each step of a create, as a fresh clone of the committed folder has it (no `.oms/` cache):
 * the plan there offers only the create never sent (nothing invalid, nothing behind, no advice to remove a Key),
 * and applying it leaves each object once on the service. The files that carry this are the folder's own
 * (`oms.journal.jsonl`, `oms.pending.jsonl`): a link in their place is refused, nothing written through it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applyPlan } from '../../../../src/changes/code/apply';
import { fileForm } from '../../../../src/changes/code/fileForm';
import { readManifest } from '../../../../src/changes/code/manifest';
import { makePlan } from '../../../../src/changes/code/plan';
import { pull } from '../../../../src/changes/code/pull';
import { sample } from '../../sandbox/harness';
import { api, binding, client, floor1, root, scanners, scope } from './fixture';

const names = ['Clone Alpha', 'Clone Beta', 'Clone Gamma'];

async function onService(name: string): Promise<number> {
  return (await api.listAll(floor1, 'inputscanners')).filter((o) => o.CommonName === name).length;
}

/** The folder as a clone of its commit has it: everything but the `.oms/` cache. */
async function cloneOf(from: string, to: string): Promise<void> {
  await fs.cp(from, to, { recursive: true, filter: (p) => path.relative(from, p).split(path.sep)[0] !== '.oms' });
}

/** Drops the lines of a folder file that `drop` picks. */
async function dropLines(file: string, drop: (line: string) => boolean): Promise<void> {
  const lines = (await fs.readFile(file, 'utf8')).split('\n');
  await fs.writeFile(file, lines.filter((l) => !l || !drop(l)).join('\n'));
}

test(
  'killed at each step of a create, a clone of the folder without .oms/: ' +
    'its plan offers only what was never sent; applied, each object is on the service once',
  async () => {
    await pull(client, root, binding, { scope: scope() });
    const dir = path.join(root, Object.values((await readManifest(root))!.folders)[0], scanners.collection);
    await fs.mkdir(dir, { recursive: true });
    for (const name of names) {
      await fs.writeFile(
        path.join(dir, `${name.toLowerCase().replace(' ', '-')}.json`),
        JSON.stringify(fileForm(scanners, sample('inputScanner', name)), null, 2),
      );
    }
    const work = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-killed-clone-'));
    try {
      // The first create done (file, journal, pending settled), the second recorded and about to go: a kill here leaves it in flight.
      const inFlight = path.join(work, 'in-flight');
      let sends = 0;
      const { plan } = await makePlan(client, root, binding);
      const results = await applyPlan(
        client,
        root,
        binding,
        { ...plan, entries: plan.entries.filter((e) => e.label !== names[2]) },
        {
          stopOnError: false,
          concurrency: 1,
          beforeWrite: async () => {
            if (++sends === 2) await cloneOf(root, inFlight);
          },
        },
      );
      assert.deepEqual(
        results.map((r) => r.outcome),
        ['applied', 'applied'],
      );
      const [first] = results;
      const firstKey = first.after!.Key!;
      const firstNew = (await fs.readdir(dir)).find((f) => f.includes(firstKey))!;
      const firstOld = plan.entries.find((e) => e.label === first.label)!.path;

      const states = new Map<string, string>([['the second create sent, its answer not recorded', inFlight]]);
      // Earlier steps of the first create, as a kill a moment before would have left them (its pending lines not yet settled).
      const entry = plan.entries.find((e) => e.label === first.label)!;
      const pendingFirst = async (at: string) => {
        const lines = [
          { create: { path: firstOld, kind: entry.kind, folderKey: entry.folderKey, id: 'first-send', at: new Date().toISOString() } },
          { answered: firstOld, key: firstKey },
        ];
        await fs.appendFile(path.join(at, 'oms.pending.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
      };
      const withoutStep = (at: string) => dropLines(path.join(at, 'oms.journal.jsonl'), (l) => l.includes(JSON.stringify(firstKey)));
      const earlier: Array<[string, (at: string) => Promise<void>]> = [
        ["the first recorded in the manifest's journal, not yet settled as pending", pendingFirst],
        [
          "the first's file given its Key, the manifest not yet",
          async (at) => {
            await pendingFirst(at);
            await withoutStep(at);
          },
        ],
        [
          "the first's answer recorded, its file not yet written",
          async (at) => {
            await pendingFirst(at);
            await withoutStep(at);
            const moved = path.join(at, path.relative(root, dir), firstNew);
            const text = JSON.parse(await fs.readFile(moved, 'utf8')) as Record<string, unknown>;
            delete text.Key;
            await fs.writeFile(path.join(at, firstOld), JSON.stringify(text, null, 2));
            await fs.rm(moved);
          },
        ],
      ];
      for (const [what, make] of earlier) {
        const at = path.join(work, String(states.size));
        await cloneOf(inFlight, at);
        await make(at);
        states.set(what, at);
      }

      for (const [what, at] of states) {
        const next = (await makePlan(client, at, binding)).plan;
        assert.deepEqual(
          next.entries.map((e) => `${e.action} ${e.label}${e.reason ? `: ${e.reason}` : ''}`),
          [`create ${names[2]}`],
          `${what}: only the create never sent`,
        );
      }
      const last = [...states.values()].at(-1)!;
      const applied = await applyPlan(client, last, binding, (await makePlan(client, last, binding)).plan, { stopOnError: false });
      assert.deepEqual(
        applied.map((r) => r.outcome),
        ['applied'],
      );
      for (const name of names) assert.equal(await onService(name), 1, `${name} once on the service`);
      assert.deepEqual((await makePlan(client, last, binding)).plan.entries, [], 'the plan after it is clean');
      await assert.rejects(fs.stat(path.join(last, 'oms.journal.jsonl')), 'the journal folded into the manifest');
      await assert.rejects(fs.stat(path.join(last, 'oms.pending.jsonl')), 'nothing pending');
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
  },
);

for (const name of ['oms.journal.jsonl', 'oms.pending.jsonl']) {
  test(`${name} committed as a link out of the folder: refused with a clear message, nothing written through it`, async () => {
    await pull(client, root, binding, { scope: scope() });
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-outside-'));
    try {
      const target = path.join(outside, 'target');
      await fs.writeFile(target, '');
      await fs.symlink(target, path.join(root, name));
      await assert.rejects(makePlan(client, root, binding), (e: Error) => e.message.includes(`${name} is a symbolic link`));
      assert.equal(await fs.readFile(target, 'utf8'), '', 'nothing written through the link');
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });
}
