/**
 * The sandbox beside json-server 0.17 (the mock server people reach for) and
 * a bare node:http server holding the same objects (the limit), each in its
 * own process, loaded from this one over keep-alive connections to 127.0.0.1.
 * Prints numbers and ratios; asserts nothing.
 *   node --import tsx bench/sandbox.bench.ts
 *
 * - durable PUT of input scanners, 8 clients, with 1,000 and 20,000 objects
 *   (the sandbox fsyncs before answering; json-server rewrites db.json without
 *   fsync; the bare server keeps memory only)
 * - GET of a page of 100 input scanners, 8 clients: the same objects and, for the
 *   bare servers, the same bytes out (one serialising each request, one once)
 * - batch add of 10,000 people into the durable sandbox (batches of 100, 4 in flight)
 */
import { spawn, ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { closeSync, constants, fdatasyncSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { kind } from '../src/model/kinds';
import { newObject } from '../src/model/templates';
import type { BaseInfo } from '../src/model/types';
import { createObject } from '../src/sandbox/store/creation';
import { randomKey } from '../src/sandbox/store/objects';
import { seedStore } from '../src/sandbox/store/seed';
import { Store } from '../src/sandbox/store/store';

const clients = 8;

interface Server {
  url: string;
  token: string;
  folder: string;
  child: ChildProcess;
}

function startServer(which: string, ...args: string[]): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'peers', 'servers.ts'), which, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening (\S+) (\S+) (\S+)/.exec(out);
      if (m) resolve({ url: m[1], token: m[2], folder: m[3], child });
    });
    child.once('exit', (code) => reject(new Error(`${which} exited (${code})`)));
  });
}

async function stop(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

interface Call {
  method: string;
  path: string;
  body?: string;
}

function call(agent: Agent, server: Server, c: Call, keep?: (body: Buffer) => void): Promise<number> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (server.token !== '-') headers.Authorization = `Bearer ${server.token}`;
    if (c.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(c.body));
    const req = request({ host: hostname, port, method: c.method, path: c.path, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      if (keep) res.on('data', (d: Buffer) => chunks.push(d));
      else res.resume();
      res.on('end', () => {
        keep?.(Buffer.concat(chunks));
        resolve(res.statusCode ?? 0);
      });
    });
    req.on('error', reject);
    req.end(c.body);
  });
}

interface Result {
  rps: number;
  p50: number;
  p99: number;
  /** The server process's CPU time per answered request (user + system, from /proc): steadier than req/s on a busy machine. */
  cpuMs: number;
}

/** CPU time a process has used so far, in ms (Linux /proc; NaN elsewhere). */
function cpuMsOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

interface Contender {
  server: Server;
  next: (client: number) => Call;
  expect: number;
}

/**
 * Loads each contender in turn for one second, `rounds` times over (after a
 * warm-up each), so that a change in the machine's load hits all of them
 * alike: the ratios are the figures to read. `clients` loops per contender,
 * each sending its next request when the previous one is answered.
 */
async function compare(contenders: Contender[], rounds = 3): Promise<Result[]> {
  const times = contenders.map(() => [] as number[]);
  const spent = contenders.map(() => 0);
  const cpu = contenders.map(() => 0);
  const counted = contenders.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    for (const [i, c] of contenders.entries()) {
      const agent = new Agent({ keepAlive: true, maxSockets: clients });
      const warmUntil = performance.now() + (round === 0 ? 500 : 100);
      const until = warmUntil + 1000;
      let cpuAtWarm = NaN;
      let sent = 0;
      await Promise.all(
        Array.from({ length: clients }, async (_, client) => {
          while (performance.now() < until) {
            const t = performance.now();
            if (t >= warmUntil && Number.isNaN(cpuAtWarm)) cpuAtWarm = cpuMsOf(c.server.child.pid);
            if (t >= warmUntil) sent++;
            const status = await call(agent, c.server, c.next(client));
            if (status !== c.expect) throw new Error(`${c.server.url}: status ${status}, expected ${c.expect}`);
            if (t >= warmUntil) times[i].push(performance.now() - t);
          }
        }),
      );
      spent[i] += performance.now() - warmUntil;
      cpu[i] += cpuMsOf(c.server.child.pid) - cpuAtWarm;
      counted[i] += sent;
      agent.destroy();
    }
  }
  return times.map((list, i) => {
    list.sort((a, b) => a - b);
    if (!list.length) return { rps: 0, p50: NaN, p99: NaN, cpuMs: NaN };
    return {
      rps: list.length / (spent[i] / 1000),
      p50: list[Math.floor(list.length / 2)],
      p99: list[Math.floor(list.length * 0.99)],
      cpuMs: cpu[i] / counted[i],
    };
  });
}

/** `n` input scanners, placed as the sandbox stores them. */
function scanners(n: number): { store: Store; objects: BaseInfo[] } {
  const store = seedStore('empty');
  const k = kind('inputScanner');
  const objects: BaseInfo[] = [];
  for (let i = 0; i < n; i++) objects.push(createObject({ store, newKey: randomKey }, k, store.instanceKey, newObject(k, `Scanner ${i}`)));
  return { store, objects };
}

/** The same objects for each server: a sandbox data file, json-server's db.json, the bare server's list. */
async function files(dir: string, n: number): Promise<{ data: string; db: string; bare: string; objects: BaseInfo[] }> {
  const { store, objects } = scanners(n);
  const data = path.join(dir, `data-${n}.json`);
  await (await Store.open(data, () => store)).close();
  const db = path.join(dir, `db-${n}.json`);
  writeFileSync(db, JSON.stringify({ inputscanners: objects.map((o) => ({ ...o, id: o.Key })) }));
  const bare = path.join(dir, `bare-${n}.json`);
  writeFileSync(bare, JSON.stringify(objects));
  return { data, db, bare, objects };
}

/** PUT bodies: each client updates its own objects in turn, with the version it knows. */
function puts(objects: BaseInfo[], pathOf: (o: BaseInfo) => string, versioned: boolean): (client: number) => Call {
  const versions = new Map<string, number>();
  const turn = new Array<number>(clients).fill(0);
  return (c) => {
    const o = objects[(c + clients * turn[c]++) % Math.min(objects.length, clients * 50)];
    const v = versions.get(o.Key as string) ?? 1;
    if (versioned) versions.set(o.Key as string, v + 1);
    return { method: 'PUT', path: pathOf(o), body: JSON.stringify({ ...o, id: o.Key, ConcurrencyVersion: v, CommonName: `${o.CommonName as string} v${v}` }) };
  };
}

const fmt = (r: Result) => `${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms`;

/**
 * Durable PUT at 1,000 and 20,000 objects, all servers loaded in turn in the
 * same rounds. json-server runs at 1,000 only: it rewrites its whole db.json on
 * every write, which at 20,000 objects takes seconds per request.
 */
async function durablePut(dir: string): Promise<void> {
  const small = await files(dir, 1000);
  const large = await files(dir, 20_000);
  const servers = await Promise.all([
    startServer('sandbox', small.data),
    startServer('sandbox', large.data),
    startServer('json-server', small.db),
    startServer('bare', small.bare),
    startServer('bare', large.bare),
  ]);
  const [sandbox1, sandbox20, js, bare1, bare20] = servers;
  try {
    const [s1, s20, j, b1, b20] = await compare([
      { server: sandbox1, next: puts(small.objects, (o) => `/api/f/${sandbox1.folder}/inputscanners/${o.Key}`, true), expect: 204 },
      { server: sandbox20, next: puts(large.objects, (o) => `/api/f/${sandbox20.folder}/inputscanners/${o.Key}`, true), expect: 204 },
      { server: js, next: puts(small.objects, (o) => `/inputscanners/${o.Key}`, false), expect: 200 },
      { server: bare1, next: puts(small.objects, (o) => `/inputscanners/${o.Key}`, false), expect: 204 },
      { server: bare20, next: puts(large.objects, (o) => `/inputscanners/${o.Key}`, false), expect: 204 },
    ]);
    console.log(`\nPUT of input scanners, ${clients} keep-alive clients`);
    console.log(`  1,000 objects   sandbox (durable: synced before the answer)  ${fmt(s1)}`);
    console.log(`  1,000 objects   json-server 0.17 (db.json, not synced)       ${fmt(j)}   sandbox/json-server ${(s1.rps / j.rps).toFixed(1)}x`);
    console.log(`  1,000 objects   bare node:http (memory only)                 ${fmt(b1)}   sandbox/bare ${((100 * s1.rps) / b1.rps).toFixed(0)}%`);
    console.log(`  20,000 objects  sandbox (durable)                            ${fmt(s20)}   20,000/1,000 ${((100 * s20.rps) / s1.rps).toFixed(0)}%`);
    console.log(`  20,000 objects  bare node:http (memory only)                 ${fmt(b20)}   sandbox/bare ${((100 * s20.rps) / b20.rps).toFixed(0)}%`);
  } finally {
    await Promise.all(servers.map(stop));
  }
}

/**
 * GET of a page of 100 of 1,000 input scanners, fairly: every server holds the
 * same objects (the sandbox loads them from a data file; the bare servers get
 * them as the sandbox answers them, so their pages are the same bytes, checked
 * here, with the sandbox's headers; json-server gets them with \`id\` added and
 * answers them indented, its own format). The bare servers are the limit: one
 * serialises the page on each request, the other once (a lookup and a write).
 */
async function pageGet(parent: string): Promise<void> {
  // A folder of its own: \`files\` would load the data file the PUT runs changed.
  const dir = path.join(parent, 'page');
  mkdirSync(dir);
  const f = await files(dir, 1000);
  const sandbox = await startServer('sandbox', f.data);
  const pagePath = `/api/f/${sandbox.folder}/inputscanners?page=3&pageSize=100`;
  const fetched = async (server: Server, p: string) => {
    let bytes: Buffer = Buffer.alloc(0);
    const agent = new Agent({ keepAlive: false });
    await call(agent, server, { method: 'GET', path: p }, (b) => {
      bytes = b;
    });
    agent.destroy();
    return bytes;
  };
  // The objects as the sandbox answers them, in its order, for the bare servers.
  const answered: unknown[] = [];
  for (let page = 0; page < 10; page++)
    answered.push(...(JSON.parse((await fetched(sandbox, `/api/f/${sandbox.folder}/inputscanners?page=${page}&pageSize=100`)).toString('utf8')) as unknown[]));
  const bareFile = path.join(dir, 'bare-answered.json');
  writeFileSync(bareFile, JSON.stringify(answered));
  const js = await startServer('json-server', f.db);
  const bare = await startServer('bare', bareFile);
  const cached = await startServer('bare', bareFile, 'cached');
  try {
    const ours = await fetched(sandbox, pagePath);
    const theirs = await fetched(bare, '/inputscanners?page=3&pageSize=100');
    const jsBytes = await fetched(js, '/inputscanners?_page=4&_limit=100');
    if (!ours.equals(theirs) || !ours.equals(await fetched(cached, '/inputscanners?page=3&pageSize=100')))
      throw new Error("the bare servers do not send the sandbox's bytes");
    const [s, j, b, c] = await compare([
      { server: sandbox, next: () => ({ method: 'GET', path: pagePath }), expect: 200 },
      { server: js, next: () => ({ method: 'GET', path: '/inputscanners?_page=4&_limit=100' }), expect: 200 },
      { server: bare, next: () => ({ method: 'GET', path: '/inputscanners?page=3&pageSize=100' }), expect: 200 },
      { server: cached, next: () => ({ method: 'GET', path: '/inputscanners?page=3&pageSize=100' }), expect: 200 },
    ]);
    console.log(`\nGET a page of 100 of 1000 input scanners (the same objects), in memory, ${clients} keep-alive clients`);
    // Two readings of the same runs: requests per second (what a client sees; on a busy machine it swings
    // with the other processes) and the server's CPU time per request (what the server spends: steadier).
    const cpuFmt = (r: Result) => `${(r.cpuMs * 1000).toFixed(0).padStart(5)} µs CPU/req`;
    const vs = (other: Result) => `sandbox/this ${((100 * s.rps) / other.rps).toFixed(0)}% by req/s, ${((100 * other.cpuMs) / s.cpuMs).toFixed(0)}% by CPU/req`;
    console.log(`  sandbox                                     ${fmt(s)}  ${cpuFmt(s)}   ${ours.length} bytes`);
    console.log(`  json-server 0.17 (indented)                 ${fmt(j)}  ${cpuFmt(j)}   ${jsBytes.length} bytes   ${vs(j)}`);
    console.log(`  bare node:http, serialises each request     ${fmt(b)}  ${cpuFmt(b)}   same bytes   ${vs(b)}`);
    console.log(`  bare node:http, page serialised once        ${fmt(c)}  ${cpuFmt(c)}   same bytes   ${vs(c)}  (goal: at least 80%)`);
  } finally {
    await Promise.all([stop(sandbox), stop(js), stop(bare), stop(cached)]);
  }
}

async function batchAdd(dir: string): Promise<void> {
  const data = path.join(dir, 'people.json');
  const sandbox = await startServer('sandbox', data);
  try {
    const person = kind('person');
    const people = Array.from({ length: 10_000 }, (_, i) => ({
      ...newObject(person, `Given${i} Surname${i}`),
      GivenName: `Given${i}`,
      Surname: `Surname${i}`,
      Tags: ['bench'],
    }));
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const batches: string[] = [];
    for (let i = 0; i < people.length; i += 100) batches.push(JSON.stringify(people.slice(i, i + 100)));
    const t = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < batches.length) {
          const body = batches[next++];
          const status = await call(agent, sandbox, { method: 'POST', path: `/api/f/${sandbox.folder}/people/complex`, body });
          if (status !== 200) throw new Error(`batch: status ${status}`);
        }
      }),
    );
    const ms = performance.now() - t;
    agent.destroy();
    console.log(`\nBatch add of 10,000 people into the durable sandbox (batches of 100, 4 in flight)`);
    console.log(`  ${(10_000 / (ms / 1000)).toFixed(0)} people/s (${ms.toFixed(0)} ms)`);
  } finally {
    await stop(sandbox);
  }
}

/** Start-up of a durable sandbox on 50,000 stored objects with a journal to replay (as after a crash). */
async function load50k(dir: string): Promise<void> {
  const data = path.join(dir, 'big.json');
  const { store } = scanners(50_000);
  const opened = await Store.open(data, () => store);
  // A journal to replay: 2,000 updates after the snapshot.
  const objects = store.page(store.instanceKey, 'inputScanner', 0, 2000);
  for (const o of objects) opened.replace(o.Key as string, { ...o, CommonName: `${o.CommonName as string} v2`, ConcurrencyVersion: 2 });
  await opened.persist();
  const bytes = statSync(data).size;
  const t = performance.now();
  const server = await startServer('sandbox', data);
  const ms = performance.now() - t;
  await stop(server);
  console.log(
    `\nStart on 50,000 objects (${(bytes / 1024 / 1024).toFixed(0)} MB data file) + 2,000 journal lines: ${(ms / 1000).toFixed(2)} s (process start included)`,
  );
}

/** What the disk allows right now: synced appends of one PUT's journal line (4.3 KB), one after another, for a second. */
function syncedAppends(dir: string): void {
  const { O_WRONLY, O_CREAT, O_APPEND, O_DSYNC } = constants;
  const fd = openSync(path.join(dir, 'sync-probe'), O_WRONLY | O_CREAT | O_APPEND | (O_DSYNC ?? 0));
  const line = Buffer.alloc(4300, 'x');
  const until = performance.now() + 1000;
  let n = 0;
  while (performance.now() < until) {
    writeSync(fd, line);
    if (O_DSYNC === undefined) fdatasyncSync(fd);
    n++;
  }
  closeSync(fd);
  console.log(`\nThis disk now: ${n} synced appends/s (one at a time; a group commit shares one among the requests waiting)`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'oms-sandbox-bench-'));
  try {
    if (process.argv.includes('--page-only')) return void (await pageGet(dir));
    syncedAppends(dir);
    await durablePut(dir);
    await pageGet(dir);
    await batchAdd(dir);
    await load50k(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
