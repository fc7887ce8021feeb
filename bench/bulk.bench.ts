/**
 * Bulk edit through the executor (src/changes/executor.ts) on a sandbox over a real
 * socket: 1,000 scanners, objects/s beside one save after the other (saveObject); the same
 * with about 5% of requests answered 429 with Retry-After 1 s (total time, waits, duplicate
 * writes: must be 0); preview of 10,000 (time to the first diff and to the full count);
 * merge3 time per scanner. Prints numbers; asserts nothing.
 *   node --import tsx bench/bulk.bench.ts
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { startSandbox } from '../src/sandbox/server';
import { createHttp } from '../src/api/http';
import { OmsClient } from '../src/api/client';
import { Store } from '../src/sandbox/store/store';
import { createObject } from '../src/sandbox/store/creation';
import { seedStore } from '../src/sandbox/store/seed';
import { kind } from '../src/model/kinds';
import { newObject } from '../src/model/templates';
import type { InputScannerInfo } from '../src/model/types';
import { bulkChanges, previewCounts, previewChanges, Target } from '../src/changes/bulk';
import { runChanges } from '../src/changes/executor';
import { merge3 } from '../src/changes/merge3';
import { saveObject } from '../src/save/saveObject';

const scannerKind = kind('inputScanner');
const ms = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e6;

/** `count` scanners spread over `folders` folders, written as the sandbox's data file. */
async function sandboxWith(count: number, folders: number) {
  let n = 0;
  const newKey = () => (0x65b1f000 + n++).toString(16).padStart(24, '0');
  const store = seedStore('empty', 'Bench Instance');
  const ctx = { store, newKey };
  const folderKeys = Array.from(
    { length: folders },
    (_, i) => createObject(ctx, kind('folder'), store.instanceKey, newObject(kind('folder'), `Site ${i + 1}`)).Key!,
  );
  const targets: Target[] = [];
  for (let i = 0; i < count; i++) {
    const folderKey = folderKeys[i % folders];
    const o = createObject(ctx, scannerKind, folderKey, newObject(scannerKind, `Door ${i}`));
    targets.push({ kind: scannerKind, folderKey, key: o.Key!, name: o.CommonName! });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oms-bulk-bench-'));
  const dataFile = path.join(dir, 'data.json');
  await (await Store.open(dataFile, () => store)).close();
  const served: string[] = [];
  let onLine: ((line: string) => void) | undefined;
  const sb = await startSandbox({
    port: 0,
    dataFile,
    log: (line) => {
      served.push(line);
      onLine?.(line);
    },
  });
  const client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
  return {
    sb,
    client,
    targets,
    served,
    setOnLine: (f: typeof onLine) => {
      onLine = f;
    },
  };
}

/** Successful PUTs per key beyond the first: writes sent twice. */
function duplicateWrites(served: string[]): number {
  const per = new Map<string, number>();
  for (const line of served) {
    const m = /^PUT (\S+) 2\d\d /.exec(line);
    if (m) per.set(m[1], (per.get(m[1]) ?? 0) + 1);
  }
  return [...per.values()].reduce((sum, n) => sum + n - 1, 0);
}

async function editBench() {
  const { sb, client, targets, served, setOnLine } = await sandboxWith(1000, 10);
  try {
    // One save after the other, as a script would: GET, saveObject (GET, PUT, GET).
    const single = targets.slice(0, 100);
    let t = process.hrtime.bigint();
    for (const target of single) {
      const live = await client.get<InputScannerInfo>(scannerKind, target.folderKey, target.key);
      await saveObject(client, target, { ...live, NonSettlingErrorPriority: 2 }, live.ConcurrencyVersion ?? null);
    }
    const singleRate = single.length / (ms(t) / 1000);

    served.length = 0;
    t = process.hrtime.bigint();
    const results = await runChanges(client, bulkChanges(targets, { type: 'setRow', min: 850, max: 1150, field: 'Priority', value: 5 }), {
      stopOnError: false,
    });
    const bulkMs = ms(t);
    const applied = results.filter((r) => r.outcome === 'applied').length;
    const bulkRate = applied / (bulkMs / 1000);
    console.log(
      `bulk edit 1,000 scanners (concurrency 4): ${(bulkMs / 1000).toFixed(2)} s, ${bulkRate.toFixed(0)} objects/s; ` +
        `single saves one after the other: ${singleRate.toFixed(0)} objects/s (${(bulkRate / singleRate).toFixed(1)}×); ` +
        `applied ${applied}, duplicate writes ${duplicateWrites(served)}`,
    );

    // About 5% of requests answered 429 with Retry-After 1 s: after every 20th request, one more fault.
    served.length = 0;
    let seen = 0;
    setOnLine(() => {
      if (++seen % 20 === 0) injectFault(sb, 429);
    });
    let updates = 0,
      waits = 0;
    t = process.hrtime.bigint();
    const throttled = await runChanges(client, bulkChanges(targets, { type: 'setRow', min: 850, max: 1150, field: 'Priority', value: 6 }), {
      stopOnError: false,
      onProgress: (p) => {
        updates++;
        if (p.waitingSeconds) waits++;
      },
    });
    const throttledMs = ms(t);
    setOnLine(undefined);
    const answered429 = served.filter((l) => / 429 /.test(l.replace(/^\S+ \S+/, ''))).length;
    const apiRequests = served.filter((l) => /^\S+ \/api\/f\//.test(l)).length;
    const outcome = (o: string) => throttled.filter((r) => r.outcome === o).length;
    console.log(
      `same with ${answered429} of ${apiRequests} requests answered 429 (${((answered429 / apiRequests) * 100).toFixed(1)}%, Retry-After 1 s): ` +
        `${(throttledMs / 1000).toFixed(2)} s (${(bulkMs / 1000).toFixed(2)} s without), 'waiting' shown in ${waits} of ${updates} progress updates, ` +
        `applied ${outcome('applied')}, failed ${outcome('failed')}, duplicate writes ${duplicateWrites(served)} (must be 0)`,
    );
  } finally {
    await sb.close();
  }
}

async function previewBench() {
  const { sb, client, targets } = await sandboxWith(10_000, 10);
  try {
    const t = process.hrtime.bigint();
    let first = 0;
    const entries = await previewChanges(client, bulkChanges(targets, { type: 'set', field: 'NonSettlingErrorPriority', value: 3 }), {
      onEntry: (e) => {
        if (!first && e.status === 'change') first = ms(t);
      },
    });
    const total = ms(t);
    const c = previewCounts(entries);
    console.log(
      `preview of 10,000 scanners (10 folders): first diff ${first.toFixed(0)} ms, ` +
        `full count ${(total / 1000).toFixed(2)} s (${c.change} changes, ${c.noop} no-ops)`,
    );
  } finally {
    await sb.close();
  }
}

function mergeBench() {
  const base = { ...newObject(scannerKind, 'Door'), Key: 'k', ConcurrencyVersion: 3, Tags: ['a', 'b'] } as InputScannerInfo;
  const times: number[] = [];
  for (let i = 0; i < 10_000; i++) {
    const mine = structuredClone(base);
    mine.InputScannerReportingPriorities[i % 8].Priority = 9;
    mine.Tags = ['a', 'b', `m${i}`];
    const theirs = structuredClone(base);
    theirs.InputScannerReportingPriorities[(i + 3) % 8].StatusCode = 5;
    theirs.ConcurrencyVersion = 4;
    const t = process.hrtime.bigint();
    merge3(scannerKind, base, mine, theirs);
    times.push(ms(t) * 1000);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.floor(q * (times.length - 1))].toFixed(1);
  console.log(`merge3 of a scanner (rows, tags, version): p50 ${at(0.5)} µs, p99 ${at(0.99)} µs over ${times.length} merges`);
}

/**
 * The next request under /api/f/ answered `status` (Retry-After 1 s), asked of the sandbox without
 * waiting. One asked for as a run ends meets the sandbox closing: it is not needed then, and its
 * failed connection must not end the bench.
 */
function injectFault(sb: { url: string; token: string }, status: number): void {
  void fetch(new URL('/sandbox/faults', sb.url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${sb.token}` },
    body: JSON.stringify({ path: '/api/f/', status, count: 1, retryAfter: 1 }),
  }).catch(() => undefined);
}

/** 10,000 scanners with about 5% of requests answered 429 (Retry-After 1 s) and 1% answered 500: every object ends with a result, none written twice. */
async function faultsAt10k() {
  const { sb, client, targets, served, setOnLine } = await sandboxWith(10_000, 10);
  try {
    let seen = 0;
    const fault = (status: number) => injectFault(sb, status);
    setOnLine(() => {
      seen++;
      if (seen % 20 === 0) fault(429);
      else if (seen % 100 === 1) fault(500);
    });
    const t = process.hrtime.bigint();
    const results = await runChanges(client, bulkChanges(targets, { type: 'addTag', tag: 'bench-10k' }), { stopOnError: false });
    setOnLine(undefined);
    const count = (o: string) => results.filter((r) => r.outcome === o).length;
    const status = (code: number) => served.filter((l) => new RegExp(`^\\S+ /api/f/\\S+ ${code} `).test(l)).length;
    console.log(
      `bulk edit 10,000 scanners with ${status(429)} answers 429 and ${status(500)} answers 500: ${(ms(t) / 1000).toFixed(1)} s; ` +
        `results ${results.length} (applied ${count('applied')}, failed ${count('failed')}, not sent ${count('notSent')}), ` +
        `duplicate writes ${duplicateWrites(served)} (must be 0)`,
    );
  } finally {
    await sb.close();
  }
}

async function main() {
  await editBench();
  await faultsAt10k();
  await previewBench();
  mergeBench();
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

void main();
