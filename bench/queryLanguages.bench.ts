/**
 * The query languages considered for Find Objects Where… (docs/architecture.md, "Queries"), measured in one run:
 * - speed: 100,000 input scanners made as the sandbox makes them (templates' newObject, placed by the store's
 *   createObject), their reporting priorities varied by the sandbox's PRNG; three content queries, each evaluated
 *   per object (how the query core matches objects as their pages arrive), wall time with CPU time beside it;
 * - compile: the time to compile each query, and the error (message, position) for three broken ones;
 * - size: each candidate bundled and minified (esbuild), as it would be added to dist/.
 * Candidates are found in OMS_QUERY_CANDIDATES (default: this repository's node_modules):
 *   npm install --prefix /tmp/q jmespath @jmespath-community/jmespath jsonata
 *   OMS_QUERY_CANDIDATES=/tmp/q node --import tsx bench/queryLanguages.bench.ts [count]
 * A candidate not found is named and skipped. Prints numbers; asserts nothing.
 */
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import { kind } from '../src/model/kinds';
import { newObject } from '../src/model/templates';
import { createObject } from '../src/sandbox/store/creation';
import { prng, seedStore } from '../src/sandbox/store/seed';
import type { BaseInfo, InputScannerInfo } from '../src/model/types';

const from = process.env.OMS_QUERY_CANDIDATES ?? path.join(__dirname, '..');
const requireFrom = createRequire(path.join(from, 'node_modules', 'x.js'));
const count = Number(process.argv[2] ?? 100_000);

/** `count` scanners as the sandbox seeds them; one in about 50 has a priority-1 row with status 4 (open circuit). */
function scanners(n: number): BaseInfo[] {
  let k = 0;
  const store = seedStore('empty', 'Bench Instance');
  const ctx = { store, newKey: () => (0x65b1f000 + k++).toString(16).padStart(24, '0') };
  const random = prng(0x0e5a11d);
  const scanner = kind('inputScanner');
  const out: BaseInfo[] = [];
  for (let i = 0; i < n; i++) {
    const o = newObject(scanner, `Door ${i}`) as InputScannerInfo;
    for (const row of o.InputScannerReportingPriorities) row.Priority = Math.floor(random() * 10);
    if (random() < 0.02) Object.assign(o.InputScannerReportingPriorities[4], { Priority: 1, StatusCode: 4 });
    out.push(createObject(ctx, scanner, store.instanceKey, o));
  }
  return out;
}

interface Language {
  name: string;
  pkg: string;
  /** The queries in this language, in the order of `questions`. */
  queries: string[];
  broken: string[];
  compile(lib: any, text: string): (o: unknown) => unknown;
}

const questions = ['a priority-1 row reporting status 4', 'fewer than 8 rows with a priority above 0', "name contains 'Door 99'"];
const truthy = (v: unknown) => v !== undefined && v !== null && v !== false && v !== '' && !(Array.isArray(v) && v.length === 0);

const jmes = (pkg: string, name: string): Language => ({
  name,
  pkg,
  queries: [
    'InputScannerReportingPriorities[?Priority == `1` && StatusCode == `4`]',
    'length(InputScannerReportingPriorities[?Priority > `0`]) < `8`',
    "contains(CommonName, 'Door 99')",
  ],
  broken: ['InputScannerReportingPriorities[?Priority == `1`', 'CommonName == ', "contains(CommonName 'x')"],
  compile: (lib, text) => {
    const ast = lib.compile(text);
    // jmespath exports no interpreter for a compiled tree: its search parses the text again on every call.
    return lib.TreeInterpreter ? (o: unknown) => lib.TreeInterpreter.search(ast, o) : (o: unknown) => lib.search(o, text);
  },
});

const languages: Language[] = [
  jmes('jmespath', 'jmespath'),
  jmes('@jmespath-community/jmespath', '@jmespath-community/jmespath'),
  {
    name: 'jsonata',
    pkg: 'jsonata',
    queries: [
      'InputScannerReportingPriorities[Priority = 1 and StatusCode = 4]',
      '$count(InputScannerReportingPriorities[Priority > 0]) < 8',
      '$contains(CommonName, "Door 99")',
    ],
    broken: ['InputScannerReportingPriorities[Priority = 1', 'CommonName = ', '$contains(CommonName "x")'],
    compile: (lib, text) => {
      const e = lib(text);
      return (o: unknown) => e.evaluate(o);
    },
  },
];

const now = () => process.hrtime.bigint();
const cpu = () => process.cpuUsage();
const cpuMs = (c: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000;
};

async function main() {
  let t = now();
  const objects = scanners(count);
  console.log(`${count.toLocaleString('en')} input scanners made in ${(Number(now() - t) / 1e6).toFixed(0)} ms`);
  for (const lang of languages) {
    let lib: any;
    try {
      lib = requireFrom(lang.pkg);
    } catch {
      console.log(`${lang.name}: not found under ${from}, skipped`);
      continue;
    }
    const main = requireFrom.resolve(lang.pkg);
    const version = (
      JSON.parse(fs.readFileSync(path.join(main.slice(0, main.lastIndexOf(`node_modules${path.sep}`) + 13), lang.pkg, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    lib = lib.default && !lib.compile && typeof lib !== 'function' ? lib.default : lib;
    console.log(`\n${lang.name} ${version}`);
    for (const [i, text] of lang.queries.entries()) {
      t = now();
      const run = lang.compile(lib, text);
      const compileUs = Number(now() - t) / 1e3;
      // A promise (JSONata's evaluate) is awaited; a plain answer is not, so the sync libraries pay no microtask.
      const answer = async (o: unknown) => {
        const v = run(o);
        return v instanceof Promise ? await v : v;
      };
      const sync = !(run(objects[0]) instanceof Promise);
      for (let w = 0; w < 2000; w++) await answer(objects[w]); // warm-up
      const c = cpu();
      t = now();
      let matched = 0;
      if (sync)
        for (const o of objects) {
          if (truthy(run(o))) matched++;
        }
      else for (const o of objects) if (truthy(await answer(o))) matched++;
      const wall = Number(now() - t) / 1e6;
      console.log(
        `  ${questions[i]}: ${matched} matches, ${wall.toFixed(0)} ms wall, ${cpuMs(c).toFixed(0)} ms CPU (${((wall * 1000) / count).toFixed(2)} µs/object), ` +
          `compiled in ${compileUs.toFixed(0)} µs`,
      );
    }
    for (const text of lang.broken) {
      try {
        lang.compile(lib, text);
        console.log(`  broken ${JSON.stringify(text)}: accepted`);
      } catch (e) {
        const err = e as { message: string; position?: number };
        console.log(`  broken ${JSON.stringify(text)}: "${err.message}"${err.position === undefined ? ', no position' : `, position ${err.position}`}`);
      }
    }
    const out = await build({
      stdin: { contents: `export * from ${JSON.stringify(lang.pkg)};`, resolveDir: from },
      bundle: true,
      minify: true,
      platform: 'node',
      format: 'cjs',
      write: false,
      logLevel: 'silent',
    });
    console.log(`  bundle: ${(out.outputFiles[0].contents.length / 1024).toFixed(1)} KB minified`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
