/**
 * Well-kept libraries beside our own code for the jobs they share, measured in one run:
 * - routing: the sandbox's own route table (src/sandbox/routes/endpoints.ts) in our Router
 *   (src/sandbox/http/router.ts, with pathSegments' decoding) and in find-my-way;
 * - body reading: our readBody (src/sandbox/http/replies.ts) and raw-body in the same
 *   node:http server, 8 keep-alive clients, 1 KiB and 1 MiB bodies, and a body over the limit;
 * - worker pool: the executor (src/changes/executor.ts) and p-limit / p-queue doing the
 *   same work per object (GET, then saveObject: GET, PUT, GET), first over an in-memory Http
 *   (the pool's own cost), then on a sandbox over a real socket;
 * - retry and back-off: a GET answered 503 with Retry-After 2 s twice, by our client (its own
 *   retries) and by p-retry / exponential-backoff around a client that does not retry;
 * - size: each candidate bundled and minified (esbuild), beside our code for the same job and
 *   the activation files (dist/extension.js and the chunk it requires, when built).
 * Candidates are not dependencies; install them anywhere and point at that folder:
 *   npm install --prefix /tmp/libs find-my-way raw-body p-limit p-queue p-retry exponential-backoff
 *   OMS_LIBRARY_CANDIDATES=/tmp/libs node --import tsx bench/libraries.bench.ts
 * A candidate not found is named and skipped. Prints numbers; asserts nothing.
 */
import { createRequire } from 'node:module';
import { createServer, Agent, request, IncomingMessage } from 'node:http';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, transform } from 'esbuild';
import { createHttp, Http, RequestOptions } from '../src/api/http';
import { OmsClient } from '../src/api/client';
import { kind } from '../src/model/kinds';
import { newObject } from '../src/model/templates';
import type { InputScannerInfo } from '../src/model/types';
import { bulkChanges, Target } from '../src/changes/bulk';
import { Change, runChanges } from '../src/changes/executor';
import { saveObject } from '../src/save/saveObject';
import { startSandbox } from '../src/sandbox/server';
import { endpoints } from '../src/sandbox/routes/endpoints';
import { pathSegments, Router } from '../src/sandbox/http/router';
import { HttpError, readBody } from '../src/sandbox/http/replies';

const repo = path.join(__dirname, '..');
const from = process.env.OMS_LIBRARY_CANDIDATES ?? repo;
const requireFrom = createRequire(path.join(from, 'package.json'));
const scannerKind = kind('inputScanner');
const now = () => performance.now();

/** A candidate module (CommonJS or ESM), or undefined with a line saying it was skipped. */
async function candidate<T>(name: string): Promise<T | undefined> {
  let file: string;
  try {
    file = requireFrom.resolve(name);
  } catch {
    console.log(`  ${name}: not found under ${from} (skipped)`);
    return undefined;
  }
  return (await import(pathToFileURL(file).href)) as T;
}

/** The installed version: the package.json above the file the name resolves to (ESM packages do not export it). */
function version(name: string): string {
  try {
    for (let dir = path.dirname(requireFrom.resolve(name)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      const file = path.join(dir, 'package.json');
      const pkg = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version: string }) : undefined;
      if (pkg?.name === name) return pkg.version;
    }
  } catch {
    // not installed
  }
  return '?';
}

const row = (label: string, value: string) => console.log(`  ${label.padEnd(52)} ${value}`);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

// --- routing ---------------------------------------------------------------------------------

async function routing(): Promise<void> {
  console.log('routing: the sandbox route table, 1,000,000 lookups of a realistic mix');
  // The table as endpoints() adds it, for the candidates.
  const table: Array<{ method: string; pattern: string }> = [];
  const add = Object.getOwnPropertyDescriptor(Router.prototype, 'add')!.value as (
    this: Router<unknown>,
    method: string,
    pattern: string,
    handler: unknown,
  ) => Router<unknown>;
  Router.prototype.add = function (this: Router<unknown>, method: string, pattern: string, handler: unknown) {
    table.push({ method, pattern });
    return add.call(this, method, pattern, handler);
  };
  const ours = endpoints();
  Router.prototype.add = add;
  const folder = '65b1f00000000000000000aa';
  const key = '65b1f00000000000000001bc';
  const hits: Array<[string, string]> = [
    ['GET', `/api/f/${folder}/inputscanners`],
    ['GET', `/api/f/${folder}/inputscanners/${key}`],
    ['PUT', `/api/f/${folder}/inputscanners/${key}`],
    ['POST', `/api/f/${folder}/people/complex`],
    ['GET', `/api/f/${folder}/people/${key}/notes`],
    ['GET', '/api'],
  ];
  const misses: Array<[string, string]> = [
    ['GET', `/api/f/${folder}/nothing/here`],
    ['GET', `/api/f/${folder}/people/complex`],
  ];
  const n = 1_000_000;
  const time = (mix: Array<[string, string]>, lookup: (method: string, url: string) => unknown) => {
    for (let i = 0; i < 10_000; i++) lookup(...mix[i % mix.length]);
    const t = now();
    for (let i = 0; i < n; i++) lookup(...mix[i % mix.length]);
    return ((now() - t) * 1000) / n;
  };
  // A miss is an HttpError (404, or 405 naming the allowed methods) either way: the server answers with it.
  const ourLookup = (method: string, url: string) => {
    try {
      return ours.match(method, pathSegments(url));
    } catch (e) {
      return e;
    }
  };
  const ourHit = time(hits, ourLookup);
  const ourMiss = time(misses, ourLookup);
  row(`our Router (${table.length} routes), with pathSegments`, `${ourHit.toFixed(3)} µs a hit, ${ourMiss.toFixed(3)} µs a miss`);
  type FindMyWay = (o: object) => { on(m: string, p: string, h: () => void): void; find(m: string, p: string): unknown };
  const fmw = await candidate<{ default: FindMyWay }>('find-my-way');
  if (fmw) {
    const router = fmw.default({ caseSensitive: false });
    for (const r of table) router.on(r.method, r.pattern, () => undefined);
    const methods = [...new Set(table.map((r) => r.method))];
    // A miss is looked up under the other methods too, for the 405 our Router answers.
    const theirLookup = (method: string, url: string) => {
      const found = router.find(method, url);
      if (found) return found;
      const allowed = methods.filter((m) => router.find(m, url));
      return allowed.length ? new HttpError(405, `allowed: ${allowed.join(', ')}`) : new HttpError(404, `No route ${url}`);
    };
    const theirHit = time(hits, theirLookup);
    const theirMiss = time(misses, theirLookup);
    row(
      `find-my-way ${version('find-my-way')}`,
      `${theirHit.toFixed(3)} µs a hit (${(theirHit / ourHit).toFixed(2)}× ours), ${theirMiss.toFixed(3)} µs a miss (${(theirMiss / ourMiss).toFixed(2)}×)`,
    );
  }
}

// --- body reading ----------------------------------------------------------------------------

async function bodies(): Promise<void> {
  console.log('body reading: POSTs to a node:http server that reads each body, 8 keep-alive clients');
  type RawBody = (req: IncomingMessage, o: { limit: number; length?: string }) => Promise<Buffer>;
  const raw = await candidate<{ default: RawBody }>('raw-body');
  const limit = 10 * 1024 * 1024;
  const readers: Array<[string, (req: IncomingMessage, max: number) => Promise<Buffer>]> = [['our readBody', readBody]];
  if (raw) readers.push([`raw-body ${version('raw-body')}`, (req, max) => raw.default(req, { limit: max, length: req.headers['content-length'] })]);
  // After a warm-up, two rounds, the order turned in the second: the best rate of each.
  for (const [, reader] of readers) await postRate(reader, limit, Buffer.alloc(1024, 'a'), 2000);
  for (const [size, count] of [
    [1024, 20_000],
    [1024 * 1024, 400],
  ] as const) {
    const best = new Map<string, number>();
    for (const round of [readers, [...readers].reverse()]) {
      for (const [name, reader] of round) best.set(name, Math.max(best.get(name) ?? 0, await postRate(reader, limit, Buffer.alloc(size, 'a'), count)));
    }
    const ours = best.get(readers[0][0])!;
    for (const [name] of readers) {
      const rate = best.get(name)!;
      row(
        `${name}, ${size === 1024 ? '1 KiB' : '1 MiB'} bodies`,
        `${rate.toFixed(0)} requests/s${rate !== ours ? ` (${(rate / ours).toFixed(2)}× ours)` : ''}`,
      );
    }
  }
  for (const [name, reader] of readers) {
    const status = await postStatus(reader, 1024 * 1024, Buffer.alloc(2 * 1024 * 1024, 'a'));
    row(`${name}, 2 MiB body with a 1 MiB limit`, `answered ${status}`);
  }
}

function serve(reader: (req: IncomingMessage, max: number) => Promise<Buffer>, max: number) {
  const server = createServer((req, res) => {
    reader(req, max).then(
      (b) => res.end(String(b.length)),
      (e: { status?: number; statusCode?: number }) => {
        res.statusCode = e.status ?? e.statusCode ?? 500;
        res.setHeader('Connection', 'close');
        res.end();
        req.resume();
      },
    );
  });
  return new Promise<{ port: number; close: () => Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as { port: number }).port,
        close: () => {
          server.closeAllConnections();
          return new Promise((r) => server.close(() => r()));
        },
      }),
    ),
  );
}

function post(agent: Agent | undefined, port: number, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: { 'Content-Length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function postRate(reader: (req: IncomingMessage, max: number) => Promise<Buffer>, max: number, body: Buffer, count: number): Promise<number> {
  const server = await serve(reader, max);
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  let next = 0;
  const t = now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next++ < count) await post(agent, server.port, body);
    }),
  );
  const seconds = (now() - t) / 1000;
  agent.destroy();
  await server.close();
  return count / seconds;
}

async function postStatus(reader: (req: IncomingMessage, max: number) => Promise<Buffer>, max: number, body: Buffer): Promise<number> {
  const server = await serve(reader, max);
  try {
    return await post(undefined, server.port, body).catch(() => 0);
  } finally {
    await server.close();
  }
}

// --- worker pool -----------------------------------------------------------------------------

type Limit = (task: () => Promise<boolean>) => Promise<unknown>;

/** The per-object work of the executor without its scheduling: read, build, save (GET, PUT, GET). */
async function sameWork(client: OmsClient, change: Change): Promise<boolean> {
  const live = await client.get(change.kind, change.folderKey, change.key!);
  const built = change.build(live);
  if ('skip' in built) return false;
  const outcome = await saveObject(client, { kind: change.kind, folderKey: change.folderKey, key: change.key }, built, live.ConcurrencyVersion ?? null, {
    current: live,
  });
  return outcome.status === 'saved';
}

async function pools(): Promise<void> {
  type PLimit = (n: number) => Limit;
  type PQueue = new (o: { concurrency: number }) => { add(task: () => Promise<boolean>): Promise<unknown> };
  const pLimit = await candidate<{ default: PLimit }>('p-limit');
  const pQueue = await candidate<{ default: PQueue }>('p-queue');
  const libs: Array<[string, () => Limit]> = [];
  if (pLimit) libs.push([`p-limit ${version('p-limit')}`, () => pLimit.default(4)]);
  if (pQueue)
    libs.push([
      `p-queue ${version('p-queue')}`,
      () => {
        const q = new pQueue.default({ concurrency: 4 });
        return (task) => q.add(task);
      },
    ]);

  // Each run sets another value, so that every object is written in every run. Two rounds, the
  // order turned in the second, after a warm-up: the best rate of each (the first run of all pays
  // for loading the validators and the JIT; on the sandbox, later runs find a longer journal).
  let value = 0;
  const changes = (targets: Target[]) => bulkChanges(targets, { type: 'setRow', min: 850, max: 1150, field: 'Priority', value: ++value });
  const ourRun = async (client: OmsClient, targets: Target[]) => {
    const t = now();
    const results = await runChanges(client, changes(targets), { stopOnError: false, concurrency: 4 });
    if (results.some((r) => r.outcome !== 'applied')) throw new Error('the executor did not apply every change');
    return targets.length / ((now() - t) / 1000);
  };
  const libRun = async (name: string, make: () => Limit, client: OmsClient, targets: Target[]) => {
    const limit = make();
    const list = changes(targets);
    const t = now();
    const saved = await Promise.all(list.map((c) => limit(() => sameWork(client, c))));
    if (saved.some((ok) => !ok)) throw new Error(`${name} did not save every object`);
    return targets.length / ((now() - t) / 1000);
  };
  const run = async (label: string, client: OmsClient, targets: Target[]) => {
    await ourRun(client, targets.slice(0, 200));
    for (const [name, make] of libs) await libRun(name, make, client, targets.slice(0, 200));
    const best = new Map<string, number>();
    const keep = (name: string, rate: number) => best.set(name, Math.max(best.get(name) ?? 0, rate));
    keep('ours', await ourRun(client, targets));
    for (const [name, make] of libs) keep(name, await libRun(name, make, client, targets));
    for (const [name, make] of [...libs].reverse()) keep(name, await libRun(name, make, client, targets));
    keep('ours', await ourRun(client, targets));
    const ours = best.get('ours')!;
    row(`${label}: our executor (concurrency 4)`, `${ours.toFixed(0)} objects/s`);
    for (const [name] of libs) row(`${label}: ${name} (4), the same work`, `${best.get(name)!.toFixed(0)} objects/s (${(best.get(name)! / ours).toFixed(2)}×)`);
  };

  console.log("worker pool: 20,000 scanners over an in-memory Http (the scheduling's own cost), then 1,000 on a sandbox");
  const memory = memoryHttp(20_000);
  await run('in memory, 20,000', new OmsClient(memory.http), memory.targets);

  const sb = await startSandbox({ port: 0, seed: 'empty' });
  try {
    const client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
    const folderKey = (await client.instance()).Key!;
    const targets: Target[] = [];
    for (let i = 0; i < 1000; i++) {
      const o = await client.create(scannerKind, folderKey, newObject(scannerKind, `Door ${i}`));
      targets.push({ kind: scannerKind, folderKey, key: o.Key!, name: o.CommonName! });
    }
    await run('sandbox, 1,000', client, targets);
  } finally {
    await sb.close();
  }
}

/** An Http holding `count` scanners in a Map: GET answers a copy, PUT bumps the version. */
function memoryHttp(count: number): { http: Http; targets: Target[]; puts: number } {
  const store = new Map<string, InputScannerInfo>();
  const targets: Target[] = [];
  for (let i = 0; i < count; i++) {
    const key = (0x65b1f000 + i).toString(16).padStart(24, '0');
    store.set(key, { ...newObject(scannerKind, `Door ${i}`), Key: key, ConcurrencyVersion: 1 } as InputScannerInfo);
    targets.push({ kind: scannerKind, folderKey: 'f', key, name: `Door ${i}` });
  }
  const memory = { http: undefined as unknown as Http, targets, puts: 0 };
  const http = <T>(req: RequestOptions): Promise<T> => {
    const key = req.path.split('/').pop()!;
    const o = store.get(key)!;
    if (req.method === 'PUT') {
      memory.puts++;
      store.set(key, { ...(req.json as InputScannerInfo), ConcurrencyVersion: (o.ConcurrencyVersion ?? 0) + 1 });
    }
    return Promise.resolve((req.method === 'GET' ? structuredClone(store.get(key)) : undefined) as T);
  };
  memory.http = http;
  return memory;
}

// --- retry and back-off ----------------------------------------------------------------------

async function retries(): Promise<void> {
  console.log('retry: a GET of /api answered 503 with Retry-After 2 s twice, then 200');
  type PRetry = (f: () => Promise<unknown>, o?: object) => Promise<unknown>;
  type Backoff = (f: () => Promise<unknown>, o?: object) => Promise<unknown>;
  const pRetry = await candidate<{ default: PRetry }>('p-retry');
  const backoff = await candidate<{ backOff: Backoff }>('exponential-backoff');
  const sb = await startSandbox({ port: 0, seed: 'empty' });
  try {
    const sent: number[] = [];
    const trial = async (label: string, get: (http: Http) => Promise<unknown>, maxAttempts: number) => {
      await fetch(new URL('/sandbox/faults', sb.url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${sb.token}` },
        body: JSON.stringify({ path: '/api', status: 503, count: 2, retryAfter: 2 }),
      });
      sent.length = 0;
      const http = createHttp({ baseUrl: sb.url, token: () => sb.token, maxAttempts, log: () => sent.push(now()) });
      const t = now();
      const ok = await get(http).then(
        () => 'answered',
        (e: Error) => `failed: ${e.message.slice(0, 60)}`,
      );
      const early = sent.slice(1).filter((at, i) => at - sent[i] < 2000 - 50).length;
      row(label, `${((now() - t) / 1000).toFixed(2)} s, ${sent.length} requests, ${early} sent before the Retry-After had passed, ${ok}`);
    };
    const sysinfo = (http: Http) => http({ method: 'GET', path: '/api' });
    await trial('our client (src/api/http.ts), its defaults', sysinfo, 4);
    if (pRetry) await trial(`p-retry ${version('p-retry')} (defaults: 10 retries, from 1 s)`, (http) => pRetry.default(() => sysinfo(http)), 1);
    if (backoff) await trial(`exponential-backoff ${version('exponential-backoff')} (defaults)`, (http) => backoff.backOff(() => sysinfo(http)), 1);
  } finally {
    await sb.close();
  }
}

// --- size ------------------------------------------------------------------------------------

async function sizes(): Promise<void> {
  console.log('size: minified, bundled with what it needs (esbuild); our code for the same job beside it');
  const ownCode = async (file: string) => (await transform(fs.readFileSync(path.join(repo, file), 'utf8'), { loader: 'ts', minify: true })).code.length;
  const lib = async (name: string) => {
    try {
      requireFrom.resolve(name);
    } catch {
      return undefined;
    }
    const out = await build({
      stdin: { contents: `export * from ${JSON.stringify(name)};`, resolveDir: from },
      bundle: true,
      minify: true,
      platform: 'node',
      format: 'cjs',
      write: false,
      logLevel: 'silent',
    });
    return out.outputFiles[0].contents.length;
  };
  const pairs: Array<[string, string[], string]> = [
    ['routing', ['find-my-way'], 'src/sandbox/http/router.ts'],
    ['body reading', ['raw-body'], 'src/sandbox/http/replies.ts'],
    ['worker pool', ['p-limit', 'p-queue'], 'src/changes/executor.ts'],
    ['retry and back-off', ['p-retry', 'exponential-backoff'], 'src/api/http.ts'],
  ];
  for (const [job, names, ours] of pairs) {
    const libsText = [];
    for (const name of names) {
      const bytes = await lib(name);
      if (bytes !== undefined) libsText.push(`${name} ${kb(bytes)}`);
    }
    row(`${job}`, `${libsText.join(', ') || 'no candidate found'}; ours (${path.basename(ours)}, whole file) ${kb(await ownCode(ours))}`);
  }
  const dist = path.join(repo, 'dist');
  const entry = path.join(dist, 'extension.js');
  if (fs.existsSync(entry)) {
    const chunks = [...fs.readFileSync(entry, 'utf8').matchAll(/require\("\.\/(chunk-[\w-]+\.js)"\)/g)].map((m) => m[1]);
    const activation = [entry, ...chunks.map((c) => path.join(dist, c))].reduce((n, f) => n + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
    row('activation files (dist/extension.js + the chunks it requires)', kb(activation));
  } else {
    row('activation files', 'dist/extension.js not built (npm run build)');
  }
}

async function main() {
  // The numbers move with the machine's load: a rate within about 1.3× either way is noise on a busy machine.
  console.log(
    `candidates from ${from === repo ? 'the project' : 'OMS_LIBRARY_CANDIDATES'}; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs`,
  );
  await routing();
  await bodies();
  await pools();
  await retries();
  await sizes();
}

void main();
