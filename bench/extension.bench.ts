/**
 * The extension side, side by side, as ratios against a limit or a peer
 * measured in the same run:
 *   - bundles: what activation loads (dist/extension.js and the chunks it
 *     requires, as the unit test measures it) against its limit and against the same code as one bundle;
 *   - loading the bundle in Node (a stand-in `vscode`), against a single bundle;
 *   - activation as VS Code recorded it in the last integration run
 *     (.diagnostics/integration/activation-times.json) against the 20 ms limit;
 *   - list / open / save round trips through the client against a bare fetch
 *     of the same URL (the sandbox in a process of its own, as in the host);
 *   - batch add of 10,000 people through the client against the JSON
 *     serialisation limit for the same people (JSON.stringify of each batch).
 *
 *   npm run build -- --release && node --import tsx bench/extension.bench.ts
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as esbuild from 'esbuild';
import { OmsClient } from '../src/api/client';
import { createHttp } from '../src/api/http';
import { kind } from '../src/model/kinds';
import { newObject } from '../src/model/templates';
import type { InputScannerInfo, PersonInfo } from '../src/model/types';
import { readPeopleCsv } from '../src/people/csv';
import { validRows } from '../src/people';
import { startProcess, stopAll, waitForLine } from '../test/integration/host/procs';
import { parseSandboxLine } from '../test/integration/host/sandbox';
import type { ActivationRecord } from '../test/integration/index';
import { activationFiles, activationLimit } from '../test/unit/build/activationSize';

const repo = path.resolve(__dirname, '..');
const dist = path.join(repo, 'dist');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
/** Columns padded to their width; a cell that fills its column still gets a space after it. */
const row = (...cells: Array<string | number>) =>
  console.log(
    cells
      .map((c, i) => `${String(c).padEnd(i === 0 ? 51 : 13)} `)
      .join('')
      .trimEnd(),
  );

async function bundles(tmp: string): Promise<void> {
  console.log('## Bundles (release build)');
  const loaded = activationFiles();
  const activation = loaded.reduce((n, f) => n + f.bytes, 0);
  // The peer: the same entry with every module in it, as before the split.
  const single = path.join(tmp, 'single.js');
  await esbuild.build({
    entryPoints: ['src/extension.ts'],
    outfile: single,
    bundle: true,
    platform: 'node',
    target: 'node18',
    format: 'cjs',
    external: ['vscode'],
    mainFields: ['module', 'main'],
    minify: true,
    logLevel: 'error',
    absWorkingDir: repo,
  });
  const one = fs.statSync(single).size;
  for (const f of fs
    .readdirSync(dist)
    .filter((f) => f.endsWith('.js') && !f.startsWith('chunk-'))
    .sort())
    row(`  dist/${f}`, kb(fs.statSync(path.join(dist, f)).size));
  row(`  loaded at activation (${loaded.length} files)`, kb(activation), `${ratio(activation, activationLimit)} of the ${activationLimit / 1024} KB limit`);
  row('  the same code as one bundle', kb(one), `activation loads ${ratio(activation, one)} of it`);

  console.log('\n## Loading the bundle in Node (stand-in vscode module, median of 15)');
  // The stand-in has the API's top-level names (from @types/vscode) as its own properties, as the real
  // module does (l10n.t returns the message), and answers any other name through its prototype. The extension host has Node's
  // built-in modules loaded already: so does the script, before it starts the clock.
  const apiNames = [
    ...fs
      .readFileSync(path.join(repo, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8')
      .matchAll(/^ {4}export (?:namespace|class|enum|function|const|let) (\w+)/gm),
  ].map((m) => m[1]);
  const load = (file: string) => {
    const script = [
      `for (const m of ['crypto', 'fs', 'fs/promises', 'path', 'os', 'http', 'https', 'zlib', 'timers/promises']) require(m);`,
      `const api = Object.create(new Proxy({}, { get: () => class {} }));`,
      `for (const name of ${JSON.stringify(apiNames)}) api[name] = class {};`,
      // Words are looked up as modules load (vscode.l10n.t): the message itself, as VS Code gives in English.
      `api.l10n = { t: (message) => (typeof message === 'string' ? message : message.message) };`,
      `const M = require('module'); const o = M._load; M._load = function (r, ...a) { return r === 'vscode' ? api : o.call(this, r, ...a); };`,
      `const t = process.hrtime.bigint(); require(${JSON.stringify(file)}); console.log(Number(process.hrtime.bigint() - t) / 1e6);`,
    ].join('\n');
    const runs = Array.from({ length: 15 }, () => Number(execFileSync(process.execPath, ['-e', script]).toString()));
    return runs.sort((a, b) => a - b)[7];
  };
  const split = load(path.join(dist, 'extension.js'));
  const whole = load(single);
  row('  require dist/extension.js', `${split.toFixed(1)} ms`, `${ratio(split, whole)} of one bundle (${whole.toFixed(1)} ms)`);

  console.log('\n## First validation: generated code against compiling the schemas at run time (fresh process, median of 9)');
  const sample = JSON.stringify(path.join(repo, 'test', 'unit', 'validation', 'fixtures', 'inputScanner.update.json'));
  const time = (body: string) => {
    const runs = Array.from({ length: 9 }, () =>
      Number(
        execFileSync(process.execPath, ['-e', `const t=process.hrtime.bigint();${body};console.log(Number(process.hrtime.bigint()-t)/1e6)`], {
          cwd: repo,
        }).toString(),
      ),
    );
    return runs.sort((a, b) => a - b)[4];
  };
  const generated = time(`require('./dist/validators.js')['inputScanner.schema.json'](require(${sample}))`);
  const compiled = time(
    "const A=require('ajv').default,f=require('ajv-formats').default,fs=require('fs');" +
      'const a=new A({allErrors:true,verbose:true,strict:false,allowUnionTypes:true});f(a);' +
      "for(const n of fs.readdirSync('schemas').filter((n)=>n.endsWith('.json')))a.addSchema(JSON.parse(fs.readFileSync('schemas/'+n,'utf8')),n);" +
      `a.getSchema('inputScanner.schema.json')(require(${sample}))`,
  );
  row('  load generated validators + validate', `${generated.toFixed(1)} ms`, `${ratio(generated, compiled)} of ajv compiling (${compiled.toFixed(1)} ms)`);

  console.log('\n## Activation as VS Code recorded it (last integration run)');
  const recorded = path.join(repo, '.diagnostics', 'integration', 'activation-times.json');
  if (fs.existsSync(recorded)) {
    const t = JSON.parse(fs.readFileSync(recorded, 'utf8')) as ActivationRecord;
    const sum = t.codeLoadingTime + t.activateCallTime + t.activateResolvedTime;
    const before = t.quiet ? `; machine ${Math.round(t.quiet.busy * 100)}% busy just before` : '';
    const when = fs.statSync(recorded).mtime.toISOString().slice(0, 16).replace('T', ' ');
    row(
      '  load code + call activate + finish activate',
      `${t.codeLoadingTime} + ${t.activateCallTime} + ${t.activateResolvedTime} = ${sum} ms`,
      `${ratio(sum, 20)} of the 20 ms limit (${t.event}${before}; recorded ${when} UTC)`,
    );
  } else {
    console.log(`  (none yet: run the integration suite, which writes ${path.relative(repo, recorded)})`);
  }
}

async function sandbox(tmp: string, dataFile?: string) {
  const token = randomBytes(24).toString('hex');
  const args = [path.join(dist, 'sandbox.cjs'), '--port', '0', '--seed', 'demo', ...(dataFile ? ['--data', dataFile] : [])];
  const child = startProcess(process.execPath, args, { logFile: path.join(tmp, 'sandbox.log'), env: { ...process.env, OMS_SANDBOX_TOKEN: token } });
  const info = parseSandboxLine(await waitForLine(child, /listening/, 20_000, 'sandbox'), token);
  return {
    ...info,
    stop: () => {
      child.kill('SIGTERM');
    },
  };
}

/** Median time of `fn` over `rounds`, in ms. */
async function median(rounds: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)];
}

async function roundTrips(tmp: string): Promise<void> {
  console.log('\n## Round trips: client against a bare fetch of the same URL (sandbox in its own process, memory store)');
  const sb = await sandbox(tmp);
  try {
    const client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
    const bare = (p: string, init: RequestInit = {}) =>
      fetch(sb.url + p, { ...init, headers: { Authorization: `Bearer ${sb.token}`, Accept: 'application/json', 'Content-Type': 'application/json' } }).then(
        (r) => r.json(),
      );
    const people = kind('person');
    const scanner = kind('inputScanner');
    const created = await client.create<InputScannerInfo>(scanner, sb.instance, newObject(scanner, 'Bench scanner') as InputScannerInfo);
    const objectPath = `/api/f/${sb.instance}/inputscanners/${created.Key}`;
    for (let i = 0; i < 20; i++) await client.list(people, sb.instance, 0, 100); // warm-up
    const list = await median(101, () => client.list(people, sb.instance, 0, 100));
    const listBare = await median(101, () => bare(`/api/f/${sb.instance}/people?page=0&pageSize=100`));
    row('  list a page of 100 people', `${list.toFixed(2)} ms`, `${ratio(list, listBare)} of bare fetch (${listBare.toFixed(2)} ms)`);
    const open = await median(201, () => client.get(scanner, sb.instance, created.Key!));
    const openBare = await median(201, () => bare(objectPath));
    row('  open an object (GET)', `${open.toFixed(2)} ms`, `${ratio(open, openBare)} of bare fetch (${openBare.toFixed(2)} ms)`);
    let i = 0;
    const save = await median(201, async () => {
      const current = await client.get<InputScannerInfo>(scanner, sb.instance, created.Key!);
      current.InputScannerReportingPriorities[0].Priority = ++i % 5;
      await client.update(scanner, current);
    });
    const saveBare = await median(201, async () => {
      const current = (await bare(objectPath)) as InputScannerInfo;
      current.InputScannerReportingPriorities[0].Priority = ++i % 5;
      await fetch(sb.url + objectPath, {
        method: 'PUT',
        body: JSON.stringify(current),
        headers: { Authorization: `Bearer ${sb.token}`, 'Content-Type': 'application/json' },
      }).then((r) => r.text());
    });
    row('  save (version check GET + PUT)', `${save.toFixed(2)} ms`, `${ratio(save, saveBare)} of bare fetch (${saveBare.toFixed(2)} ms)`);
  } finally {
    sb.stop();
  }
}

function csvOf(n: number): string {
  const lines = ['GivenName,Surname,Email,Phone,City,Tags'];
  for (let i = 0; i < n; i++) lines.push(`G${i},S${i},p${i}@big.example.com,555-${String(i).padStart(5, '0')},Ottawa,bench`);
  return `${lines.join('\n')}\n`;
}

async function batchAdd(tmp: string, rows: number): Promise<void> {
  console.log(`\n## Batch add of ${rows} people (batches of 100, 8 in flight as the extension sends them; sandbox in its own process)`);
  const t0 = performance.now();
  const people: PersonInfo[] = validRows(readPeopleCsv(Buffer.from(csvOf(rows)))).map((r) => r.person);
  const parseMs = performance.now() - t0;
  // The limit: the client cannot send faster than it can serialise the same batches.
  const t1 = performance.now();
  for (let i = 0; i < people.length; i += 100) JSON.stringify(people.slice(i, i + 100));
  const jsonMs = performance.now() - t1;
  row('  JSON serialisation of every batch (limit)', `${jsonMs.toFixed(0)} ms`, `${Math.round(rows / (jsonMs / 1000))} people/s`);
  row('  read + check the CSV (src/people)', `${parseMs.toFixed(0)} ms`, `${ratio(parseMs, jsonMs)} of the limit`);
  for (const [label, dataFile] of [
    ['memory store', undefined],
    ['durable data file', path.join(tmp, 'data.json')],
  ] as const) {
    const sb = await sandbox(tmp, dataFile);
    try {
      const client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token, timeoutMs: 120_000 }));
      const t = performance.now();
      const cpu = process.cpuUsage();
      const report = await client.addPeople(sb.instance, people, { batchSize: 100, concurrency: 8 });
      const ms = performance.now() - t;
      const { user, system } = process.cpuUsage(cpu);
      if (report.added !== rows) throw new Error(`${label}: ${report.added} added of ${rows}`);
      row(`  send through the client (${label})`, `${ms.toFixed(0)} ms`, `${Math.round(rows / (ms / 1000))} people/s, ${ratio(ms, jsonMs)} of the limit`);
      // Where the time goes: the client's own CPU against the wall time (the rest is the service).
      row('    client CPU during the send', `${((user + system) / 1000).toFixed(0)} ms`, `${ratio((user + system) / 1000, ms)} of the wall time`);
    } finally {
      sb.stop();
    }
  }
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(dist, 'meta.json'))) execFileSync(process.execPath, ['esbuild.js', '--release'], { cwd: repo, stdio: 'inherit' });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'oms-bench-ext-'));
  try {
    await bundles(tmp);
    await roundTrips(tmp);
    await batchAdd(tmp, Number(process.argv[2] ?? 10_000));
  } finally {
    await stopAll();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch(async (e) => {
  console.error(e);
  await stopAll();
  process.exit(1);
});
