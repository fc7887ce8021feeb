/**
 * Client and sandbox over a real socket: paged listing at two page sizes,
 * GET+PUT round trips, and schema validation throughput. Prints numbers and
 * ratios; asserts nothing.
 *   node --import tsx bench/client.bench.ts
 */
import { startSandbox } from '../src/sandbox/server';
import { createHttp } from '../src/api/http';
import { OmsClient } from '../src/api/client';
import { kind } from '../src/model/kinds';
import { newObject } from '../src/model/templates';
import { validate } from '../src/validation/validator';
import { masker } from '../src/api/secrets';
import type { InputScannerInfo } from '../src/model/types';

const ms = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e6;

async function main() {
  const sb = await startSandbox({ port: 0, seed: 'demo' });
  const client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
  const people = kind('person');
  const folders = await client.folders(sb.instanceKey);
  const big = folders.items.find((f) => f.CommonName === 'Head Office') ?? folders.items[0];

  const listAt = async (pageSize: number, rounds = 20) => {
    let n = 0;
    const t = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) n = (await client.listAll(people, big.Key!, pageSize)).length;
    return { n, each: ms(t) / rounds };
  };
  await listAt(100, 3); // warm-up
  const p100 = await listAt(100);
  const p1000 = await listAt(1000);
  console.log(
    `list ${p100.n} people: pageSize 100 ${p100.each.toFixed(1)} ms, pageSize 1000 ${p1000.each.toFixed(1)} ms (ratio ${(p100.each / p1000.each).toFixed(2)}x)`,
  );

  const scanner = kind('inputScanner');
  const created = await client.create<InputScannerInfo>(scanner, sb.instanceKey, newObject(scanner, 'Bench scanner') as InputScannerInfo);
  const rounds = 300;
  let t = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) {
    const current = await client.get<InputScannerInfo>(scanner, sb.instanceKey, created.Key!);
    current.InputScannerReportingPriorities[0].Priority = i % 5;
    await client.update(scanner, current);
  }
  const saveMs = ms(t) / rounds;
  console.log(`save round trip (GET + PUT, memory store): ${saveMs.toFixed(2)} ms, ${(1000 / saveMs).toFixed(0)} saves/s`);

  const sample = await client.get(scanner, sb.instanceKey, created.Key!);
  t = process.hrtime.bigint();
  const n = 20_000;
  for (let i = 0; i < n; i++) validate(scanner.schema, sample);
  const validateUs = (ms(t) * 1000) / n;
  console.log(`schema validation of one input scanner: ${validateUs.toFixed(1)} µs (${(1e6 / validateUs).toFixed(0)}/s)`);
  // Every request's logged path is masked (api/secrets.ts): its cost beside the save round trip above.
  const mask = masker([sb.token]);
  const path = `/api/f/${sb.instanceKey}/inputscanners/${created.Key}?page=0&pageSize=100`;
  const message = `The ${'input scanner is invalid: a tag must be lower case. '.repeat(5)} (sent with Bearer ${sb.token.toUpperCase()})`;
  t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) mask(path);
  const pathUs = (ms(t) * 1000) / n;
  t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) mask(message);
  const messageUs = (ms(t) * 1000) / n;
  console.log(
    `token masking: ${pathUs.toFixed(1)} µs per logged path, ${messageUs.toFixed(1)} µs per 300-character error message; ` +
      `${((pathUs / 1000 / saveMs) * 100).toFixed(2)}% of a save round trip`,
  );
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  await sb.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
