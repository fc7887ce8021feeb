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
 * - in memory, GET of a page of 100 input scanners, 8 clients
 * - batch add of 10,000 people into the durable sandbox (batches of 100, 4 in flight)
 */
import { spawn, ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { kind } from '../src/model/kinds';
import { newObject } from '../src/model/templates';
import type { BaseInfo } from '../src/model/types';
import { createObject } from '../src/sandbox/creation';
import { randomKey } from '../src/sandbox/objects';
import { seedStore } from '../src/sandbox/seed';
import { Store } from '../src/sandbox/store';

const clients = 8;
const seconds = 3;

interface Server {
  url: string;
  token: string;
  folder: string;
  child: ChildProcess;
}

function startServer(which: string, arg: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'peers', 'servers.ts'), which, arg], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
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

function call(agent: Agent, server: Server, c: Call): Promise<number> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (server.token !== '-') headers.Authorization = `Bearer ${server.token}`;
    if (c.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(c.body));
    const req = request({ host: hostname, port, method: c.method, path: c.path, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(c.body);
  });
}

interface Result {
  rps: number;
  p50: number;
  p99: number;
}

/** `clients` loops, each sending `next(client)` one after another for `seconds` (after a short warm-up). */
async function load(server: Server, next: (client: number) => Call, expect: number, duration = seconds): Promise<Result> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const times: number[] = [];
  const warmUntil = performance.now() + 500;
  const until = warmUntil + duration * 1000;
  await Promise.all(Array.from({ length: clients }, async (_, c) => {
    while (performance.now() < until) {
      const t = performance.now();
      const status = await call(agent, server, next(c));
      if (status !== expect) throw new Error(`${server.url}: status ${status}, expected ${expect}`);
      if (t >= warmUntil) times.push(performance.now() - t);
    }
  }));
  agent.destroy();
  times.sort((a, b) => a - b);
  if (!times.length) return { rps: 0, p50: NaN, p99: NaN };
  return { rps: times.length / duration, p50: times[Math.floor(times.length / 2)], p99: times[Math.floor(times.length * 0.99)] };
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

async function durablePut(dir: string, n: number): Promise<Result> {
  const f = await files(dir, n);
  const sandbox = await startServer('sandbox', f.data);
  const js = await startServer('json-server', f.db);
  const bare = await startServer('bare', f.bare);
  try {
    const s = await load(sandbox, puts(f.objects, (o) => `/api/f/${sandbox.folder}/inputscanners/${o.Key}`, true), 204);
    const j = await load(js, puts(f.objects, (o) => `/inputscanners/${o.Key}`, false), 200);
    const b = await load(bare, puts(f.objects, (o) => `/inputscanners/${o.Key}`, false), 204);
    console.log(`\nPUT, ${n} input scanners, ${clients} keep-alive clients`);
    console.log(`  sandbox (durable, fsync)    ${fmt(s)}`);
    console.log(`  json-server 0.17 (db.json)  ${fmt(j)}   sandbox/json-server ${(s.rps / j.rps).toFixed(2)}x`);
    console.log(`  bare node:http (memory)     ${fmt(b)}   sandbox/bare ${(100 * s.rps / b.rps).toFixed(0)}%`);
    return s;
  } finally {
    await Promise.all([stop(sandbox), stop(js), stop(bare)]);
  }
}

async function pageGet(dir: string): Promise<void> {
  const f = await files(dir, 1000);
  const sandbox = await startServer('sandbox', '-');
  const js = await startServer('json-server', f.db);
  const bare = await startServer('bare', f.bare);
  try {
    // The memory sandbox gets the same objects through its API (batches are people only: one POST each).
    const agent = new Agent({ keepAlive: true, maxSockets: clients });
    for (let i = 0; i < f.objects.length; i += clients) {
      await Promise.all(f.objects.slice(i, i + clients).map((o) => call(agent, sandbox, { method: 'POST', path: `/api/f/${sandbox.folder}/inputscanners`, body: JSON.stringify(o) })));
    }
    agent.destroy();
    const s = await load(sandbox, () => ({ method: 'GET', path: `/api/f/${sandbox.folder}/inputscanners?page=3&pageSize=100` }), 200);
    const j = await load(js, () => ({ method: 'GET', path: '/inputscanners?_page=4&_limit=100' }), 200);
    const b = await load(bare, () => ({ method: 'GET', path: '/inputscanners?page=3&pageSize=100' }), 200);
    console.log(`\nGET a page of 100 of 1000 input scanners, in memory, ${clients} keep-alive clients`);
    console.log(`  sandbox                     ${fmt(s)}`);
    console.log(`  json-server 0.17            ${fmt(j)}   sandbox/json-server ${(s.rps / j.rps).toFixed(2)}x`);
    console.log(`  bare node:http              ${fmt(b)}   sandbox/bare ${(100 * s.rps / b.rps).toFixed(0)}%`);
  } finally {
    await Promise.all([stop(sandbox), stop(js), stop(bare)]);
  }
}

async function batchAdd(dir: string): Promise<void> {
  const data = path.join(dir, 'people.json');
  const sandbox = await startServer('sandbox', data);
  try {
    const person = kind('person');
    const people = Array.from({ length: 10_000 }, (_, i) => ({
      ...newObject(person, `Given${i} Surname${i}`), GivenName: `Given${i}`, Surname: `Surname${i}`, Tags: ['bench'],
    }));
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const batches: string[] = [];
    for (let i = 0; i < people.length; i += 100) batches.push(JSON.stringify(people.slice(i, i + 100)));
    const t = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: 4 }, async () => {
      while (next < batches.length) {
        const body = batches[next++];
        const status = await call(agent, sandbox, { method: 'POST', path: `/api/f/${sandbox.folder}/people/complex`, body });
        if (status !== 200) throw new Error(`batch: status ${status}`);
      }
    }));
    const ms = performance.now() - t;
    agent.destroy();
    console.log(`\nBatch add of 10,000 people into the durable sandbox (batches of 100, 4 in flight)`);
    console.log(`  ${(10_000 / (ms / 1000)).toFixed(0)} people/s (${ms.toFixed(0)} ms)`);
  } finally {
    await stop(sandbox);
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'oms-sandbox-bench-'));
  try {
    const small = await durablePut(dir, 1000);
    const large = await durablePut(dir, 20_000);
    console.log(`  20,000 objects / 1,000 objects (sandbox): ${(100 * large.rps / small.rps).toFixed(0)}%`);
    await pageGet(dir);
    await batchAdd(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
