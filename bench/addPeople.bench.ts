/**
 * Batch-add benchmark: a 10,000-row CSV is generated, parsed and validated
 * (src/people), then sent with OmsClient.addPeople against a sandbox started
 * in this process (port 0, empty seed, memory only), with batches of 100 at
 * concurrency 1, 4 (the default) and 8. Each level gets a fresh sandbox.
 *
 *   node --import tsx bench/addPeople.bench.ts [rows]
 *
 * The sandbox shares this process's event loop, so its CPU work (schema checks
 * of every person) competes with the client: the concurrency ratios show
 * request overlap on one core, not what a remote service would allow.
 */
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { OmsClient } from '../src/api/client';
import { createHttp } from '../src/api/http';
import { kind } from '../src/model/kinds';
import { validRows } from '../src/people';
import { readPeopleCsv } from '../src/people/csv';
import { startSandbox } from '../src/sandbox/server';

const rows = Number(process.argv[2] ?? 10_000);
const batchSize = 100;
const levels = [1, 4, 8];

function csvOf(n: number): string {
  const lines = ['First Name,Last Name,E-mail,Phone,Street,City,Province,Country,Postal Code,Tags'];
  const cities = ['Ottawa,ON', 'Toronto,ON', 'Montréal,QC', 'Halifax,NS', 'Calgary,AB'];
  for (let i = 0; i < n; i++) {
    const phone = `+1 613 555 ${String(i % 10000).padStart(4, '0')}`;
    const postalCode = `K1P ${i % 10}A${i % 7}`;
    lines.push(
      `Given${i},"Surname, ${i}",person${i}@example.com,${phone},${i} Main Street,${cities[i % cities.length]},Canada,${postalCode},bench;batch-${i % 10}`,
    );
  }
  return lines.join('\r\n') + '\r\n';
}

const peakRssMb = () => process.resourceUsage().maxRSS / 1024;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'oms-bench-'));
  try {
    const file = join(dir, 'people.csv');
    writeFileSync(file, csvOf(rows));

    const t0 = performance.now();
    const parsed = readPeopleCsv(readFileSync(file));
    const people = validRows(parsed).map((r) => r.person);
    const parseMs = performance.now() - t0;
    if (people.length !== rows) throw new Error(`expected ${rows} valid rows, got ${people.length}`);

    console.log(`rows: ${rows} (${(readFileSync(file).byteLength / 1024 / 1024).toFixed(2)} MB CSV)`);
    console.log(`parse+validate: ${parseMs.toFixed(0)} ms (${Math.round(rows / (parseMs / 1000))} rows/s)`);
    console.log(`batch size: ${batchSize}, batches: ${Math.ceil(rows / batchSize)}`);
    console.log('');
    console.log('concurrency  send ms  people/s  batches  failed  peak RSS MB');

    const results: Array<{ concurrency: number; ms: number }> = [];
    for (const concurrency of levels) {
      const sandbox = await startSandbox({ seed: 'empty' });
      try {
        const client = new OmsClient(createHttp({ baseUrl: sandbox.url, token: () => sandbox.token, timeoutMs: 120_000 }));
        const t1 = performance.now();
        const report = await client.addPeople(sandbox.instanceKey, people, { batchSize, concurrency });
        const ms = performance.now() - t1;
        if (report.failed.length || report.added !== rows)
          throw new Error(`concurrency ${concurrency}: ${report.failed.length} failed batches, ${report.added} added`);
        const stored = (await client.listAll(kind('person'), sandbox.instanceKey)).length;
        if (stored !== rows) throw new Error(`concurrency ${concurrency}: ${stored} stored, expected ${rows}`);
        results.push({ concurrency, ms });
        console.log(
          `${String(concurrency).padStart(11)}  ${ms.toFixed(0).padStart(7)}  ${Math.round(rows / (ms / 1000))
            .toString()
            .padStart(8)}  ${String(report.outcomes.length).padStart(7)}  ${String(report.failed.length).padStart(6)}  ${peakRssMb().toFixed(0).padStart(11)}`,
        );
      } finally {
        await sandbox.close();
      }
    }
    console.log('');
    const base = results.find((r) => r.concurrency === 1)!;
    for (const r of results.filter((x) => x !== base)) {
      console.log(`speed-up concurrency ${r.concurrency} vs 1: ${(base.ms / r.ms).toFixed(2)}x`);
    }
    const c4 = results.find((r) => r.concurrency === 4),
      c8 = results.find((r) => r.concurrency === 8);
    if (c4 && c8) console.log(`speed-up concurrency 8 vs 4: ${(c4.ms / c8.ms).toFixed(2)}x`);

    // The same send with the sandbox's durable data file (fsync before each answer), as the tests run it.
    const durable = await startSandbox({ seed: 'empty', dataFile: join(dir, 'data.json') });
    try {
      const client = new OmsClient(createHttp({ baseUrl: durable.url, token: () => durable.token, timeoutMs: 120_000 }));
      const t2 = performance.now();
      const report = await client.addPeople(durable.instanceKey, people, { batchSize, concurrency: 4 });
      const ms = performance.now() - t2;
      if (report.added !== rows) throw new Error(`durable: ${report.added} added`);
      const c4ms = results.find((r) => r.concurrency === 4)?.ms;
      const againstMemory = c4ms ? `, ${(ms / c4ms).toFixed(1)}x the in-memory time` : '';
      console.log(`durable data file, concurrency 4: ${ms.toFixed(0)} ms (${Math.round(rows / (ms / 1000))} people/s)${againstMemory}`);
    } finally {
      await durable.close();
    }
    console.log(`peak RSS: ${peakRssMb().toFixed(0)} MB (client and sandbox in one process)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
