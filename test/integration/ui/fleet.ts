// Fleet figures in the real host (opt-in: OMS_UI_FLEET=1; minutes, not part of `npm test`): a Bulk Edit
// of 10,000 scanners from a group, its Undo Run and Retry Failed, a pull of 10,000 as files with Go to
// Object and the Object Changes view of 10,000 updates after it, and a pull of 100,000 people then
// Plan Changes… listing nothing. Each figure is printed beside its goal (and written to fleet.txt)
// with the machine's load and the CPU time of the extension host and the sandbox; a check fails
// when one of its figures misses its goal.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { OmsClient } from '../../../src/api/client';
import { createHttp } from '../../../src/api/http';
import { bulkChanges } from '../../../src/changes/bulk';
import { runChanges } from '../../../src/changes/executor';
import { RunJournal } from '../../../src/changes/runJournal';
import { kind } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';
import type { PersonInfo } from '../../../src/model/types';
import { waitForTitle, pick, fromMenu, input, loggedLines, notification, palette, query, send, until, type Env, type UiCheckList } from './helpers';
import { objectsView, planChangesOf, planPane, planRow } from './plan';

const scanners = 10_000;
const people = Number(process.env.OMS_UI_FLEET_PEOPLE ?? 100_000);
const scannerKind = kind('inputScanner');

/** What the checks share: the sandbox's client, the folders made, the bench's rate. */
interface Fleet {
  client: OmsClient;
  fleetKey: string;
  /** The executor alone (the issue's bench, the goal's reference), and with a run's journal: the run without the window. */
  benchRate?: number;
  journalRate?: number;
  lines: string[];
}
let made: Fleet | undefined;

// ---- Measuring

/** Page code: the longest gap between two animation frames, and the long tasks the page saw. */
const meterStart = `(() => {
  const m = (window.__omsMeter = { max: 0, last: performance.now(), frames: 0, long: [], on: true });
  const tick = (t) => { if (!m.on) return; m.max = Math.max(m.max, t - m.last); m.last = t; m.frames++; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  try {
    m.obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) m.long.push(Math.round(e.duration)); });
    m.obs.observe({ type: 'longtask' });
  } catch {}
})()`;
const meterStop = `(() => {
  const m = window.__omsMeter; m.on = false; m.obs?.disconnect();
  return { gap: Math.round(Math.max(m.max, performance.now() - m.last)), frames: m.frames, longTask: Math.max(0, ...m.long), longTasks: m.long.length };
})()`;

/** CPU time (ms) of a process, from /proc (user + system). */
function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * (1000 / 100);
  } catch {
    return 0;
  }
}

/** This run's processes whose command line matches `pattern` (by the workspace in their environment: other runs share the machine). */
function pidsOf(env: Env, pattern: RegExp): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (!pattern.test(fs.readFileSync(`/proc/${d}/cmdline`, 'utf8'))) continue;
      if (fs.readFileSync(`/proc/${d}/environ`, 'utf8').split('\0').includes(`OMS_WORKSPACE=${env.OMS_WORKSPACE}`)) out.push(Number(d));
    } catch {
      /* gone, or not ours */
    }
  }
  return out;
}

function cpuOf(pids: number[]): number {
  return pids.reduce((sum, p) => sum + cpuMs(p), 0);
}

/** Every process's CPU time (ms) now, by pid, with a short name: what else shared the machine's cores during a step. */
function everyCpu(): Map<number, { name: string; ms: number }> {
  const out = new Map<number, { name: string; ms: number }>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      // Chromium rewrites its command line as one string: its words are split on spaces too.
      const words = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').split(/[\0 ]/);
      const type =
        words.find((a) => a.startsWith('--type='))?.slice(7) ??
        words
          .find((a) => /\.(c?js|ts)$/.test(a))
          ?.split('/')
          .pop();
      const name = words[0] ? path.basename(words[0]) : fs.readFileSync(`/proc/${d}/comm`, 'utf8').trim();
      out.set(Number(d), { name: `${name}${type ? ` ${type}` : ''}`, ms: cpuMs(Number(d)) });
    } catch {
      /* gone */
    }
  }
  return out;
}

/** The busiest processes between two `everyCpu()`s, but for `known` (shown on their own): `name 1.2 s, ...`. */
function busiest(before: Map<number, { ms: number }>, after: Map<number, { name: string; ms: number }>, known: number[]): string {
  const used = [...after].filter(([pid]) => !known.includes(pid)).map(([pid, a]) => ({ name: a.name, ms: a.ms - (before.get(pid)?.ms ?? 0) }));
  const total = used.reduce((sum, u) => sum + u.ms, 0);
  const top = used
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 4)
    .filter((u) => u.ms >= 100);
  return `${s(total)} (${top.map((u) => `${u.name} ${s(u.ms)}`).join(', ')})`;
}

interface Measure {
  ms: number;
  gap: number;
  longTask: number;
  hostCpu: number;
  sandboxCpu: number;
  /** The other processes' CPU in all, and the busiest of them. */
  othersCpu: string;
  load: string;
  complaints: string[];
}

/** Runs `step` with the frame meter on; the wall time, the longest frame gap, CPU times and what the console complained of. */
async function measured(page: Page, env: Env, step: () => Promise<void>, name?: string): Promise<Measure> {
  const host = pidsOf(env, /type=extensionHost/);
  const sandbox = sandboxPid(env);
  const complaints: string[] = [];
  const listen = (m: { text(): string }) => {
    if (/unresponsive|ListenerLeak|listener leak/i.test(m.text())) complaints.push(m.text().slice(0, 200));
  };
  page.on('console', listen);
  const [h0, s0, all0] = [cpuOf(host), cpuOf(sandbox), everyCpu()];
  // OMS_UI_PROFILE=renderer (development): the window's own CPU profile of the step, where its frame gaps come from.
  const cdp = name && process.env.OMS_UI_PROFILE === 'renderer' ? await page.context().newCDPSession(page) : undefined;
  if (cdp) for (const m of ['Profiler.enable', 'Profiler.start'] as const) await cdp.send(m);
  await page.evaluate(meterStart);
  const t0 = Date.now();
  try {
    await step();
  } finally {
    page.off('console', listen);
    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      fs.writeFileSync(path.join(env.OMS_UI_DIAG ?? '.', `renderer-${name}.cpuprofile`), JSON.stringify(profile));
      await cdp.detach();
    }
  }
  const ms = Date.now() - t0;
  const m = await page.evaluate<{ gap: number; longTask: number }>(meterStop);
  const shown = await page.locator('.notification-list-item', { hasText: /unresponsive/i }).count();
  if (shown) complaints.push(`${shown} "unresponsive" notification(s) on screen`);
  const othersCpu = busiest(all0, everyCpu(), [...host, ...sandbox]);
  return {
    ms,
    gap: m.gap,
    longTask: m.longTask,
    hostCpu: cpuOf(host) - h0,
    sandboxCpu: cpuOf(sandbox) - s0,
    othersCpu,
    load: os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' '),
    complaints,
  };
}

/**
 * Node 24's code (the host's, which has WebSocket): attaches to an inspector, profiles until its
 * stdin ends, writes the profile, and closes the inspector again.
 */
const profilerScript = `
const [url, out] = process.argv.slice(1);
const sock = new WebSocket(url);
let id = 0;
const pending = new Map();
const call = (method, params = {}) => new Promise((r) => { pending.set(++id, r); sock.send(JSON.stringify({ id, method, params })); });
sock.onmessage = (e) => { const m = JSON.parse(e.data); if (pending.has(m.id)) { pending.get(m.id)(m.result); pending.delete(m.id); } };
sock.onopen = async () => {
  await call('Profiler.enable');
  await call('Profiler.setSamplingInterval', { interval: 500 });
  await call('Profiler.start');
  console.log('profiling');
  process.stdin.resume();
  process.stdin.on('end', async () => {
    const { profile } = await call('Profiler.stop');
    require('fs').writeFileSync(out, JSON.stringify(profile));
    sock.send(JSON.stringify({ id: ++id, method: 'Runtime.evaluate', params: { expression: "process.getBuiltinModule('inspector').close()" } }));
    setTimeout(() => process.exit(0), 500);
  });
};`;

/**
 * OMS_UI_PROFILE=1 (development): the extension host's CPU profile of `step`, in <diag>/<name>.cpuprofile. Its
 * inspector is opened (SIGUSR1, 127.0.0.1:9229) for the step only: any local user could attach to it meanwhile.
 */
async function profiled(env: Env, diag: string, name: string, step: () => Promise<void>): Promise<void> {
  const [pid] = pidsOf(env, /type=extensionHost/);
  if (process.env.OMS_UI_PROFILE !== '1' || !pid) return step();
  process.kill(pid, 'SIGUSR1');
  const targets = await until("the extension host's inspector", () =>
    fetch('http://127.0.0.1:9229/json/list').then(
      (r) => r.json() as Promise<Array<{ webSocketDebuggerUrl: string }>>,
      () => undefined,
    ),
  );
  // The extension host's own Node.js: a WebSocket of its own.
  const child = spawn(fs.readlinkSync(`/proc/${pid}/exe`), ['-e', profilerScript, targets[0].webSocketDebuggerUrl, path.join(diag, `${name}.cpuprofile`)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the profiler ended (${code})`)));
  });
  try {
    await step();
  } finally {
    const ended = new Promise((r) => child.once('exit', r));
    child.stdin.end();
    await ended;
  }
}

/** The sandbox the runner started (its data file is beside the workspace), whatever its environment holds. */
function sandboxPid(env: Env): number[] {
  const data = path.join(path.dirname(env.OMS_WORKSPACE), 'data.json');
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(data);
      } catch {
        return false;
      }
    })
    .map(Number);
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** One figure beside its goal, printed and kept; returns whether it met the goal. */
function figure(fleet: Fleet, diag: string, what: string, shown: string, goal: string, met: boolean | undefined, m?: Measure): boolean {
  const complaints = m?.complaints.length ? `; console: ${m.complaints.join(' | ')}` : '';
  const where = m
    ? ` [load ${m.load}; extension host CPU ${s(m.hostCpu)}, sandbox CPU ${s(m.sandboxCpu)}, other processes ${m.othersCpu}; ` +
      `longest frame gap ${m.gap} ms, longest task ${m.longTask} ms${complaints}]`
    : '';
  const line = `fleet: ${what}: ${shown} (goal ${goal}${met === undefined ? '' : met ? ': met' : ': MISSED'})${where}`;
  console.log(line);
  fleet.lines.push(line);
  fs.writeFileSync(path.join(diag, 'fleet.txt'), fleet.lines.join('\n') + '\n');
  return met !== false;
}

function verdict(results: boolean[], what: string): void {
  if (!results.every(Boolean)) throw new Error(`${what}: a figure missed its goal (see fleet.txt)`);
}

// ---- The data

async function inBatches<T>(items: T[], at: number, f: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: at }, async () => {
      while (next < items.length) await f(items[next++]);
    }),
  );
}

/** The demo's Warehouse (the service creates no folders), its input scanners made 10,000 over REST (once per run). */
async function fleetOf(env: Env, diag: string): Promise<Fleet> {
  if (made) return made;
  const client = new OmsClient(createHttp({ baseUrl: env.OMS_SANDBOX_URL, token: () => env.OMS_SANDBOX_TOKEN }));
  const folder = await warehouse(client);
  const t0 = Date.now();
  const have = (await client.listAll(scannerKind, folder)).length;
  await inBatches(
    Array.from({ length: scanners - have }, (_, i) => i),
    8,
    (i) => client.create(scannerKind, folder, newObject(scannerKind, `Fleet ${i}`)),
  );
  made = { client, fleetKey: folder, lines: [] };
  figure(made, diag, `seeded ${scanners - have} input scanners over REST (${scanners} in ${fleetFolder})`, s(Date.now() - t0), 'none', undefined);
  return made;
}

const fleetFolder = 'Warehouse';

async function warehouse(client: OmsClient): Promise<string> {
  const root = await client.instance();
  const folder = (await client.listAll(kind('folder'), root.Key!)).find((f) => f.CommonName === fleetFolder);
  if (!folder?.Key) throw new Error(`no folder ${fleetFolder} in the demo data`);
  return folder.Key;
}

/**
 * Counts successful PUTs to the fleet's scanners in sandbox.log from now on, and the time the sandbox logged
 * the last of them. Each call reads only what was logged since the last (reading the whole of a run's log four
 * times a second took the runner seconds of CPU during a send of 10,000, on a machine the host's send shares).
 */
function putCounter(diag: string, fleetKey: string): { count(): number; lastAt: number } {
  const file = path.join(diag, 'sandbox.log');
  let offset = fs.statSync(file).size,
    rest = '';
  const counter = {
    n: 0,
    lastAt: 0,
    count(): number {
      const fd = fs.openSync(file, 'r');
      try {
        const buffer = Buffer.alloc(Math.max(0, fs.fstatSync(fd).size - offset));
        offset += fs.readSync(fd, buffer, 0, buffer.length, offset);
        const lines = (rest + buffer.toString('utf8')).split('\n');
        rest = lines.pop()!;
        // A line: `<time> PUT <path> <status> <ms>ms`.
        for (const l of lines) {
          if (!l.includes(` PUT /api/f/${fleetKey}/inputscanners/`) || !/ 2\d\d \d+ms$/.test(l)) continue;
          counter.n++;
          counter.lastAt = Date.parse(l.slice(0, l.indexOf(' ')));
        }
      } finally {
        fs.closeSync(fd);
      }
      return counter.n;
    },
  };
  return counter;
}

// ---- Moving through the window

const treeRow = (page: Page, level: number, label: string) =>
  page
    .locator(`.part.sidebar .monaco-list-row[aria-level="${level}"]`)
    .filter({ hasText: new RegExp(`^\\s*${label}`) })
    .first();

async function expand(page: Page, level: number, label: string): Promise<void> {
  const r = treeRow(page, level, label);
  await r.waitFor({ timeout: 15_000 });
  await until(`${label} expanded`, async () => {
    if ((await r.getAttribute('aria-expanded')) === 'true') return true;
    await r.click();
    await page.waitForTimeout(500);
    return (await r.getAttribute('aria-expanded')) === 'true';
  });
}

/** A group of a folder at the root (level 3), right-clicked, `entry` of its menu. */
async function groupMenu(page: Page, folder: string, group: string, entry: string): Promise<void> {
  // Made over REST after the tree was read: Refresh shows it.
  if (
    !(await treeRow(page, 3, folder)
      .waitFor({ timeout: 3_000 })
      .then(
        () => true,
        () => false,
      ))
  )
    await palette(page, 'OMS: Refresh');
  await expand(page, 3, folder);
  await fromMenu(page, treeRow(page, 4, group), entry);
}

/**
 * A notification's text, once it shows in the notification centre (a headless window holds toasts back; the centre is
 * opened again until it shows it: one posted while it was open was not drawn, and a run's report seemed 60 s late).
 */
async function centreMessage(page: Page, text: RegExp, ms: number): Promise<string> {
  return (await notification(page, text, ms)).locator('.notification-list-item-message').first().innerText();
}

async function showNotifications(page: Page): Promise<void> {
  await palette(page, 'Notifications: Clear All Notifications');
  await palette(page, 'Notifications: Show Notifications');
}

/**
 * Sends the previewed run (its first item) and waits until the sandbox logged `count` PUTs to the fleet; the ms from
 * Enter to the last of them as the sandbox logged it (not the quarter second the log is polled every).
 */
async function sendAndCount(page: Page, diag: string, fleet: Fleet, count: number): Promise<number> {
  const puts = putCounter(diag, fleet.fleetKey);
  const start = Date.now();
  await page.keyboard.press('Enter');
  await until(`${count} PUTs in sandbox.log`, () => Promise.resolve(puts.count() >= count), 20 * 60_000);
  return puts.lastAt - start;
}

/** The run's report (its journal closed): the next run may start. */
async function runReported(page: Page): Promise<void> {
  await palette(page, 'Notifications: Show Notifications');
  // Logged as shown, but once not found in the centre within 10 minutes: a short wait, not a failure.
  await centreMessage(page, /\d+ applied/, 60_000).catch(() => console.log("fleet: the run's report was not seen in the notification centre"));
  await palette(page, 'Notifications: Clear All Notifications');
}

// ---- The checks

/** The fleet's scanners as the executor's targets. */
async function fleetTargets(fleet: Fleet) {
  const listed = await fleet.client.listAll(scannerKind, fleet.fleetKey);
  return listed.map((o) => ({ kind: scannerKind, folderKey: fleet.fleetKey, key: o.Key!, name: o.CommonName! }));
}
type Targets = Awaited<ReturnType<typeof fleetTargets>>;

/**
 * One run of the executor adding a tag of its own to `targets`, as bench/bulk.bench.ts runs it; with `journalled`,
 * each intent in a run's journal on disk before its write (src/changes/runJournal.ts): all the run shell adds but
 * the window. Its rate, printed with the CPU of the runner, the sandbox and the busiest other processes.
 */
async function executorRate(fleet: Fleet, env: Env, diag: string, what: string, targets: Targets, journalled: boolean): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oms-fleet-journal-'));
  try {
    const writer = journalled ? await new RunJournal(dir).begin({ title: 'bench', connectionId: 'bench', total: targets.length }) : undefined;
    const cpu0 = process.cpuUsage();
    const [sandbox, all0] = [sandboxPid(env), everyCpu()];
    const s0 = cpuOf(sandbox);
    const t0 = Date.now();
    const changes = bulkChanges(targets, { type: 'addTag', tag: `bench-${t0}` });
    const byId = new Map(changes.map((c) => [c.id, c]));
    const results = await runChanges(fleet.client, changes, {
      stopOnError: false,
      ...(writer && { beforeWrite: (change, body, live) => writer.intent(change, body, live), onResult: (r) => void writer.record(byId.get(r.id)!, r) }),
    });
    const ms = Date.now() - t0;
    await writer?.close();
    const rate = results.filter((r) => r.outcome === 'applied').length / (ms / 1000);
    const cpu = process.cpuUsage(cpu0);
    const others = busiest(all0, everyCpu(), [process.pid, ...sandbox]);
    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    figure(
      fleet,
      diag,
      `bench: ${what}, add a tag to ${results.length} scanners (concurrency 4)`,
      `${s(ms)}, ${rate.toFixed(0)} objects/s, runner CPU ${s((cpu.user + cpu.system) / 1000)}, ` +
        `sandbox CPU ${s(cpuOf(sandbox) - s0)}, other processes ${others} [load ${load}]`,
      'the reference',
      undefined,
    );
    return rate;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The bench's rate on this machine, now: the executor alone on the same 10,000 scanners; then again with a run's
 * journal, the run without the window: what the host's rate is short of beyond it is the host's.
 */
async function benchRate(env: Env, diag: string): Promise<void> {
  const fleet = await fleetOf(env, diag);
  const targets = await fleetTargets(fleet);
  fleet.benchRate = await executorRate(fleet, env, diag, 'executor alone', targets, false);
  fleet.journalRate = await executorRate(fleet, env, diag, "executor with a run's journal", targets, true);
}

/**
 * The send rate beside the bench's, the executor alone: within 1.2x. Beside it, the run without the window
 * (executor and journal): what the run must do anyway (intents on disk before their writes), not the window's cost.
 */
function rateFigure(fleet: Fleet, diag: string, what: string, m: Measure, count: number, journalRate = fleet.journalRate): boolean {
  const rate = count / (m.ms / 1000);
  const { benchRate } = fleet;
  const besideJournal = journalRate ? `; ${(rate / journalRate).toFixed(2)}x the run without the window (${journalRate.toFixed(0)}/s)` : '';
  const goal = benchRate
    ? `≥ ${(benchRate / 1.2).toFixed(0)} objects/s (the executor alone, ${benchRate.toFixed(0)} / 1.2)${besideJournal}`
    : 'within 1.2x of the bench';
  return figure(fleet, diag, what, `${count} in ${s(m.ms)}: ${rate.toFixed(0)} objects/s`, goal, benchRate ? rate >= benchRate / 1.2 : undefined, m);
}

function quietFigure(fleet: Fleet, diag: string, what: string, m: Measure): boolean {
  return figure(
    fleet,
    diag,
    `${what}: console and notifications`,
    m.complaints.length ? m.complaints.join(' | ') : 'nothing',
    'no unresponsive extension host, no listener leak',
    !m.complaints.length,
  );
}

async function bulkEditFromGroup(page: Page, env: Env, diag: string): Promise<void> {
  const fleet = await fleetOf(env, diag);
  if (!fleet.benchRate) await benchRate(env, diag);
  const tag = `host-${Date.now().toString(36)}`;
  await palette(page, 'View: Close All Editors');
  let summary = '';
  const toAsk = await measured(
    page,
    env,
    async () => {
      await groupMenu(page, fleetFolder, 'Input scanners', 'Bulk Edit');
      await waitForTitle(page, 'operation', 120_000);
    },
    'bulk-menu',
  );
  await input(page).pressSequentially('Add a tag');
  await page.waitForTimeout(300);
  await page.keyboard.press('Enter');
  await waitForTitle(page, 'Add a tag');
  await input(page).fill(tag);
  const preview = await measured(
    page,
    env,
    async () => {
      await page.keyboard.press('Enter');
      summary = await waitForTitle(page, / to change · /, 10 * 60_000);
    },
    'bulk-preview',
  );
  const counted = summary.includes(`${scanners} to change`);
  let sendMs = 0;
  const send = await measured(
    page,
    env,
    () => profiled(env, diag, 'bulk-send', async () => void (sendMs = await sendAndCount(page, diag, fleet, scanners))),
    'bulk-send',
  );
  const ended = Date.now();
  await runReported(page);
  const reported = Date.now() - ended;
  // Sent, whatever its figures: Undo Run has a run to undo.
  fleet.lines.push(`(tag ${tag})`);
  lastTag = tag;
  verdict(
    [
      figure(
        fleet,
        diag,
        'Bulk Edit… on the group of 10,000: from the menu to the operation question (the group listed)',
        s(toAsk.ms),
        'none',
        undefined,
        toAsk,
      ),
      figure(
        fleet,
        diag,
        'Bulk Edit, add a tag, 10,000 scanners: the preview appears',
        `${s(preview.ms)} ("${summary}")`,
        '≤ 2 s',
        preview.ms <= 2000 && counted,
        preview,
      ),
      rateFigure(fleet, diag, 'Bulk Edit, add a tag: sent in the host', { ...send, ms: sendMs }, scanners),
      figure(fleet, diag, "Bulk Edit: from the last PUT to the run's report", s(reported), 'none', undefined),
      quietFigure(fleet, diag, 'Bulk Edit, preview and send', { ...send, complaints: [...preview.complaints, ...send.complaints] }),
    ],
    'Bulk Edit of 10,000',
  );
}
let lastTag = '';

async function undoTheRun(page: Page, env: Env, diag: string): Promise<void> {
  const fleet = await fleetOf(env, diag);
  if (!lastTag) throw new Error('no bulk edit of the fleet ran before');
  await palette(page, 'View: Close All Editors');
  await palette(page, 'Undo Run…');
  await waitForTitle(page, 'Undo which run?');
  await input(page).pressSequentially(lastTag);
  await page.waitForTimeout(500);
  let summary = '';
  const preview = await measured(
    page,
    env,
    () =>
      profiled(env, diag, 'undo-preview', async () => {
        await page.keyboard.press('Enter');
        summary = await waitForTitle(page, / to change · /, 10 * 60_000);
      }),
    'undo-preview',
  );
  let sendMs = 0;
  const send = await measured(page, env, async () => void (sendMs = await sendAndCount(page, diag, fleet, scanners)), 'undo-send');
  await runReported(page);
  verdict(
    [
      figure(
        fleet,
        diag,
        'Undo Run of it: the preview appears',
        `${s(preview.ms)} ("${summary}")`,
        '≤ 2 s',
        preview.ms <= 2000 && summary.includes(`${scanners} to change`),
        preview,
      ),
      rateFigure(fleet, diag, 'Undo Run: sent in the host', { ...send, ms: sendMs }, scanners),
      quietFigure(fleet, diag, 'Undo Run', { ...send, complaints: [...preview.complaints, ...send.complaints] }),
    ],
    'Undo Run of 10,000',
  );
}

/** A bulk edit with 1,000 requests answered 500, then Retry Failed of the objects they failed. */
async function retryFailed(page: Page, env: Env, diag: string): Promise<void> {
  const fleet = await fleetOf(env, diag);
  const tag = `retry-${Date.now().toString(36)}`;
  await palette(page, 'View: Close All Editors');
  // The notification centre open before the run: a palette command once the preview shows would close it.
  await showNotifications(page);
  await groupMenu(page, fleetFolder, 'Input scanners', 'Bulk Edit');
  await waitForTitle(page, 'operation', 120_000);
  await input(page).pressSequentially('Add a tag');
  await page.waitForTimeout(300);
  await page.keyboard.press('Enter');
  await waitForTitle(page, 'Add a tag');
  await input(page).fill(tag);
  await page.keyboard.press('Enter');
  await waitForTitle(page, / to change · /, 10 * 60_000);
  // The next 1,000 reads or writes of the fleet's scanners are answered 500: about that many objects fail.
  await send(env, 'POST', '/sandbox/faults', { path: `/api/f/${fleet.fleetKey}/inputscanners/`, status: 500, count: 1000 });
  const puts = putCounter(diag, fleet.fleetKey);
  await page.keyboard.press('Enter');
  await palette(page, 'Notifications: Show Notifications');
  // The run's report ("… 9,563 applied · 437 failed"), not its progress ("… 5,000/10,000 · 200 failed"): the run
  // went on after a progress line matched, and its writes made the next check's plan find objects stale.
  const report = await centreMessage(page, new RegExp(`${tag}.*\\d+ applied · \\d+ failed`), 10 * 60_000);
  const failed = Number(/(\d+) failed/.exec(report)?.[1] ?? 0);
  const landed = puts.count();
  await send(env, 'DELETE', '/sandbox/faults');
  if (!failed) throw new Error(`no object failed: "${report}"`);
  await palette(page, 'Retry Failed…');
  // Runs from every place are offered, newest first: this one's is highlighted, Enter takes it.
  await waitForTitle(page, 'Retry which run?');
  await page
    .locator('.quick-input-list .monaco-list-row.focused', { hasText: `${failed} objects sent before` })
    .first()
    .waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  let summary = '';
  const preview = await measured(
    page,
    env,
    async () => {
      summary = await waitForTitle(page, / to change · /, 10 * 60_000);
    },
    'retry-preview',
  );
  let sendMs = 0;
  const sent = await measured(
    page,
    env,
    () => profiled(env, diag, 'retry-send', async () => void (sendMs = await sendAndCount(page, diag, fleet, failed))),
    'retry-send',
  );
  await runReported(page);
  // The run without the window on as many scanners: a run this short does not reach the rate of 10,000 (its start-up weighs on it).
  const short = await executorRate(
    fleet,
    env,
    diag,
    `executor with a run's journal, ${failed} scanners as the Retry`,
    (await fleetTargets(fleet)).slice(0, failed),
    true,
  );
  verdict(
    [
      figure(
        fleet,
        diag,
        `Retry Failed (${failed} failed of the run, ${landed} landed): the preview appears`,
        `${s(preview.ms)} from the palette ("${summary}")`,
        '≤ 2 s',
        preview.ms <= 2000,
        preview,
      ),
      rateFigure(fleet, diag, 'Retry Failed: sent in the host', { ...sent, ms: sendMs }, failed, short),
      quietFigure(fleet, diag, 'Retry Failed', { ...sent, complaints: [...preview.complaints, ...sent.complaints] }),
    ],
    'Retry Failed',
  );
}

/**
 * Pull as Files… on a group into the workspace's suggested folder; ends when the extension logs the pull's
 * message (a notification is logged as it is shown): the frame meter then measures the pull, not the palette
 * the notification centre is opened with (opening it alone holds the window 100-200 ms here).
 */
async function pullGroup(page: Page, env: Env, folder: string, group: string, objects: number): Promise<void> {
  const message = `Pulled ${objects} objects into`;
  const before = loggedLines(env, message);
  await groupMenu(page, folder, group, 'Pull as Files');
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'oms/sandbox' }).first().waitFor({ timeout: 30_000 });
  await page.keyboard.press('Enter');
  await until("the pull's message in the extension's log", () => Promise.resolve(loggedLines(env, message) > before), 30 * 60_000);
}

/** The pull's message, as a person sees it: in the notification centre. */
async function pullReported(page: Page, objects: number): Promise<void> {
  await palette(page, 'Notifications: Show Notifications');
  await centreMessage(page, new RegExp(`Pulled ${objects} objects`), 60_000);
  await palette(page, 'Notifications: Hide Notifications');
}

async function tenThousandAsFiles(page: Page, env: Env, diag: string): Promise<void> {
  const fleet = await fleetOf(env, diag);
  const root = path.join(env.OMS_WORKSPACE, 'oms', 'sandbox');
  fs.rmSync(root, { recursive: true, force: true });
  await palette(page, 'View: Close All Editors');
  await palette(page, 'Notifications: Clear All Notifications');
  const pulled = await measured(page, env, () => pullGroup(page, env, fleetFolder, 'Input scanners', scanners), 'pull-10k');
  await pullReported(page, scanners);

  // Go to Object, the pull's objects in its index.
  const name = `Fleet ${scanners - 7}`;
  const found = await measured(
    page,
    env,
    async () => {
      await query(page, name);
      await pick(page, name).waitFor({ timeout: 60_000 });
    },
    'goto',
  );
  await page.keyboard.press('Escape');

  // Every file edited (a tag added, as a script or a search-and-replace would), then Plan Changes….
  const dir = fs
    .readdirSync(root)
    .map((d) => path.join(root, d, 'inputscanners'))
    .find((d) => fs.existsSync(d))!;
  for (const f of fs.readdirSync(dir)) {
    const file = path.join(dir, f);
    const o = JSON.parse(fs.readFileSync(file, 'utf8'));
    o.Tags = [...(o.Tags ?? []), 'local'];
    fs.writeFileSync(file, JSON.stringify(o, null, 2) + '\n');
  }
  const planned = await measured(
    page,
    env,
    async () => {
      await planChangesOf(page, 'oms/sandbox');
      await planRow(page, `Update (${scanners})`).waitFor({ timeout: 10 * 60_000 });
    },
    'plan-10k',
  );
  // The Objects view folded: the Object Changes view gets the side bar.
  await objectsView(page, false);
  const group = planRow(page, `Update (${scanners})`);
  // A group of 10,000 shows ranges of 1,000 (its level-2 rows); their entries are level 3.
  const ranges = planPane(page).locator('.monaco-list-row[aria-level="2"]');
  const entries = planPane(page).locator('.monaco-list-row[aria-level="3"]');
  const range = (label: string) =>
    planPane(page)
      .locator('.monaco-list-row[aria-level="2"]', { hasText: new RegExp(`(^|\\D)${label}(\\D|$)`) })
      .first();
  const expanded = await measured(
    page,
    env,
    async () => {
      await group.locator('.monaco-tl-twistie').click();
      await until('the group collapsed', async () => (await group.getAttribute('aria-expanded')) === 'false');
      await group.locator('.monaco-tl-twistie').click();
      await until(
        'the group expanded, its ranges drawn',
        async () => (await group.getAttribute('aria-expanded')) === 'true' && (await ranges.count()) === scanners / 1000,
      );
      for (const label of [`${scanners - 999}–${scanners}`, '1–1000']) {
        await range(label).locator('.monaco-tl-twistie').click();
        await until(`range ${label} expanded`, async () => (await range(label).getAttribute('aria-expanded')) === 'true');
      }
      await until("the first range's entries drawn", async () => (await entries.count()) > 5);
    },
    'expand',
  );
  const message = () =>
    planPane(page)
      .locator('.pane-body')
      .first()
      .innerText()
      .catch(() => '');
  const box = group.locator('.custom-view-tree-node-item-checkbox, .monaco-custom-toggle').first();
  const ticked = await measured(page, env, async () => {
    await box.click();
    await until('none ticked', async () => (await message()).includes('0 ticked to send'), 60_000);
    await box.click();
    await until('all ticked', async () => (await message()).includes(`${scanners} ticked to send`), 60_000);
  });
  // The focus in the view's rows, by the view's own command (a click on an entry would open its diff).
  await palette(page, 'OMS: Focus on Object Changes View');
  const scrolled = await measured(
    page,
    env,
    async () => {
      await page.keyboard.press('End');
      await until(
        'the last entry in view',
        async () => (await planPane(page).locator('.monaco-list-row[aria-level="3"][aria-posinset="1000"]').count()) > 0,
        30_000,
      );
      for (let i = 0; i < 10; i++) await page.keyboard.press('PageUp');
      const list = await planPane(page).locator('.monaco-list').first().boundingBox();
      if (list) {
        await page.mouse.move(list.x + list.width / 2, list.y + list.height / 2);
        for (let i = 0; i < 20; i++) await page.mouse.wheel(0, -2000);
      }
      await page.keyboard.press('Home');
    },
    'scroll',
  );
  await page.screenshot({ path: `${diag}/fleet-plan-10k.png` });
  verdict(
    [
      figure(
        fleet,
        diag,
        `Pull as Files… of ${scanners} scanners (a group)`,
        s(pulled.ms),
        'the window responsive: longest frame gap ≤ 100 ms',
        pulled.gap <= 100,
        pulled,
      ),
      figure(fleet, diag, 'Go to Object after the pull: typed name to its row', s(found.ms), 'longest frame gap ≤ 100 ms', found.gap <= 100, found),
      figure(
        fleet,
        diag,
        `Plan Changes… with ${scanners} updates: until the Object Changes view shows them`,
        s(planned.ms),
        'longest frame gap ≤ 100 ms',
        planned.gap <= 100,
        planned,
      ),
      figure(
        fleet,
        diag,
        'Object Changes view: collapse and expand the group of 10,000, then its first and last range',
        s(expanded.ms),
        'longest frame gap ≤ 100 ms',
        expanded.gap <= 100,
        expanded,
      ),
      figure(fleet, diag, 'Object Changes view: untick all, tick all', s(ticked.ms), 'longest frame gap ≤ 100 ms', ticked.gap <= 100, ticked),
      figure(fleet, diag, 'Object Changes view: End, PageUp, wheel, Home', s(scrolled.ms), 'longest frame gap ≤ 100 ms', scrolled.gap <= 100, scrolled),
      quietFigure(fleet, diag, 'pull, Go to Object and plan of 10,000', {
        ...pulled,
        complaints: [pulled, found, planned, expanded, ticked, scrolled].flatMap((m) => m.complaints),
      }),
    ],
    'Pull of 10,000 and its Object Changes view',
  );
  fs.rmSync(root, { recursive: true, force: true });
}

/** The Warehouse's people made 100,000 (the sandbox's batch add, 1,000 a request). */
async function seedPeople(env: Env, diag: string, fleet: Fleet): Promise<void> {
  const client = fleet.client;
  const t0 = Date.now();
  const have = (await client.listAll(kind('person'), fleet.fleetKey)).length;
  const batches = Array.from({ length: Math.ceil((people - have) / 1000) }, (_, b) => b);
  await inBatches(batches, 2, (b) =>
    client.addPeopleBatch(
      fleet.fleetKey,
      Array.from({ length: Math.min(1000, people - have - b * 1000) }, (_, i) => {
        const n = b * 1000 + i;
        const person: PersonInfo = { ...newObject(kind('person'), `Person ${n}`), GivenName: 'Person', Surname: String(n) };
        return person;
      }),
    ),
  );
  figure(fleet, diag, `seeded ${people - have} people with the batch add (${people} in ${fleetFolder})`, s(Date.now() - t0), 'none', undefined);
}

async function hundredThousandPeople(page: Page, env: Env, diag: string): Promise<void> {
  const fleet = await fleetOf(env, diag);
  await seedPeople(env, diag, fleet);
  const root = path.join(env.OMS_WORKSPACE, 'oms', 'sandbox');
  fs.rmSync(root, { recursive: true, force: true });
  await palette(page, 'View: Close All Editors');
  await palette(page, 'Notifications: Clear All Notifications');
  await page
    .locator('.part.sidebar .action-label[aria-label^="Collapse All"]')
    .first()
    .click()
    .catch(() => undefined);
  await expand(page, 1, 'Sandbox');
  await expand(page, 2, 'Demo Instance');
  const pulled = await measured(page, env, () => pullGroup(page, env, fleetFolder, 'People', people), 'pull-people');
  await pullReported(page, people);
  let said = '';
  const planned = await measured(
    page,
    env,
    async () => {
      await planChangesOf(page, 'oms/sandbox');
      said = await until(
        'the plan listing nothing',
        async () => {
          const text = await planPane(page)
            .innerText()
            .catch(() => '');
          return text.includes(`${people} unchanged`) && text;
        },
        10 * 60_000,
      );
    },
    'plan-people',
  );
  const nothing = said.includes('0 ticked to send · 0 stale · 0 behind · 0 invalid');
  verdict(
    [
      figure(fleet, diag, `Pull as Files… of ${people} people`, s(pulled.ms), 'the window responsive: longest frame gap ≤ 100 ms', pulled.gap <= 100, pulled),
      figure(
        fleet,
        diag,
        `Plan Changes… of the ${people} pulled, listing nothing`,
        `${s(planned.ms)}${nothing ? '' : ` (it listed: ${said.replace(/\s+/g, ' ').slice(0, 200)})`}`,
        'listing nothing; longest frame gap ≤ 100 ms',
        nothing && planned.gap <= 100,
        planned,
      ),
      quietFigure(fleet, diag, `pull and plan of ${people}`, { ...pulled, complaints: [...pulled.complaints, ...planned.complaints] }),
    ],
    `Pull of ${people} people`,
  );
  fs.rmSync(root, { recursive: true, force: true });
}

export const fleetChecks: UiCheckList = (page, env, diag) =>
  process.env.OMS_UI_FLEET !== '1'
    ? []
    : [
        [
          "ui: fleet: Bulk Edit of 10,000 scanners from a group: preview ≤ 2 s, sent within 1.2x the bench's rate, no unresponsive host",
          () => bulkEditFromGroup(page, env, diag),
        ],
        ["ui: fleet: Undo Run of the 10,000: preview ≤ 2 s, sent within 1.2x the bench's rate", () => undoTheRun(page, env, diag)],
        ["ui: fleet: Retry Failed after 1,000 answers 500: preview ≤ 2 s, sent within 1.2x the bench's rate", () => retryFailed(page, env, diag)],
        [
          'ui: fleet: Pull as Files… of 10,000, Go to Object, Plan Changes… and the Object Changes view of 10,000: no frame gap above 100 ms',
          () => tenThousandAsFiles(page, env, diag),
        ],
        [
          'ui: fleet: Pull as Files… of 100,000 people with the window responsive, then Plan Changes… listing nothing',
          () => hundredThousandPeople(page, env, diag),
        ],
      ];
