/**
 * Find Objects Where… against a sandbox in its own process (bench/peers/servers.ts), `count` input scanners
 * (default 10,000; 100000 for the fleet) in 10 folders, one in about 50 with an Active row at priority 1:
 * - a plain listing of every scanner (cold for the client), its first page and its end;
 * - a content query, cold (empty page cache): its first matching row and its end, beside the listing;
 * - the query refined, the pages unchanged (each answered 304 from the cache), beside the listing (goal 0.3x);
 * - the cache's memory per 10,000 objects (heap after GC, filled minus empty);
 * - this process's longest event-loop hold-up while the cold query runs (perf_hooks' delay monitor), and CPU time.
 *   node --import tsx bench/query.bench.ts [count] [query page size, default the query core's]
 * Prints numbers; asserts nothing.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createHttp } from '../src/api/http';
import { OmsClient } from '../src/api/client';
import { kind } from '../src/model/kinds';
import { newObject } from '../src/model/templates';
import type { InputScannerInfo } from '../src/model/types';
import { createObject } from '../src/sandbox/store/creation';
import { prng, seedStore } from '../src/sandbox/store/seed';
import { Store } from '../src/sandbox/store/store';
import { compileQuery, Query } from '../src/query/compile';
import { PageCache } from '../src/query/pageCache';
import { runQuery } from '../src/query/run';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const count = Number(process.argv[2] ?? 10_000);
const pageSize = process.argv[3] ? Number(process.argv[3]) : undefined;
const scanners = kind('inputScanner');
const now = () => Number(process.hrtime.bigint()) / 1e6;

async function dataFile(): Promise<string> {
  let n = 0;
  const store = seedStore('empty', 'Bench Instance');
  const ctx = { store, newKey: () => (0x65b1f000 + n++).toString(16).padStart(24, '0') };
  const random = prng(0x5ca11);
  const folders = Array.from({ length: 10 }, (_, i) => createObject(ctx, kind('folder'), store.instanceKey, newObject(kind('folder'), `Site ${i + 1}`)).Key!);
  for (let i = 0; i < count; i++) {
    const o = newObject(scanners, `Door ${i}`) as InputScannerInfo;
    if (random() < 0.02) Object.assign(o.InputScannerReportingPriorities[4], { Priority: 1 });
    createObject(ctx, scanners, folders[i % folders.length], o);
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'oms-query-bench-')), 'data.json');
  await (await Store.open(file, () => store)).close();
  return file;
}

function sandboxProcess(file: string): Promise<{ url: string; token: string; instanceKey: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'peers', 'servers.ts'), 'sandbox', file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      const m = /listening (\S+) (\S+) (\S+)/.exec(d.toString());
      if (m) resolve({ url: m[1], token: m[2], instanceKey: m[3], stop: () => child.kill() });
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited (${code})`)));
  });
}

function compiled(text: string): Query {
  const c = compileQuery(text, [scanners]);
  if ('error' in c) throw new Error(c.error.message);
  return c.query;
}

async function main() {
  let t = now();
  const file = await dataFile();
  console.log(`${count.toLocaleString('en')} scanners written in ${(now() - t).toFixed(0)} ms`);
  const sb = await sandboxProcess(file);
  const client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
  const scope = { folderKey: sb.instanceKey, subfolders: true, kinds: [scanners] };

  const listing = async () => {
    const start = now();
    let first = 0;
    let n = 0;
    for (const f of await client.listAll(kind('folder'), sb.instanceKey)) {
      for await (const items of client.listPages(scanners, f.Key!)) {
        first ||= now() - start;
        n += items.length;
      }
    }
    return { first, all: now() - start, n };
  };
  await listing(); // the sandbox's own first build of each page, out of the comparison
  const list = await listing();
  console.log(`plain listing of ${list.n.toLocaleString('en')} scanners: first page ${list.first.toFixed(0)} ms, all ${list.all.toFixed(0)} ms`);

  const cache = new PageCache();
  gc();
  const heapEmpty = process.memoryUsage().heapUsed;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const cpu = process.cpuUsage();
  let firstPage = 0;
  let firstRow = 0;
  t = now();
  delay.enable();
  const cold = await runQuery(client, compiled('InputScannerReportingPriorities[?Priority == `1` && StatusCode == `1`]'), scope, {
    cache,
    pageSize,
    onProgress: () => {
      firstPage ||= now() - t;
    },
    onMatches: () => {
      firstRow ||= now() - t;
    },
  });
  const coldMs = now() - t;
  delay.disable();
  const used = process.cpuUsage(cpu);
  console.log(
    `query, cold: ${cold.matched} of ${cold.scanned.toLocaleString('en')} matched; first page matched ${firstPage.toFixed(0)} ms, first matching row ${firstRow.toFixed(0)} ms, all ${coldMs.toFixed(0)} ms (${(coldMs / list.all).toFixed(2)}x the listing; goal 1.2x), CPU ${((used.user + used.system) / 1000).toFixed(0)} ms`,
  );
  console.log(`longest event-loop hold-up while it ran: ${(delay.max / 1e6).toFixed(1)} ms (goal 50 ms), p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms`);
  gc();
  const heapFull = process.memoryUsage().heapUsed;
  console.log(
    `page cache: ${cache.size.toLocaleString('en')} objects, ${((heapFull - heapEmpty) / 1024 / 1024).toFixed(1)} MB heap, ${((((heapFull - heapEmpty) / cache.size) * 10_000) / 1024 / 1024).toFixed(1)} MB per 10,000 objects`,
  );

  t = now();
  const refined = await runQuery(
    client,
    compiled('InputScannerReportingPriorities[?Priority == `1` && StatusCode == `1` && MinResistanceCode > `1000`]'),
    scope,
    { cache, pageSize },
  );
  const refinedMs = now() - t;
  console.log(
    `query refined, pages unchanged: ${refined.matched} matched, ${refined.unchangedPages} of ${refined.pages} pages answered 304, ${refinedMs.toFixed(0)} ms (${(refinedMs / list.all).toFixed(2)}x the listing; goal 0.3x)`,
  );
  sb.stop();
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
