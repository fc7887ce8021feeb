/**
 * The `oms` command line (dist/oms.cjs, a child process, as a pipeline runs it) beside the
 * extension's core in this process (src/changes/code/), in the same run against one sandbox
 * process holding `count` input scanners: pull, plan with 100 edits, apply of 100 updates
 * (best of 3, wall and CPU time), the command line's start-up beside Node's own, its bundle size.
 * Goals: the command line within 1.1x of the core; start-up under 150 ms. Asserts nothing.
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
import { applyPlan } from '../src/changes/code/apply';
import { readManifest } from '../src/changes/code/manifest';
import { makePlan } from '../src/changes/code/plan';
import { bindingOf, pull } from '../src/changes/code/pull';
import { kind } from '../src/model/kinds';
import { newObject } from '../src/model/templates';

const repo = path.join(__dirname, '..');
const oms = path.join(repo, 'dist', 'oms.cjs');
const count = Number(process.argv[2] ?? 10_000);
const rounds = 3;
const scanners = kind('inputScanner');
const made: string[] = [];

interface Timing { ms: number; cpuMs: number }
const best = (): Timing => ({ ms: Infinity, cpuMs: Infinity });
const keep = (b: Timing, t: Timing) => { b.ms = Math.min(b.ms, t.ms); b.cpuMs = Math.min(b.cpuMs, t.cpuMs); };

/** Work in this process: wall time and this process's CPU time (its pull threads included). */
async function inProcess(work: () => Promise<unknown>): Promise<Timing> {
  const t = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  await work();
  const used = process.cpuUsage(cpu);
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, cpuMs: (used.user + used.system) / 1000 };
}

/** The command line as a child: wall time, and its CPU time as GNU time reports it (user + system). */
function child(args: string[], env: Record<string, string>): Promise<Timing & { code: number | null; out: string }> {
  const timeFile = path.join(os.tmpdir(), `oms-cli-bench-${randomBytes(4).toString('hex')}.time`);
  const t = process.hrtime.bigint();
  const timed = ['-f', '%U %S', '-o', timeFile, process.execPath, oms, ...args];
  const p = spawn('/usr/bin/time', timed, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  p.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  p.stderr.on('data', (d: Buffer) => { out += d.toString(); });
  return new Promise((resolve) => p.on('close', (code) => {
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    const [user, system] = readFileSync(timeFile, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
    rmSync(timeFile, { force: true });
    resolve({ ms, cpuMs: (user + system) * 1000, code, out });
  }));
}

async function folder(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'oms-cli-bench-'));
  made.push(dir);
  return dir;
}

/** Edits `n` files of a pulled folder from the `from`th (a new name each round), so that a plan has `n` updates. */
async function editFiles(root: string, from: number, n: number, round: number): Promise<void> {
  const objects = Object.values((await readManifest(root))!.objects).slice(from, from + n);
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
    logFile: path.join(os.tmpdir(), 'oms-cli-bench-sandbox.log'), env: { ...process.env, OMS_SANDBOX_TOKEN: given },
  });
  const sb = parseSandboxLine(await waitForLine(sandbox, /listening/, 20_000, 'sandbox'), given);
  const env = { OMS_TOKEN: sb.token };
  const client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
  const folderKey = sb.instance;
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < count) await client.create(scanners, folderKey, newObject(scanners, `Scanner ${String(next++).padStart(5, '0')}`));
  }));
  const binding = await bindingOf(client, new URL(sb.url).host, sb.url);
  const scope = { folderKey, recursive: false, kinds: [scanners.id] };
  const pullArgs = (root: string) => ['pull', root, '--url', sb.url, '--folder', folderKey, '--kinds', 'inputScanner'];

  // Warm-up of both: the first pull of this process starts and compiles its threads.
  await pull(client, await folder(), binding, { scope });
  await child(pullArgs(await folder()), env);

  const core = { pull: best(), plan: best(), apply: best() };
  const cli = { pull: best(), plan: best(), apply: best() };
  const coreRoot = await folder();
  const cliRoot = await folder();
  for (let round = 0; round < rounds; round++) {
    execFileSync('sync');
    const a = await folder();
    keep(core.pull, await inProcess(() => pull(client, a, binding, { scope })));
    const b = await folder();
    const pulled = await child(pullArgs(b), env);
    if (pulled.code !== 0) throw new Error(pulled.out);
    keep(cli.pull, pulled);
  }
  await pull(client, coreRoot, binding, { scope });
  await child(pullArgs(cliRoot), env);
  for (let round = 0; round < rounds; round++) {
    // Other objects for each: what one applies would make the other's stale (and the command line refuses those).
    await editFiles(coreRoot, 0, 100, round);
    await editFiles(cliRoot, 100, 100, round);
    let plan!: Awaited<ReturnType<typeof makePlan>>['plan'];
    keep(core.plan, await inProcess(async () => { plan = (await makePlan(client, coreRoot, binding, { includeDeletes: true })).plan; }));
    const planFile = path.join(cliRoot, 'plan.json');
    const planned = await child(['plan', cliRoot, '--detailed-exitcode', '--out', planFile], env);
    if (planned.code !== 2) throw new Error(planned.out);
    keep(cli.plan, planned);
    // Both apply a plan made before: the core the one it made, the command line the one it saved.
    keep(core.apply, await inProcess(() => applyPlan(client, coreRoot, binding, plan, { stopOnError: false })));
    const applied = await child(['apply', cliRoot, planFile, '--auto-approve'], env);
    if (applied.code !== 0) throw new Error(applied.out);
    keep(cli.apply, applied);
  }

  const line = (what: string, c: Timing, o: Timing) =>
    console.log(`${what}: oms ${o.ms.toFixed(0)} ms (CPU ${o.cpuMs.toFixed(0)} ms) · core ${c.ms.toFixed(0)} ms (CPU ${c.cpuMs.toFixed(0)} ms)`
      + ` · ratio ${(o.ms / c.ms).toFixed(2)}x wall, ${(o.cpuMs / c.cpuMs).toFixed(2)}x CPU (goal ≤ 1.1x)`);
  console.log(`oms beside the extension's core, ${count} input scanners, best of ${rounds}`
    + ' (the command line: a process of its own, its start-up included; the core: in this warm process)');
  line(`pull ${count}`, core.pull, cli.pull);
  line(`plan ${count} files, 100 edits`, core.plan, cli.plan);
  line('apply 100 updates', core.apply, cli.apply);

  const start = { oms: best(), node: best() };
  for (let i = 0; i < 10; i++) {
    keep(start.oms, await child(['--version'], {}));
    const t = process.hrtime.bigint();
    execFileSync(process.execPath, ['-e', '']);
    keep(start.node, { ms: Number(process.hrtime.bigint() - t) / 1e6, cpuMs: 0 });
  }
  console.log(`start-up (oms --version), best of 10: ${start.oms.ms.toFixed(0)} ms (CPU ${start.oms.cpuMs.toFixed(0)} ms)`
    + ` · node -e "" alone: ${start.node.ms.toFixed(0)} ms · oms's own ${(start.oms.ms - start.node.ms).toFixed(0)} ms (goal < 150 ms in all)`);
  console.log(`bundle: dist/oms.cjs ${(statSync(oms).size / 1024).toFixed(0)} KB (one file: validators and the pull threads' code inside)`);
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
