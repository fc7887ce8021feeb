/** The background index against a real sandbox: every object found, pages not fetched twice, stop and resume. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, Sandbox } from '../../../src/sandbox/server';
import { createHttp, RequestLog } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { sourceOf } from '../../../src/search/indexes';
import { ObjectIndex, IndexEntry } from '../../../src/search/objectIndex';
import { folderPathText, matches, queryWords, rank } from '../../../src/search/match';
import { kind, objectKinds } from '../../../src/model/kinds';
import type { PersonInfo } from '../../../src/model/types';
import { makeType } from '../../../src/model/typeName';

let sb: Sandbox;
let client: OmsClient;
const requests: RequestLog[] = [];

before(async () => {
  sb = await startSandbox({ port: 0, seed: 'demo' });
  client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token, log: (e) => requests.push(e) }));
});
after(() => sb.close());

const connection = () => ({ client, rootFolderKey: () => Promise.resolve(sb.instanceKey) });

async function everything(): Promise<Map<string, string>> {
  // What a user could find by browsing: every folder and every object, by key.
  const all = new Map<string, string>();
  const walk = async (folderKey: string) => {
    for (const f of await client.listAll(kind('folder'), folderKey)) {
      all.set(f.Key!, f.CommonName!);
      await walk(f.Key!);
    }
    for (const k of objectKinds) {
      for (const o of await client.listAll(k, folderKey)) all.set(o.Key!, o.CommonName!);
    }
  };
  await walk(sb.instanceKey);
  return all;
}

test('the index finds every folder and object of the connection, with its folder path', async () => {
  const index = new ObjectIndex(sourceOf(connection()), { pageSize: 50 });
  const seen: IndexEntry[] = [];
  index.onEntries((added) => seen.push(...added));
  await index.ensure();
  const expected = await everything();
  assert.equal(index.progress.objects, expected.size);
  assert.equal(seen.length, expected.size, 'each object announced once');
  for (const [key, name] of expected) assert.equal(index.entry(key)?.name, name);
  const scanner = [...index.entries].find((e) => e.kind.id === 'inputScanner' && e.name.startsWith('Floor 1'))!;
  assert.equal(folderPathText(scanner), 'Head Office › Floor 1');
  assert.equal(scanner.folders[0].name, 'Demo Instance');
  assert.ok(index.progress.done);
});

test('a second search within the fresh time fetches nothing; after it, the walk is repeated', async () => {
  let now = 0;
  const index = new ObjectIndex(sourceOf(connection()), { freshMs: 60_000, now: () => now });
  await index.ensure();
  const before = requests.length;
  await index.ensure();
  assert.equal(requests.length, before, 'no request within the fresh time');
  now = 61_000;
  await index.ensure();
  assert.ok(requests.length > before, 'walked again once stale');
});

test('stopping keeps what was fetched; the next walk resumes without fetching a page twice', async () => {
  const total = (await everything()).size;
  const index = new ObjectIndex(sourceOf(connection()), { pageSize: 20, concurrency: 1 });
  const start = requests.length;
  const first = new Promise<void>((resolve) => {
    const off = index.onEntries(() => {
      if (index.progress.objects >= 40) {
        off();
        index.stop();
        resolve();
      }
    });
  });
  const walk = index.ensure();
  await first;
  await walk;
  const partial = index.progress.objects;
  assert.ok(!index.progress.done && partial > 0 && partial < total, `stopped part-way (${partial} of ${total})`);
  await index.ensure();
  assert.ok(index.progress.done);
  assert.equal(index.progress.objects, total);
  const lists = requests
    .slice(start)
    .filter((r) => r.path.includes('page='))
    .map((r) => r.path);
  assert.equal(new Set(lists).size, lists.length, 'no page fetched twice');
});

test('matching: every word of the query, any case; recently opened first, then names starting with the query', () => {
  const e = (key: string, name: string) =>
    ({ key, name, kind: { id: 'engageSite' }, folderKey: 'f', folders: [{ key: 'f', name: 'Root' }] }) as unknown as IndexEntry;
  const list = [e('1', 'Warehouse Door 2'), e('2', 'Door Contact'), e('3', 'Back door'), e('4', 'Window')];
  const words = queryWords('  DOOR ');
  const found = list.filter((x) => matches(x, words));
  assert.deepEqual(
    found.map((x) => x.key),
    ['1', '2', '3'],
  );
  assert.deepEqual(
    rank(found, words, ['1']).map((x) => x.name),
    ['Warehouse Door 2', 'Door Contact', 'Back door'],
  );
  assert.ok(matches(e('5', 'Floor 1 Door Contact'), queryWords('contact floor')));
});

test('a change noted after the fresh time does not put off the full refresh: an object created elsewhere is found', async () => {
  let now = 0;
  const index = new ObjectIndex(sourceOf(connection()), { freshMs: 60_000, now: () => now });
  await index.ensure();
  const person = await client.create<PersonInfo>(kind('person'), sb.instanceKey, {
    CommonName: 'Elsewhere Created',
    GivenName: 'Elsewhere',
    Surname: 'Created',
    $type: makeType('PersonInfo'),
  });
  const key = String(person.Key);
  now = 61_000;
  // A save through the extension, more than the fresh time after the walk.
  const [scanner] = [...index.entries].filter((e) => e.kind.id === 'inputScanner');
  await index.changed(scanner.folderKey, 'inputScanner', scanner.key);
  await index.ensure();
  assert.equal(index.entry(key)?.name, 'Elsewhere Created', 'the refresh walked everything');
  assert.ok(index.progress.done);
  await client.delete(kind('person'), sb.instanceKey, key);
});

test('an object created, renamed or deleted through the extension is found at once, by one read of it', async () => {
  const index = new ObjectIndex(sourceOf(connection()));
  await index.ensure();
  const count = index.progress.objects;
  const person = await client.create<PersonInfo>(kind('person'), sb.instanceKey, {
    CommonName: 'Fresh Hire',
    GivenName: 'Fresh',
    Surname: 'Hire',
    $type: makeType('PersonInfo'),
  });
  const key = String(person.Key);
  const start = requests.length;
  await index.changed(sb.instanceKey, 'person', key);
  assert.equal(index.entry(key)?.name, 'Fresh Hire');
  assert.deepEqual(
    requests.slice(start).map((r) => r.method + ' ' + r.path.split('?')[0]),
    [`GET /api/f/${sb.instanceKey}/people/${person.Key}`],
  );
  await index.ensure();
  assert.equal(requests.length, start + 1, 'no walk after it: the index is fresh');

  const now = await client.get(kind('person'), sb.instanceKey, key);
  await client.update(kind('person'), { ...now, CommonName: 'Fresh Hire Renamed' });
  await index.changed(sb.instanceKey, 'person', key);
  assert.equal(index.entry(key)?.name, 'Fresh Hire Renamed');

  await client.delete(kind('person'), sb.instanceKey, key);
  await index.changed(sb.instanceKey, 'person', key);
  assert.equal(index.entry(key), undefined);
  assert.equal(index.progress.objects, count);
});

test('a collection changed as a whole (a batch add) is listed again at once', async () => {
  const index = new ObjectIndex(sourceOf(connection()));
  await index.ensure();
  const added = await client.addPeople(
    sb.instanceKey,
    [1, 2, 3].map((i) => ({ $type: makeType('PersonInfo'), CommonName: `Batch ${i} Person`, GivenName: `Batch ${i}`, Surname: 'Person' })),
  );
  assert.equal(added.added, 3);
  await index.changed(sb.instanceKey, 'person');
  const found = [...index.entries].filter((e) => matches(e, queryWords('batch person')));
  assert.equal(found.length, 3);
  assert.ok(index.progress.done);
});
