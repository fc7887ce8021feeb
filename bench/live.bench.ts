/**
 * Live updates: 20 expanded groups of 100 input scanners and 10 open documents
 * (in those groups), 5% of the objects changed over REST before each poll.
 * Requests and bytes per interval with and without ETags, the poller's CPU per
 * interval (goal: under 2% of one core at 30 s), the time from a change on the
 * server to the poll that shows it (goal: within one interval plus one
 * request), and the requests while the view is hidden or the window
 * unfocused (goal: 0). The sandbox runs in a process of its own, so the CPU
 * measured here is the poller's alone (its client, parsing and comparing).
 * Prints numbers; asserts nothing.
 *   node --import tsx bench/live.bench.ts
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { createHttp, RequestLog } from '../src/api/http';
import { OmsClient, Reread } from '../src/api/client';
import type { Fetch } from '../src/api/proxyFetch';
import { kind } from '../src/model/kinds';
import { newObject } from '../src/model/templates';
import { LiveReads, PollSource, Watched } from '../src/live/liveReads';
import { Poller } from '../src/live/poller';
import { createObject } from '../src/sandbox/store/creation';
import { seedStore } from '../src/sandbox/store/seed';
import { Store } from '../src/sandbox/store/store';

const groups = 20;
const perGroup = 100;
const documents = 10;
const changedShare = 0.05;
const intervals = 5;
const scanners = kind('inputScanner');

async function buildData(file: string): Promise<void> {
  let n = 0;
  const store = seedStore('empty', 'Bench Instance');
  const ctx = { store, newKey: () => (0x65b1f000 + n++).toString(16).padStart(24, '0') };
  for (let g = 0; g < groups; g++) {
    const folder = createObject(ctx, kind('folder'), store.instanceKey, newObject(kind('folder'), `Site ${g + 1}`)).Key!;
    for (let i = 0; i < perGroup; i++) createObject(ctx, scanners, folder, newObject(scanners, `Scanner ${g + 1}.${i + 1}`));
  }
  await (await Store.open(file, () => store)).close();
}

/** The sandbox CLI in a child process; resolves with its URL. */
async function startSandboxProcess(file: string, token: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '../src/sandbox/cli.ts'), '--data', file, '--port', '0'], {
    env: { ...process.env, OMS_SANDBOX_TOKEN: token },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code})`)));
  });
  return { url: /(https?:\/\/\S+)/.exec(line)![1], stop: () => child.kill() };
}

/** A client that counts requests, statuses and body bytes received. */
function countingClient(url: string, token: string) {
  const counts = { requests: 0, bytes: 0, statuses: new Map<number | string, number>() };
  const counting: Fetch = async (input, init) => {
    const response = await fetch(input, init);
    counts.bytes += Number(response.headers.get('content-length') ?? 0);
    return response;
  };
  const log = (e: RequestLog) => {
    counts.requests++;
    counts.statuses.set(e.status, (counts.statuses.get(e.status) ?? 0) + 1);
  };
  const client = new OmsClient(createHttp({ baseUrl: url, token: () => token, log, fetchFor: () => Promise.resolve(counting) }));
  return { client, counts };
}

/** The same service read as one without ETags (no If-None-Match, no tags kept). */
function withoutEtags(client: OmsClient): PollSource {
  const untagged = <T>(r: Reread<T>): Reread<T> => (r.unchanged ? r : { unchanged: false, value: r.value });
  return {
    listAgain: async (k, f, p, s) => untagged(await client.listAgain(k, f, p, s)),
    getAgain: async (k, f, key) => untagged(await client.getAgain(k, f, key)),
  };
}

const cpuMs = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1000;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oms-live-bench-'));
  const file = path.join(dir, 'data.json');
  await buildData(file);
  const token = randomBytes(16).toString('hex');
  const sandbox = await startSandboxProcess(file, token);
  try {
    const writer = new OmsClient(createHttp({ baseUrl: sandbox.url, token: () => token }));
    const root = await writer.instance();
    const folders = (await writer.listAll(kind('folder'), root.Key!)).map((f) => f.Key!);
    const all = (await Promise.all(folders.map((f) => writer.listAll(scanners, f, 100)))).flat();
    const watched: Watched = {
      groups: folders.map((folderKey) => ({ kind: scanners, folderKey, pageSize: 100, pages: 1, all: false })),
      objects: all
        .filter((_, i) => i % Math.floor(all.length / documents) === 0)
        .slice(0, documents)
        .map((o) => ({ kind: scanners, folderKey: o.InFolderKey!, key: o.Key! })),
    };
    let round = 0;
    /** 5% of the objects, spread over every group, changed over REST (a version each). */
    const change = async () => {
      round++;
      const picked = all.filter((_, i) => (i * 7 + round * 13) % Math.round(1 / changedShare) === 0);
      for (let i = 0; i < picked.length; i += 8) {
        await Promise.all(
          picked.slice(i, i + 8).map(async (o) => {
            const now = await writer.get(scanners, o.InFolderKey!, o.Key!);
            await writer.update(scanners, { ...now, Description: `round ${round}` });
          }),
        );
      }
      return picked.length;
    };

    console.log(`live updates: ${groups} expanded groups of ${perGroup} input scanners, ${documents} open documents in them; sandbox in its own process;`);
    console.log(`  per interval: the mean of ${intervals} polls; bytes are answer bodies`);
    for (const etags of [true, false]) {
      const { client, counts } = countingClient(sandbox.url, token);
      const reads = new LiveReads(etags ? client : withoutEtags(client));
      // What the view showed when it opened, and a warm-up of the code.
      for (let i = 0; i < 3; i++) await reads.poll(watched);
      const rows: { changed: number; requests: number; bytes: number; cpu: number; ms: number; reported: number }[] = [];
      for (let i = 0; i < 2 * intervals; i++) {
        const changed = i < intervals ? 0 : await change();
        counts.requests = 0;
        counts.bytes = 0;
        const cpu = process.cpuUsage();
        const t = performance.now();
        const result = await reads.poll(watched);
        rows.push({ changed, requests: counts.requests, bytes: counts.bytes, cpu: cpuMs(cpu), ms: performance.now() - t, reported: result.groups.length });
      }
      type Row = (typeof rows)[number];
      const mean = (list: Row[], f: (r: Row) => number) => list.reduce((sum, r) => sum + f(r), 0) / list.length;
      const [quiet, busy] = [rows.slice(0, intervals), rows.slice(intervals)];
      const share = (cpu: number) => `${(cpu / 300).toFixed(3)}% of a core at 30 s`;
      const line = (list: Row[]) =>
        `${mean(list, (r) => r.requests).toFixed(0)} requests, ${(mean(list, (r) => r.bytes) / 1024).toFixed(1)} KB, ` +
        `CPU ${mean(list, (r) => r.cpu).toFixed(1)} ms (${share(mean(list, (r) => r.cpu))}; max ${share(Math.max(...list.map((r) => r.cpu)))}), ` +
        `${mean(list, (r) => r.ms).toFixed(0)} ms, ${mean(list, (r) => r.reported).toFixed(0)} groups reported changed`;
      console.log(`\n  ${etags ? 'with ETags (If-None-Match, 304)' : 'without ETags (200s compared by version)'}:`);
      console.log(`    interval with nothing changed: ${line(quiet)}`);
      console.log(`    interval with ${busy[0].changed} objects changed (5%): ${line(busy)}`);
    }

    // From a change on the server to the poll that shows it, at a 1 s interval (scaled down from 30 s).
    const intervalMs = 1000;
    const { client } = countingClient(sandbox.url, token);
    const doc = watched.objects[0];
    let target: { version: number; at: number } | undefined;
    const delays: number[] = [];
    let pollMs = 0;
    let readable = true;
    const poller = new Poller({
      source: client,
      watched: () => watched,
      intervalMs: () => intervalMs,
      canRead: () => Promise.resolve(readable),
      onResult: (r) => {
        const seen = r.objects.find((o) => o.watched.key === doc.key)?.object?.ConcurrencyVersion ?? 0;
        if (target && seen >= target.version) {
          delays.push(performance.now() - target.at);
          target = undefined;
        }
      },
      onFailure: (e) => console.error(e),
    });
    const timedPoll = new LiveReads(client);
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await timedPoll.poll(watched);
      pollMs = Math.max(pollMs, performance.now() - t);
    }
    poller.wake();
    for (let i = 0; i < 8; i++) {
      await sleep(300 + ((i * 377) % 900));
      const now = await writer.get(scanners, doc.folderKey, doc.key);
      await writer.update(scanners, { ...now, Description: `latency ${i}` });
      target = { version: (now.ConcurrencyVersion ?? 0) + 1, at: performance.now() };
      while (target) await sleep(20);
    }
    const meanDelay = delays.reduce((sum, d) => sum + d, 0) / delays.length;
    console.log(
      `\n  change on the server -> poll showing it, at a ${intervalMs} ms interval: ` +
        `mean ${meanDelay.toFixed(0)} ms, max ${Math.max(...delays).toFixed(0)} ms ` +
        `(goal: within one interval plus one poll, ${intervalMs} + ${pollMs.toFixed(0)} ms)`,
    );

    // Hidden or unfocused: the poller cannot read and sends nothing.
    const hidden = countingClient(sandbox.url, token);
    const idle = new Poller({
      source: hidden.client,
      watched: () => watched,
      intervalMs: () => 100,
      canRead: () => Promise.resolve(false),
      onResult: () => undefined,
      onFailure: () => undefined,
    });
    readable = false;
    idle.wake();
    for (let i = 0; i < 5; i++) {
      await sleep(100);
      idle.wake();
    }
    console.log(`  while hidden or unfocused (5 intervals of 100 ms, woken each): ${hidden.counts.requests} requests`);
    poller.dispose();
    idle.dispose();
  } finally {
    sandbox.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
