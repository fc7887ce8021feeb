/**
 * `oms apply` killed (SIGKILL) part way through 150 creates whose answers come late, then run again:
 * no object is created twice (the sandbox's POST count and its people), whether the second run
 * plans again or applies the same saved plan; the killed run's journal names every create that landed.
 * And as a pipeline meets it: the folder committed after the kill (its `.oms/` cache stays out of git),
 * cloned on a fresh runner, planned (no entry that is not a create still to send) and applied.
 */
import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { ChildProcess, execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileForm } from '../../../src/changes/code/fileForm';
import { kind } from '../../../src/model/kinds';
import { Api, person, start } from '../sandbox/harness';
import { buildOms, oms, OmsRun } from './oms';

const token = 'cli-kill-test-token-4d8e2a';
const count = 150;
let api: Api;
let folderKey: string;
let root: string;
let served: string[] = [];
const env: Record<string, string> = { OMS_TOKEN: token };

before(async () => {
  buildOms();
  api = await start({ seed: 'demo', token, log: (line) => served.push(line) });
  folderKey = (await api.folder('Warehouse')).Key;
  env.OMS_URL = api.sb.url;
});
after(() => api.sb.close());
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-cli-kill-'));
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

const ok = (run: OmsRun, code = 0) => assert.equal(run.code, code, `exit ${run.code}\nstdout: ${run.out}\nstderr: ${run.err}`);
const creates = () => served.filter((l) => l.startsWith(`POST /api/f/${folderKey}/people`));
const names = (prefix: string, n = count) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);

/** Pulls the folder's people and writes `n` new person files (no Key) beside them. */
async function pullAndAddPeople(surname: string, n = count): Promise<void> {
  ok(await oms(['pull', root, '--url', api.sb.url, '--folder', folderKey, '--kinds', 'person'], { env }));
  const manifest = JSON.parse(await fs.readFile(path.join(root, 'oms.manifest.json'), 'utf8')) as { folders: Record<string, string> };
  const dir = path.join(root, manifest.folders[folderKey], 'people');
  await fs.mkdir(dir, { recursive: true });
  for (const given of names('Kill', n)) {
    await fs.writeFile(path.join(dir, `${given}-${surname}.json`), JSON.stringify(fileForm(kind('person'), person(given, surname)), null, 2) + '\n');
  }
}

/** Runs `oms apply` with every create's answer held back, and kills it (SIGKILL) once `landed` people of `surname` are on the service. */
async function applyKilled(args: string[], surname: string, landed: number, delayMs = 300): Promise<OmsRun> {
  await api.post('/sandbox/faults', { path: `/api/f/${folderKey}/people`, count: 10_000, delayMs });
  let child: ChildProcess | undefined;
  const run = oms(['apply', root, ...args, '--auto-approve'], {
    env,
    started: (c) => {
      child = c;
    },
  });
  let ended = false;
  void run.finally(() => {
    ended = true;
  });
  while (!ended && (await surnameCounts(surname)).size < landed) await new Promise((r) => setTimeout(r, 25));
  child?.kill('SIGKILL');
  try {
    return await run;
  } finally {
    await api.delete('/sandbox/faults');
  }
}

async function surnameCounts(surname: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const p of await api.listAll(folderKey, 'people'))
    if (p.Surname === surname) counts.set(String(p.GivenName), (counts.get(String(p.GivenName)) ?? 0) + 1);
  return counts;
}

async function assertEachOnce(surname: string, n = count): Promise<void> {
  const counts = await surnameCounts(surname);
  assert.deepEqual(
    [...counts.entries()].filter(([, k]) => k > 1),
    [],
    'no person created twice',
  );
  assert.equal(counts.size, n, 'every person created');
  assert.equal(creates().length, n, `one POST per person: ${creates().length}`);
}

/** The killed run's journal in .oms/runs/: the creates it may have sent, by GivenName. */
async function journalled(): Promise<Set<string>> {
  const runs = (await fs.readdir(path.join(root, '.oms', 'runs'))).filter((f) => f.endsWith('.jsonl')).sort();
  const text = await fs.readFile(path.join(root, '.oms', 'runs', runs[0]), 'utf8');
  const intents = text
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => JSON.parse(l) as { intent?: boolean; sent?: { GivenName?: string } });
  return new Set(intents.filter((l) => l.intent).map((l) => String(l.sent?.GivenName)));
}

test('oms apply killed part way through 150 creates, then applied again: every person created once', async () => {
  await pullAndAddPeople('Replanned');
  served = [];
  const killed = await applyKilled([], 'Replanned', 40);
  assert.equal(killed.signal ?? killed.code, 'SIGKILL', `killed\n${killed.out}\n${killed.err}`);
  const landed = await surnameCounts('Replanned');
  assert.ok(landed.size >= 40 && landed.size < count, `part way: ${landed.size} created`);
  const sent = await journalled();
  for (const given of landed.keys()) assert.ok(sent.has(given), `the killed run's journal names ${given}`);

  const again = await oms(['apply', root, '--auto-approve'], { env });
  ok(again);
  await assertEachOnce('Replanned');
  ok(await oms(['plan', root, '--detailed-exitcode'], { env }), 0);
});

test('the same saved plan applied again after a kill: no create is sent twice', async () => {
  await pullAndAddPeople('Saved');
  const planFile = path.join(root, 'plan.json');
  ok(await oms(['plan', root, '--out', planFile], { env }));
  served = [];
  const killed = await applyKilled([planFile], 'Saved', 40);
  assert.equal(killed.signal ?? killed.code, 'SIGKILL');

  const again = await oms(['apply', root, planFile, '--auto-approve'], { env });
  const counts = await surnameCounts('Saved');
  assert.deepEqual(
    [...counts.entries()].filter(([, n]) => n > 1),
    [],
    'no person created twice',
  );
  ok(again, 2);
  assert.match(again.out, /outcome is not known/);
  ok(await oms(['apply', root, '--auto-approve'], { env }));
  await assertEachOnce('Saved');
});

/** git in `cwd`, as the pipeline runs it (its own name and e-mail; no hooks, no global settings). */
function git(cwd: string, ...args: string[]): string {
  const env = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: cwd,
    GIT_AUTHOR_NAME: 'oms apply',
    GIT_AUTHOR_EMAIL: 'oms@example.invalid',
    GIT_COMMITTER_NAME: 'oms apply',
    GIT_COMMITTER_EMAIL: 'oms@example.invalid',
  };
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

const pipelineCount = 300;
for (const landedAtKill of [1, 120, 270]) {
  test(
    `killed after ${landedAtKill} of ${pipelineCount} creates landed, the committed folder on a fresh runner: ` +
      'the plan offers only the rest, apply creates each once, the plan is clean',
    async () => {
      const surname = `Pipeline${landedAtKill}`;
      await pullAndAddPeople(surname, pipelineCount);
      git(root, 'init', '-q');
      git(root, 'add', '-A');
      git(root, 'commit', '-qm', 'the merged pull request');
      served = [];
      const killed = await applyKilled([], surname, landedAtKill, 150);
      assert.equal(killed.signal ?? killed.code, 'SIGKILL', `killed\n${killed.out}\n${killed.err}`);
      const landed = (await surnameCounts(surname)).size;
      assert.ok(landed >= landedAtKill && landed < pipelineCount, `part way: ${landed} created`);

      // The commit step (if: always()), then a fresh runner's checkout: the committed files only, no .oms/.
      git(root, 'add', '-A');
      git(root, 'commit', '-qm', 'oms apply: versions after the run', '--allow-empty');
      const fresh = `${root}-clone`;
      try {
        git(path.dirname(root), 'clone', '-q', root, fresh);
        await assert.rejects(fs.stat(path.join(fresh, '.oms')), 'the cache is not committed');

        const planned = await oms(['plan', fresh, '--format', 'json'], { env });
        ok(planned);
        const plan = JSON.parse(planned.out) as { entries: Array<{ action: string; label: string; reason?: string }> };
        const other = plan.entries.filter((e) => e.action !== 'create');
        assert.deepEqual(
          other.map((e) => `${e.action} ${e.label}: ${e.reason}`),
          [],
          'nothing but the creates still to send',
        );
        assert.equal(plan.entries.length, pipelineCount - landed, 'the creates that did not land, no more');
        assert.ok(!/remove the Key/.test(planned.out), 'no advice that would create an object twice');

        const again = await oms(['apply', fresh, '--auto-approve'], { env });
        ok(again);
        await assertEachOnce(surname, pipelineCount);
        ok(await oms(['plan', fresh, '--detailed-exitcode'], { env }), 0);
      } finally {
        await fs.rm(fresh, { recursive: true, force: true });
      }
    },
  );
}
