/**
 * The `oms` command line (dist/oms.cjs, a child process, as a pipeline runs it) beside the extension's core
 * (src/changes/code/), in the same run against one sandbox process holding `count` input scanners: pull, plan with
 * 100 edits, apply of 100 updates with the editor's run journal and report (best of 3), the command line's start-up
 * beside Node's own, its bundle size.
 * Wall and CPU time (this machine is shared). The core runs twice over: in this process, warm (its code compiled and
 * optimised by the rounds before), and as a fresh process's first run (bench/peers/coreOnce.ts). The command line is
 * a fresh process every time: its whole process, and its time after Node's own start-up (bench/peers/startupTimes.js),
 * are set beside both. Goals: within 1.1x of the core; start-up under 150 ms. Asserts nothing.
 *   node --import tsx bench/cli.bench.ts [count]
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, promises as fs, readFileSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startProcess, stopAll, waitForLine } from '../test/integration/host/procs';
import { parseSandboxLine } from '../test/integration/host/sandbox';
import { createHttp } from '../src/api/http';
import { OmsClient } from '../src/api/client';
import { readManifest } from '../src/changes/code/manifest';
import { makePlan } from '../src/changes/code/plan';
import { bindingOf, pull } from '../src/changes/code/pull';
import { kind } from '../src/model/kinds';
import { newObject } from '../src/model/templates';
import { editorApply } from './peers/editorApply';

const repo = path.join(__dirname, '..');
const oms = path.join(repo, 'dist', 'oms.cjs');
const count = Number(process.argv[2] ?? 10_000);
const rounds = 3;
const scanners = kind('inputScanner');
const made: string[] = [];

interface Timing {
  ms: number;
  cpuMs: number;
}
const best = (): Timing => ({ ms: Infinity, cpuMs: Infinity });
const keep = (b: Timing, t: Timing) => {
  b.ms = Math.min(b.ms, t.ms);
  b.cpuMs = Math.min(b.cpuMs, t.cpuMs);
};

/** Work in this process: wall time and this process's CPU time (its pull threads included). */
async function inProcess(work: () => Promise<unknown>): Promise<Timing> {
  const t = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  await work();
  const used = process.cpuUsage(cpu);
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, cpuMs: (used.user + used.system) / 1000 };
}

interface ProcessRun {
  whole: Timing;
  afterStart: Timing;
  code: number | null;
  out: string;
}

/**
 * A fresh node process (`oms` with `args`, or any node arguments with `node: true`): its whole wall time as this
 * process saw it and its CPU time; and both after Node's own start-up (from the preloaded startupTimes.js).
 */
function run(args: string[], env: Record<string, string>, node = false): Promise<ProcessRun> {
  const timesFile = path.join(os.tmpdir(), `oms-cli-bench-${randomBytes(4).toString('hex')}.json`);
  const t = process.hrtime.bigint();
  const argv = ['-r', path.join(__dirname, 'peers', 'startupTimes.js'), ...(node ? args : [oms, ...args])];
  const p = spawn(process.execPath, argv, { env: { ...process.env, ...env, OMS_BENCH_TIMES: timesFile }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  p.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  p.stderr.on('data', (d: Buffer) => {
    out += d.toString();
  });
  return new Promise((resolve) =>
    p.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      const times = JSON.parse(readFileSync(timesFile, 'utf8')) as { nodeMs: number; nodeCpuMs: number; wholeMs: number; wholeCpuMs: number };
      rmSync(timesFile, { force: true });
      resolve({
        whole: { ms, cpuMs: times.wholeCpuMs },
        afterStart: { ms: times.wholeMs - times.nodeMs, cpuMs: times.wholeCpuMs - times.nodeCpuMs },
        code,
        out,
      });
    }),
  );
}

/** The core's first run in a fresh process (bench/peers/coreOnce.ts): the work alone. */
function coreOnce(args: string[], env: Record<string, string>): Timing {
  const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'peers', 'coreOnce.ts'), ...args], {
    cwd: repo,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return JSON.parse(out) as Timing;
}

async function folder(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'oms-cli-bench-'));
  made.push(dir);
  return dir;
}

/** Edits `n` files of a pulled folder from the `from`th (a new name each round), so that a plan has `n` updates. */
async function editFiles(root: string, from: number, n: number, round: number): Promise<void> {
  const objects = [...(await readManifest(root))!.objects.values()].slice(from, from + n);
  for (const o of objects) {
    const file = path.join(root, o.path);
    const object = JSON.parse(await fs.readFile(file, 'utf8')) as { CommonName: string };
    await fs.writeFile(file, JSON.stringify({ ...object, CommonName: `${object.CommonName.replace(/ r\d+$/, '')} r${round}` }, null, 2) + '\n');
  }
}

async function main() {
  if (!existsSync(oms)) execFileSync(process.execPath, ['esbuild.js'], { cwd: repo, stdio: 'inherit' });
  const given = randomBytes(24).toString('hex');
  const sandbox = startProcess(process.execPath, [path.join(repo, 'dist', 'sandbox.cjs'), '--port', '0', '--seed', 'empty'], {
    logFile: path.join(os.tmpdir(), 'oms-cli-bench-sandbox.log'),
    env: { ...process.env, OMS_SANDBOX_TOKEN: given },
  });
  const sb = parseSandboxLine(await waitForLine(sandbox, /listening/, 20_000, 'sandbox'), given);
  const env = { OMS_TOKEN: sb.token };
  const client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
  const folderKey = sb.instance;
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) await client.create(scanners, folderKey, newObject(scanners, `Scanner ${String(next++).padStart(5, '0')}`));
    }),
  );
  const binding = await bindingOf(client, new URL(sb.url).host, sb.url);
  const scope = { folderKey, recursive: false, kinds: [scanners.id] };
  const pullArgs = (root: string) => ['pull', root, '--url', sb.url, '--folder', folderKey, '--kinds', 'inputScanner'];

  // Warm-up of both: the first pull of this process starts and compiles its threads.
  await pull(client, await folder(), binding, { scope });
  await run(pullArgs(await folder()), env);

  const steps = ['pull', 'plan', 'apply'] as const;
  const timings = () => Object.fromEntries(steps.map((s) => [s, best()])) as Record<(typeof steps)[number], Timing>;
  const warm = timings(),
    cold = timings(),
    whole = timings(),
    afterStart = timings();
  const cli = (step: (typeof steps)[number], r: ProcessRun) => {
    keep(whole[step], r.whole);
    keep(afterStart[step], r.afterStart);
  };
  const coreRoot = await folder();
  const coldRoot = await folder();
  const cliRoot = await folder();
  for (let round = 0; round < rounds; round++) {
    execFileSync('sync');
    const a = await folder();
    keep(warm.pull, await inProcess(() => pull(client, a, binding, { scope })));
    keep(cold.pull, coreOnce(['pull', sb.url, folderKey, await folder()], env));
    const pulled = await run(pullArgs(await folder()), env);
    if (pulled.code !== 0) throw new Error(pulled.out);
    cli('pull', pulled);
  }
  await pull(client, coreRoot, binding, { scope });
  await pull(client, coldRoot, binding, { scope });
  await run(pullArgs(cliRoot), env);
  for (let round = 0; round < rounds; round++) {
    // Other objects for each: what one applies would make another's stale (and a saved plan's entry is then refused).
    await editFiles(coreRoot, 0, 100, round);
    await editFiles(coldRoot, 100, 100, round);
    await editFiles(cliRoot, 200, 100, round);
    let plan!: Awaited<ReturnType<typeof makePlan>>['plan'];
    keep(
      warm.plan,
      await inProcess(async () => {
        plan = (await makePlan(client, coreRoot, binding, { includeDeletes: true })).plan;
      }),
    );
    const coldPlan = path.join(coldRoot, 'plan.json');
    keep(cold.plan, coreOnce(['plan', sb.url, coldRoot, coldPlan], env));
    const planFile = path.join(cliRoot, 'plan.json');
    const planned = await run(['plan', cliRoot, '--detailed-exitcode', '--out', planFile], env);
    if (planned.code !== 2) throw new Error(planned.out);
    cli('plan', planned);
    // Each applies a plan made before: the warm core the one it made, the others the one they saved.
    keep(warm.apply, await inProcess(() => editorApply(client, coreRoot, binding, plan)));
    keep(cold.apply, coreOnce(['apply', sb.url, coldRoot, coldPlan], env));
    const applied = await run(['apply', cliRoot, planFile, '--auto-approve'], env);
    if (applied.code !== 0) throw new Error(applied.out);
    cli('apply', applied);
  }

  const t = (x: Timing) => `${x.ms.toFixed(0)} ms (CPU ${x.cpuMs.toFixed(0)})`;
  const ratio = (a: Timing, b: Timing) => `${(a.ms / b.ms).toFixed(2)}x wall, ${(a.cpuMs / b.cpuMs).toFixed(2)}x CPU`;
  console.log(`oms beside the extension's core, ${count} input scanners, best of ${rounds}.`);
  console.log("  oms: its whole process (a CI job runs one per command), and after Node's own start-up (oms's loading included);");
  console.log('  core warm: in this process, its code compiled and optimised by the rounds before (the editor after its first use);');
  console.log("  core cold: a fresh process's first run of the same work (the binding read before it): what oms does after its start-up.");
  const labels = { pull: `pull ${count}`, plan: `plan ${count} files, 100 edits`, apply: 'apply 100 updates' };
  for (const step of steps) {
    console.log(`${labels[step]}: oms ${t(whole[step])} · after start-up ${t(afterStart[step])} · core cold ${t(cold[step])} · core warm ${t(warm[step])}`);
    console.log(`  oms / core warm ${ratio(whole[step], warm[step])} (goal ≤ 1.1x) · oms after start-up / core cold ${ratio(afterStart[step], cold[step])}`);
  }

  const start = { version: best(), help: best(), node: best() };
  for (let i = 0; i < 10; i++) {
    keep(start.version, (await run(['--version'], {})).whole);
    keep(start.help, (await run(['plan', '--help'], {})).whole);
    keep(start.node, (await run(['-e', '0'], {}, true)).whole);
  }
  const ownMs = start.version.ms - start.node.ms;
  const ownCpuMs = start.version.cpuMs - start.node.cpuMs;
  console.log(
    `start-up, best of 10: oms --version ${t(start.version)} · oms plan --help ${t(start.help)} · node -e 0 ${t(start.node)}` +
      ` · oms's own ${ownMs.toFixed(0)} ms (CPU ${ownCpuMs.toFixed(0)}) (goal: under 150 ms in all)`,
  );
  console.log(`bundle: dist/oms.cjs ${(statSync(oms).size / 1024).toFixed(0)} KB (one file: the validators and the pull threads' code inside)`);
}

process.once('SIGINT', () => void Promise.all(made.map((d) => fs.rm(d, { recursive: true, force: true }))).finally(() => process.exit(130)));
main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(async () => {
    await Promise.all(made.map((d) => fs.rm(d, { recursive: true, force: true })));
    await stopAll();
  });
