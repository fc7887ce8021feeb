/**
 * Go to Object over 10,000 objects spread over 40 folders (two levels) in a
 * sandbox on a real socket: time to the first match and to the whole walk,
 * against the limits (300 ms, a few seconds: 5 s here) and against
 * the tree's own way (one folder and kind after the other, 100 a page).
 * Prints numbers; asserts nothing.
 *   node --import tsx bench/search.bench.ts
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
import { kind, objectKinds } from '../src/model/kinds';
import { newObject } from '../src/model/templates';
import { sourceOf } from '../src/search/indexes';
import { ObjectIndex } from '../src/search/objectIndex';
import { matches, queryWords } from '../src/search/match';

const total = 10_000;
const words = ['Door', 'Gate', 'Lobby', 'Dock', 'Vault', 'Roof', 'Stair', 'Garage'];

function buildStore(): Store {
  let n = 0;
  const newKey = () => (0x65a1f000 + n++).toString(16).padStart(24, '0');
  const store = seedStore('empty', 'Bench Instance');
  const ctx = { store, newKey };
  const folders: string[] = [];
  for (let i = 0; i < 8; i++) {
    const top = createObject(ctx, kind('folder'), store.instanceKey, newObject(kind('folder'), `Region ${i + 1}`)).Key!;
    folders.push(top);
    for (let j = 0; j < 4; j++) folders.push(createObject(ctx, kind('folder'), top, newObject(kind('folder'), `Site ${i + 1}.${j + 1}`)).Key!);
  }
  const kinds = objectKinds.filter((k) => k.operations.includes('list'));
  for (let i = 0; i < total - folders.length; i++) {
    const k = kinds[i % kinds.length];
    const folder = folders[(i * 7) % folders.length];
    createObject(ctx, k, folder, newObject(k, `${words[i % words.length]} ${k.label} ${i}`));
  }
  return store;
}

const ms = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e6;

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oms-search-bench-'));
  const dataFile = path.join(dir, 'data.json');
  const store = buildStore();
  // Opening a new data file with a store writes its snapshot.
  await (await Store.open(dataFile, () => store)).close();
  const sb = await startSandbox({ port: 0, dataFile });
  const client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
  const connection = { client, rootFolderKey: () => Promise.resolve(sb.instanceKey) };
  const query = queryWords('vault 77');

  const measure = async (options: { pageSize: number; concurrency: number }) => {
    const index = new ObjectIndex(sourceOf(connection), options);
    let first: number | undefined;
    const t = process.hrtime.bigint();
    index.onEntries((added) => {
      if (first === undefined && added.some((e) => matches(e, query))) first = ms(t);
    });
    await index.ensure();
    const all = ms(t);
    const found = [...index.entries].filter((e) => matches(e, query)).length;
    return { first: first ?? NaN, all, objects: index.progress.objects, found };
  };

  await measure({ pageSize: 500, concurrency: 4 }); // warm-up
  const ours = await measure({ pageSize: 500, concurrency: 4 });
  const tree = await measure({ pageSize: 100, concurrency: 1 });
  console.log(`search over ${ours.objects} objects in 41 folders, query "vault 77" (${ours.found} matches):`);
  console.log(
    `  first match ${ours.first.toFixed(0)} ms (limit 300 ms: ${(ours.first / 300).toFixed(2)}x of it), ` +
      `all ${ours.all.toFixed(0)} ms (limit 5000 ms: ${(ours.all / 5000).toFixed(2)}x)`,
  );
  console.log(
    `  the tree's way (one request at a time, 100 a page): first ${tree.first.toFixed(0)} ms, all ${tree.all.toFixed(0)} ms; ` +
      `ours is ${(tree.all / ours.all).toFixed(1)}x faster to finish`,
  );
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
  await sb.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
