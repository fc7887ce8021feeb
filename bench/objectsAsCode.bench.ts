/**
 * Objects as code over a real socket, 10,000 input scanners in one folder of
 * a sandbox in a process of its own:
 * pull beside listing them with the client (into a folder in memory and one
 * on the disk, beside writing the files alone there; and 10,000 people, small
 * objects where each file's creation weighs more, pulled and pulled again), a no-op pull, plan with
 * 0 and 100 edits (time and requests), apply beside the one save, peak memory.
 * Prints numbers beside their peer or goal, wall and CPU time (user + system
 * of this process: the machine is shared); asserts nothing.
 *   node --import tsx bench/objectsAsCode.bench.ts [count]   (npm run bench: 10,000; npm run bench:100k)
 * OMS_BENCH_PROFILE=<dir> writes a CPU profile of this thread per step there.
 * OMS_BENCH_QUICK=1: one round instead of the best of 3, in memory only, no people (100,000 objects on a busy machine).
 */
import { existsSync, promises as fs, readFileSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import * as os from 'node:os';
import { Session } from 'node:inspector/promises';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { randomBytes } from 'node:crypto';
import { startProcess, stopAll, waitForLine } from '../test/integration/host/procs';
import { parseSandboxLine } from '../test/integration/host/sandbox';
import { gcPauses, longestPause } from './peers/threadTime';
import { createHttp } from '../src/api/http';
import { OmsClient } from '../src/api/client';
import { applyPlan } from '../src/changes/code/apply';
import { readManifest } from '../src/changes/code/manifest';
import { makePlan } from '../src/changes/code/plan';
import { canonicalText, fileForm, hashOf } from '../src/changes/code/fileForm';
import { bindingOf, pull, PullReport } from '../src/changes/code/pull';
import { useThreadCode } from '../src/changes/code/pullWriter';
import { Kind, kind } from '../src/model/kinds';
import { newObject } from '../src/model/templates';
import { saveObject } from '../src/save/saveObject';
import type { BaseInfo, InputScannerInfo } from '../src/model/types';

const ms = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e6;
const cpuMs = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};
/** The sandbox process's CPU time so far (user + system, ms), from the kernel's count of clock ticks (10 ms each). */
let serverCpuMs = () => 0;
const cores = os.availableParallelism();
const count = Number(process.argv[2] ?? 10_000);
const quick = !!process.env.OMS_BENCH_QUICK;
const rounds = quick ? 1 : 3;
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;
/**
 * Writes back what the last part left dirty (the 10,000 files it wrote or removed) and collects the garbage
 * it left before the next is timed: else the kernel's writeback of one part, or the collection of the last
 * listing's 100,000 objects (a heap of 800 MB whose collection paused this thread 26 ms, and made each young
 * collection meanwhile take 20-27 ms), is charged to whichever runs next.
 */
const settle = () => {
  execFileSync('sync');
  collectGarbage();
};
interface Measure {
  ms: number;
  cpu: number;
  /** The longest this thread (the extension host's, where a pull, plan and apply are started) was held up by its own work. */
  pause: number;
  /** The longest a timer on it fired late: its own work or, on a busy machine, a wait for a core. */
  late: number;
  /** This thread's garbage-collection pauses in all (a heap of a gigabyte or more makes them count). */
  gc: number;
  /** The longest of them: a hold-up as long is the collector's, not the step's code. */
  gcLongest: number;
  /** The sandbox's CPU meanwhile: with this process's, what the machine's cores had to do. */
  serverCpu: number;
}
const profileDir = process.env.OMS_BENCH_PROFILE;
let session: Session | undefined;
/** `fn` timed: wall, CPU and the longest hold-up; with OMS_BENCH_PROFILE, this thread's CPU profile as `<name>.cpuprofile`. */
async function measure<T>(name: string, fn: () => Promise<T>): Promise<Measure & { value: T }> {
  if (profileDir && !session) {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
  }
  if (session) await session.post('Profiler.start');
  const t = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const serverCpu = serverCpuMs();
  const pauses = longestPause();
  const gc = gcPauses();
  const value = await fn();
  const { sum, longest } = gc();
  const m = { ms: ms(t), cpu: cpuMs(cpu), ...pauses(), gc: sum, gcLongest: longest, serverCpu: serverCpuMs() - serverCpu, value };
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    await fs.mkdir(profileDir!, { recursive: true });
    await fs.writeFile(path.join(profileDir!, `${name}.cpuprofile`), JSON.stringify(profile));
  }
  return m;
}
/** How long a step held this thread up, beside the longest wait of a timer on it and the longest garbage collection. */
const heldUp = (m: Measure) =>
  `held up ${m.pause.toFixed(0)} ms by its own work (a timer waited up to ${m.late.toFixed(0)} ms; longest GC pause ${m.gcLongest.toFixed(0)} ms)`;
/** The lesser of each figure. */
const best = (a: Measure | undefined, b: Measure): Measure =>
  a
    ? {
        ms: Math.min(a.ms, b.ms),
        cpu: Math.min(a.cpu, b.cpu),
        pause: Math.min(a.pause, b.pause),
        late: Math.min(a.late, b.late),
        gc: Math.min(a.gc, b.gc),
        gcLongest: Math.min(a.gcLongest, b.gcLongest),
        serverCpu: Math.min(a.serverCpu, b.serverCpu),
      }
    : b;
/**
 * The least wall time the machine allows a step: both processes' CPU spread over every core, with nothing else
 * running. A goal below it cannot be met here by any code that does the same work.
 */
const cpuFloor = (m: Measure) => (m.cpu + m.serverCpu) / cores;
/** The sandbox's CPU in a step, and the floor it makes beside the listing's wall time. */
const floorOf = (m: Measure, listing: Measure) =>
  `the sandbox's CPU ${m.serverCpu.toFixed(0)} ms, ` +
  `both processes' over ${cores} cores at least ${cpuFloor(m).toFixed(0)} ms = ${(cpuFloor(m) / listing.ms).toFixed(2)}x the listing`;
/** A no-op pull's parts, each timed alone (best of the rounds). */
interface NoopParts {
  manifest: Measure;
  stats: Measure;
  pages: Measure;
}
const peakMb = () => process.resourceUsage().maxRSS / 1024;

/**
 * The sandbox as the extension meets a service: a process of its own (dist/sandbox.cjs, built here when
 * missing), not serving on the thread that reads its pages.
 */
async function sandboxProcess() {
  const cli = path.join(__dirname, '..', 'dist', 'sandbox.cjs');
  if (!existsSync(cli)) execFileSync(process.execPath, ['esbuild.js'], { cwd: path.join(__dirname, '..'), stdio: 'inherit' });
  const given = randomBytes(24).toString('hex');
  const child = startProcess(process.execPath, [cli, '--port', '0', '--seed', 'empty'], {
    logFile: path.join(os.tmpdir(), 'oms-code-bench-sandbox.log'),
    env: { ...process.env, OMS_SANDBOX_TOKEN: given },
  });
  const { url, token, instance } = parseSandboxLine(await waitForLine(child, /listening/, 20_000, 'sandbox'), given);
  const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  serverCpuMs = () => {
    // The fields after the command's name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticks;
  };
  return { url, token, instanceKey: instance };
}

/** Two threads started with the shipped pull code, as the pull starts them: ms until both have loaded it. */
async function threadsStart(): Promise<number> {
  const code = `require(${JSON.stringify(path.join(__dirname, '..', 'dist', 'pullThread.js'))}); require('node:worker_threads').parentPort.postMessage('up')`;
  const t = process.hrtime.bigint();
  const threads = [0, 1].map(() => new Worker(code, { eval: true, execArgv: [] }));
  await Promise.all(threads.map((w) => new Promise((resolve) => w.once('message', resolve))));
  const took = ms(t);
  await Promise.all(threads.map((w) => w.terminate()));
  return took;
}

/** Folders the bench made, removed at the end, failed or not (removing 10,000 files slows the next creates for a while). */
const made: string[] = [];

/**
 * The pull's threads run what ships, dist/pullThread.js (npm run bench builds it first), as the extension's
 * do; from source they would first bundle their code with esbuild, which no user's first pull does.
 */
function shippedThreads(): boolean {
  const shipped = path.join(__dirname, '..', 'dist', 'pullThread.js');
  if (existsSync(shipped)) useThreadCode(`require(${JSON.stringify(shipped)})`);
  return existsSync(shipped);
}

async function main() {
  const shipped = shippedThreads();
  const sb = await sandboxProcess();
  let requests = 0;
  const client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token, log: () => requests++ }));
  const scanners = kind('inputScanner');
  const folderKey = sb.instanceKey; // the empty seed's one folder (the sandbox creates no folders)
  const createAll = async (k: Kind, folder: string, name: (i: number) => BaseInfo) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < count) await client.create(k, folder, name(next++));
      }),
    );
  };
  await createAll(scanners, folderKey, (i) => newObject(scanners, `Scanner ${String(i).padStart(5, '0')}`));
  const binding = await bindingOf(client, 'Bench', sb.url);
  const scope = { folderKey, recursive: false, kinds: [scanners.id] };

  // Where the files go: a folder in memory (tmpfs), where the pull's own time shows, and one on the disk,
  // where creating 10,000 files took from 0.1 s to over 1 s on the same machine from one minute to the next.
  const places = [
    { name: 'in memory', dir: '/dev/shm' },
    { name: 'on disk', dir: os.tmpdir() },
  ]
    .filter((p) => existsSync(p.dir))
    .slice(0, quick ? 1 : 2);
  const folder = async (place: { dir: string }) => {
    const dir = await fs.mkdtemp(path.join(place.dir, 'oms-code-bench-'));
    made.push(dir);
    settle();
    return dir;
  };
  /** Removes a folder the bench no longer needs: 100,000 files a folder, a dozen of them would fill the page cache. */
  const drop = async (dir: string) => {
    made.splice(made.indexOf(dir), 1);
    await fs.rm(dir, { recursive: true, force: true });
  };

  // Warm-up, both: the first listing and the first pull of a process compile their code (the pull's in its threads).
  await client.listAll(scanners, folderKey);
  const firstDir = await folder(places[0]);
  const first = await measure('first-pull', () => pull(client, firstDir, binding, { scope }));
  await drop(firstDir);
  const threadsUp = shipped ? await threadsStart() : undefined;

  // Best of three, listing, the pulls and writing the pulled files alone taking turns (each into a new
  // folder): on a shared machine one neighbour's burst would otherwise decide the ratio.
  let listing: Measure | undefined,
    textMs = Infinity,
    listed = 0;
  const pulls = places.map((place) => ({
    place,
    best: undefined as Measure | undefined,
    writeMs: Infinity,
    requests: 0,
    report: undefined as PullReport | undefined,
    root: '',
  }));
  for (let round = 0; round < rounds; round++) {
    settle();
    const list = await measure('listing', () => client.listAll(scanners, folderKey));
    listing = best(listing, list);
    listed = list.value.length;
    // The files' text alone, on one thread: what the pull threads add to each listed object before writing it.
    const t = process.hrtime.bigint();
    for (const o of list.value) hashOf(canonicalText(scanners, fileForm(scanners, o)));
    textMs = Math.min(textMs, ms(t));
    list.value.length = 0;
    for (const p of pulls) {
      if (p.root) await drop(p.root);
      const root = (p.root = await folder(p.place));
      requests = 0;
      const m = await measure(`pull-${p.place.name.replace(/ /g, '-')}`, () => pull(client, root, binding, { scope }));
      p.best = best(p.best, m);
      p.report = m.value;
      p.requests = requests;
      p.writeMs = Math.min(p.writeMs, await filesAlone(root, p.place));
    }
  }
  const list = listing!;
  const [main, ...others] = pulls;
  const root = main.root; // in memory: what follows measures the steps' own time, not a disk's
  for (const p of others) await drop(p.root);
  const report = main.report!;
  const cacheFiles = (await fs.readdir(path.join(root, '.oms'), { recursive: true })).length;
  const ratio = (x: number, of = list.ms) => `${(x / of).toFixed(2)}x`;
  /** Wall and CPU time of a step beside the listing's. */
  const figures = (m: Measure) =>
    `${m.ms.toFixed(0)} ms = ${ratio(m.ms)} the listing, CPU ${m.cpu.toFixed(0)} ms = ${ratio(m.cpu, list.cpu)} the listing's, ` +
    `${heldUp(m)}; ${floorOf(m, list)}`;
  console.log(
    `listing ${listed} scanners with the client, best of ${rounds}: ${list.ms.toFixed(0)} ms, CPU ${list.cpu.toFixed(0)} ms, ` +
      `this thread ${heldUp(list)}; ${floorOf(list, list)}`,
  );
  console.log(
    `pull ${report.objects} scanners ${main.place.name} (${main.place.dir}: the pull's own time, not a disk's), best of ${rounds}: ` +
      `${figures(main.best!)} (goal ≤ 1.3x, held up ≤ 50 ms); ` +
      `${main.requests} requests, ${(report.bytesWritten / 1e6).toFixed(1)} MB in ${report.written} files (+${cacheFiles} in .oms/)`,
  );
  for (const p of others)
    console.log(
      `  ${p.place.name} (${p.place.dir}): ${figures(p.best!)} · ` +
        `writing the ${report.written} files alone there (node fs, one after another): ${p.writeMs.toFixed(0)} ms = ${ratio(p.writeMs)}`,
    );
  const threadCode = shipped ? "dist/pullThread.js, as the extension's" : 'bundled first with esbuild: no dist/pullThread.js, run `node esbuild.js`';
  console.log(`  the first pull of the process ${places[0].name} (its threads start and compile their code, ${threadCode}): ${figures(first)} (goal ≤ 1.5x)`);
  if (threadsUp)
    console.log(
      `    of which two threads' start with that code, timed alone: ${threadsUp.toFixed(0)} ms = ${ratio(threadsUp)} ` +
        '(Pull as Files… starts them while it asks what to pull)',
    );
  console.log(
    `  its parts alone, on one thread: the files' text (canonical JSON + hash) ${textMs.toFixed(0)} ms = ${ratio(textMs)}, ` +
      `writing the files ${main.place.name} ${main.writeMs.toFixed(0)} ms = ${ratio(main.writeMs)}; ` +
      "the pull's two threads do both while the next pages are read",
  );
  console.log(`  peak RSS so far ${peakMb().toFixed(0)} MB`);

  /** The pulled files alone: the same names and bytes, written one after the other with node fs (read one at a time, untimed), in ms. */
  async function filesAlone(root: string, place: { dir: string }): Promise<number> {
    const dir = path.dirname([...(await readManifest(root))!.objects.values()][0].path);
    const writeDir = await folder(place);
    let writeNs = 0n;
    for (const name of await fs.readdir(path.join(root, dir))) {
      const text = readFileSync(path.join(root, dir, name));
      const w = process.hrtime.bigint();
      writeFileSync(path.join(writeDir, name), text);
      writeNs += process.hrtime.bigint() - w;
    }
    await drop(writeDir);
    return Number(writeNs) / 1e6;
  }

  /** A pulled folder's page requests as a no-op pull sends them (the last pull's tags, .oms/pages), timed alone. */
  async function taggedPages(root: string) {
    const tags = readFileSync(path.join(root, '.oms', 'pages'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { folderKey: string; kind: Kind['id']; page: number; size: number; etag: string });
    let unchanged = 0;
    const asked = await measure('page-304s', async () => {
      for (const t of tags) if ((await client.listBytesIf(kind(t.kind), t.folderKey, t.page, t.size, t.etag)).unchanged) unchanged++;
    });
    return { tags: tags.length, unchanged, asked };
  }

  /**
   * What a no-op pull cannot skip, each alone on this thread: reading the manifest, a stat of each file (as git's
   * index is checked) and the page requests answered 304. Their sum is the no-op's floor with this design.
   */
  async function noopParts(root: string, before?: NoopParts): Promise<NoopParts> {
    const read = await measure('manifest-read', () => readManifest(root));
    const files = [...read.value!.objects.values()].map((o) => path.join(root, o.path));
    const stats = await measure('stats', () => {
      for (const file of files) statSync(file, { bigint: true });
      return Promise.resolve();
    });
    const { asked } = await taggedPages(root);
    return { manifest: best(before?.manifest, read), stats: best(before?.stats, stats), pages: best(before?.pages, asked) };
  }

  // People: small objects, so listing them is quick while each still costs a file (in memory, best of 3).
  if (!quick) await pullPeople();
  async function pullPeople() {
    const people = kind('person');
    const staff = folderKey; // beside the scanners: a pull of people lists only people
    await createAll(people, staff, (i) => ({ ...newObject(people, `Person ${i}`), GivenName: `Given${i}`, Surname: `Surname ${String(i).padStart(5, '0')}` }));
    let peopleList: Measure | undefined, peoplePull: Measure | undefined, peopleNoop: Measure | undefined;
    let peopleListed = 0,
      peoplePulled = 0,
      writeMs = Infinity;
    let parts: NoopParts | undefined;
    const scope = { folderKey: staff, recursive: false, kinds: [people.id] };
    for (let round = 0; round < 3; round++) {
      settle();
      const l = await measure('people-listing', () => client.listAll(people, staff));
      peopleListed = l.value.length;
      peopleList = best(peopleList, l);
      const dir = await folder(places[0]);
      const m = await measure('people-pull', () => pull(client, dir, binding, { scope }));
      peoplePulled = m.value.written;
      peoplePull = best(peoplePull, m);
      // As many objects as the scanners, in a listing half as long: the no-op's work per object weighs twice as much here.
      settle();
      peopleNoop = best(peopleNoop, await measure('people-noop-pull', () => pull(client, dir, binding, {})));
      parts = await noopParts(dir, parts);
      writeMs = Math.min(writeMs, await filesAlone(dir, places[0]));
      await drop(dir);
    }
    const peopleListing = peopleList!;
    const byListing = (x: number) => ratio(x, peopleListing.ms);
    /** Wall and CPU time of a step with the people beside their listing's. */
    const peopleFigures = (m: Measure) =>
      `${m.ms.toFixed(0)} ms = ${byListing(m.ms)} the listing, CPU ${m.cpu.toFixed(0)} ms = ${ratio(m.cpu, peopleListing.cpu)} the listing's, ${heldUp(m)}`;
    console.log(
      `pull ${peoplePulled} people ${places[0].name}, best of 3: ${peopleFigures(peoplePull!)} (goal ≤ 1.3x, ≤ 50 ms); ${floorOf(peoplePull!, peopleListing)}` +
        ` · listing them all with the client: ${peopleListing.ms.toFixed(0)} ms, CPU ${peopleListing.cpu.toFixed(0)} ms (${peopleListed})` +
        ` · writing the files alone ${writeMs.toFixed(0)} ms = ${byListing(writeMs)} the listing`,
    );
    console.log(`  a no-op pull of them: ${peopleFigures(peopleNoop!)} (goal ≤ 0.3x); ${floorOf(peopleNoop!, peopleListing)}`);
    const { manifest, stats, pages } = parts!;
    const floor = manifest.ms + stats.ms + pages.ms;
    console.log(
      `    its parts alone, one after another: reading the manifest ${manifest.ms.toFixed(0)} ms = ${byListing(manifest.ms)}, ` +
        `a stat of each file ${stats.ms.toFixed(0)} ms = ${byListing(stats.ms)}, ` +
        `the page requests answered 304 ${pages.ms.toFixed(0)} ms = ${byListing(pages.ms)}; together ${floor.toFixed(0)} ms = ${byListing(floor)} the listing`,
    );
  }

  let noop: Measure | undefined, again: PullReport | undefined;
  for (let round = 0; round < rounds; round++) {
    settle();
    const m = await measure('noop-pull', () => pull(client, root, binding, {}));
    noop = best(noop, m);
    again = m.value;
  }
  console.log(
    `no-op pull of ${count} scanners, best of ${rounds}: ${figures(noop!)} (goal ≤ 0.3x); ` +
      `files written ${again!.written}, bytes changed ${again!.bytesWritten} (goal 0)`,
  );
  // Its floor: the same conditional page requests (the last pull's tags, .oms/pages), each answered 304, and nothing else.
  const { tags, unchanged, asked } = await taggedPages(root);
  console.log(
    `  its ${tags} page requests alone, each with its tag (${unchanged} answered 304): ${figures(asked)}; ` +
      `the no-op pull is ${(noop!.ms / asked.ms).toFixed(2)}x them`,
  );

  const manifest = (await readManifest(root))!;
  // Edits take files from the start of the manifest's order, saves objects from its end: none is both.
  const keys = [...manifest.objects.keys()];
  /** Edits files [from, from + n) (one priority each) and plans the folder. */
  const editAndPlan = async (from: number, n: number) => {
    for (const p of keys.slice(from, from + n).map((k) => manifest.objects.get(k)!.path)) {
      const o = JSON.parse(await fs.readFile(path.join(root, p), 'utf8')) as InputScannerInfo;
      o.InputScannerReportingPriorities[1].Priority = (o.InputScannerReportingPriorities[1].Priority % 5) + 1;
      await fs.writeFile(path.join(root, p), JSON.stringify(o, null, 2) + '\n');
    }
    settle();
    requests = 0;
    return measure(`plan-${n}`, () => makePlan(client, root, binding));
  };
  for (const edits of [0, 100]) {
    const planned = await editAndPlan(0, edits);
    const updates = planned.value.plan.entries.filter((e) => e.action === 'update').length;
    console.log(
      `plan over ${count} files with ${edits} edits: ${figures(planned)} (goal ≤ 1.2x), ` +
        `${requests} requests (pages of 1,000: ${Math.ceil(count / 1000) + 1}), ${updates} updates`,
    );
  }
  /** Applies a plan of `from`'s 100 edits, then saves 100 others (as many from the end) one at a time: rates and their ratio. */
  const applyBesideSaves = async (from: number, where: string) => {
    const { plan } = (await editAndPlan(from, 100)).value;
    requests = 0;
    const applied = await measure('apply', () => applyPlan(client, root, binding, plan, { stopOnError: false }));
    const done = applied.value.filter((r) => r.outcome === 'applied').length;
    const sent = requests;
    const others = new Set(keys.slice(keys.length - from - 100, keys.length - from));
    const sample = (await client.listAll(scanners, folderKey)).filter((o) => others.has(o.Key!));
    let saved = 0;
    const one = await measure('saves', async () => {
      for (const o of sample) {
        const edited = { ...(o as InputScannerInfo), NonSettlingErrorPriority: ((o as InputScannerInfo).NonSettlingErrorPriority % 5) + 1 };
        if ((await saveObject(client, { kind: scanners, folderKey, key: o.Key! }, edited, o.ConcurrencyVersion ?? null)).status === 'saved') saved++;
      }
    });
    const rate = (n: number, m: Measure) => n / (m.ms / 1000);
    const applyRate = rate(done, applied);
    const saveRate = rate(saved, one);
    console.log(
      `apply ${done} updates ${where} (4 at a time; each read, PUT, read again): ${applyRate.toFixed(0)} objects/s ` +
        `(CPU ${(applied.cpu / done).toFixed(2)} ms each, GC pauses ${applied.gc.toFixed(0)} ms in all, ${heldUp(applied)}), ${sent} requests` +
        ` · ${saved} saves one at a time (saveObject: GET, PUT, GET): ${saveRate.toFixed(0)} objects/s ` +
        `(CPU ${(one.cpu / saved).toFixed(2)} ms each = ${((100 * one.cpu) / one.ms).toFixed(0)}% of their time, GC pauses ${one.gc.toFixed(0)} ms in all)` +
        ` · ratio ${(applyRate / saveRate).toFixed(2)}x (goal ≥ 2x, the same rate at any folder size)`,
    );
    // What grows with the folder: the manifest git carries is read and written whole once per apply. Its floor is its bytes read and written once.
    const file = path.join(root, 'oms.manifest.json');
    const floor = await measure('manifest-floor', async () => {
      const bytes = await fs.readFile(file);
      await fs.writeFile(`${file}.floor`, bytes);
      await fs.rm(`${file}.floor`);
      return bytes.length;
    });
    console.log(
      `  what grows with the folder: the manifest (${(floor.value / 1e6).toFixed(1)} MB), ` +
        `its bytes read and written once: ${floor.ms.toFixed(0)} ms, CPU ${floor.cpu.toFixed(0)} ms; ` +
        `the apply less that: ${(applied.ms - floor.ms).toFixed(0)} ms against the saves' ${one.ms.toFixed(0)} ms`,
    );
  };
  await applyBesideSaves(0, 'from the sandbox on this machine');
  // The service is a cloud: each answer some way off. The sandbox answers every object request of the folder 20 ms late
  // (a delay rule for the apply's and the saves' 600 requests), and four at a time then counts as it does there.
  const rule = await fetch(`${sb.url}/sandbox/faults`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ path: `/api/f/${folderKey}/inputscanners/`, count: 600, delayMs: 20 }),
  });
  if (!rule.ok) throw new Error(`the delay rule was refused: ${rule.status}`);
  await applyBesideSaves(100, 'from a service 20 ms away');
  const peak = peakMb();
  console.log(`peak RSS ${peak.toFixed(0)} MB = ${(peak / (count / 10_000)).toFixed(0)} MB per 10,000 objects`);
}

const removeMade = () => Promise.all(made.map((d) => fs.rm(d, { recursive: true, force: true })));
process.once('SIGINT', () => void removeMade().finally(() => process.exit(130)));
main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(async () => {
    await removeMade();
    await stopAll();
  });
