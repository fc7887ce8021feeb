/** Live reads against a real sandbox over a real socket: what a poll sends and what it reports. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHttp, RequestLog } from '../../../src/api/http';
import { OmsClient, Reread } from '../../../src/api/client';
import { kind } from '../../../src/model/kinds';
import { LiveReads, PollSource, Watched } from '../../../src/live/liveReads';
import { Poller } from '../../../src/live/poller';
import { withSandbox, Api, sample } from '../sandbox/harness';

const scanners = kind('inputScanner');
const people = kind('person');

function clientOf(api: Api, logs: RequestLog[]): OmsClient {
  return new OmsClient(createHttp({ baseUrl: api.sb.url, token: () => api.sb.token, backoffMs: 10, log: (e) => logs.push(e) }));
}

/** A service that gives no ETags: the same sandbox, read without If-None-Match and without the tags. */
function withoutEtags(client: OmsClient): PollSource {
  const untagged = <T>(r: Reread<T>): Reread<T> => {
    if (r.unchanged) throw new Error('304 to a read without If-None-Match');
    return { unchanged: false, value: r.value };
  };
  return {
    listAgain: async (k, f, p, s) => untagged(await client.listAgain(k, f, p, s)),
    getAgain: async (k, f, key) => untagged(await client.getAgain(k, f, key)),
  };
}

async function until(probe: () => boolean, what: string, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !probe();) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function setUp(api: Api) {
  const head = (await api.folder('Head Office')).Key;
  const warehouse = (await api.folder('Warehouse')).Key;
  const listed = await api.listAll(warehouse, 'inputscanners');
  const watched: Watched = {
    // Head Office's people in 3 pages of 100 (260 of them), Warehouse's scanners after Load all.
    groups: [
      { kind: people, folderKey: head, pageSize: 100, pages: 3, all: false },
      { kind: scanners, folderKey: warehouse, pageSize: 100, pages: 1, all: true },
    ],
    // One open scanner the page covers, one person of a page not shown (read by key).
    objects: [{ kind: scanners, folderKey: warehouse, key: listed[0].Key! }],
  };
  return { head, warehouse, listed, watched };
}

test('a second poll of unchanged pages costs one 304 per page and none for a covered document', async () => {
  await withSandbox({}, async (api) => {
    const logs: RequestLog[] = [];
    const reads = new LiveReads(clientOf(api, logs));
    const { watched, listed } = await setUp(api);
    const first = await reads.poll(watched);
    assert.equal(first.requests, 4);
    assert.equal(first.groups.length, 2);
    assert.equal(first.objects[0].object?.Key, listed[0].Key);
    logs.length = 0;
    const second = await reads.poll(watched);
    assert.deepEqual(second.groups, []);
    assert.equal(second.objects[0].object?.ConcurrencyVersion, listed[0].ConcurrencyVersion);
    assert.deepEqual(
      logs.map((l) => l.status),
      [304, 304, 304, 304],
    );
    assert.ok(
      logs.every((l) => l.path.includes('?page=')),
      'no GET of the covered scanner',
    );
  });
});

test("a rename, a creation and a deletion on the server show up in the next poll, with the open object's new version", async () => {
  for (const etags of [true, false]) {
    await withSandbox({}, async (api) => {
      const logs: RequestLog[] = [];
      const client = clientOf(api, logs);
      const reads = new LiveReads(etags ? client : withoutEtags(client));
      const { watched, warehouse, listed } = await setUp(api);
      await reads.poll(watched);
      const [renamed, deleted] = listed;
      assert.equal((await api.put(renamed.Href!, { ...renamed, CommonName: 'Renamed over REST' })).status, 204);
      assert.equal((await api.delete(deleted.Href!)).status, 204);
      const created = await api.post(`/api/f/${warehouse}/inputscanners`, sample('inputScanner', 'Created over REST'));
      assert.equal(created.status, 201);
      logs.length = 0;
      const result = await reads.poll(watched);
      assert.equal(result.groups.length, 1, `etags: ${etags}`);
      const names = result.groups[0].items.map((o) => o.CommonName);
      assert.ok(names.includes('Renamed over REST') && names.includes('Created over REST') && !names.includes(deleted.CommonName), names.join());
      assert.equal(result.groups[0].complete, true);
      assert.equal(result.objects[0].object?.ConcurrencyVersion, (renamed.ConcurrencyVersion ?? 0) + 1);
      // People unchanged: 304s with ETags; without them the same pages come back whole (and are not reported).
      assert.deepEqual(
        logs.filter((l) => l.path.includes('/people')).map((l) => l.status),
        etags ? [304, 304, 304] : [200, 200, 200],
      );
      assert.deepEqual(
        logs.filter((l) => l.path.includes('/inputscanners')).map((l) => l.status),
        [200],
      );
    });
  }
});

test('an open object no page covers is read by its key; 404 reports it gone', async () => {
  await withSandbox({}, async (api) => {
    const logs: RequestLog[] = [];
    const reads = new LiveReads(clientOf(api, logs));
    const head = (await api.folder('Head Office')).Key;
    const person = (await api.listAll(head, 'people'))[250];
    const watched: Watched = { groups: [], objects: [{ kind: people, folderKey: head, key: person.Key! }] };
    assert.equal((await reads.poll(watched)).objects[0].object?.Key, person.Key);
    assert.equal((await reads.poll(watched)).objects[0].object?.Key, person.Key);
    assert.deepEqual(
      logs.map((l) => l.status),
      [200, 304],
    );
    await api.delete(person.Href!);
    assert.equal((await reads.poll(watched)).objects[0].object, undefined);
  });
});

test('the poller: nothing while it cannot read, Retry-After slows it, a failure is reported once', async () => {
  await withSandbox({}, async (api) => {
    const logs: RequestLog[] = [];
    const { watched, warehouse } = await setUp(api);
    let readable = false;
    const failures: unknown[] = [];
    let results = 0;
    let recovered = 0;
    const poller = new Poller({
      source: clientOf(api, logs),
      watched: () => watched,
      intervalMs: () => 50,
      canRead: () => Promise.resolve(readable),
      onResult: () => results++,
      onFailure: (e) => failures.push(e),
      onRecovered: () => recovered++,
    });
    try {
      poller.wake();
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(logs.length, 0, 'no request while it cannot read');
      readable = true;
      poller.wake();
      await until(() => results >= 3, '3 polls at 50 ms');
      // The warehouse's scanners answer 503 with Retry-After: 1 s three times.
      await fetch(`${api.sb.url}/sandbox/faults`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${api.sb.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ path: `/api/f/${warehouse}/inputscanners`, status: 503, count: 3, retryAfter: 1 }),
      });
      const refused = () => logs.filter((l) => l.status === 503).length;
      await until(() => refused() === 1, 'the first 503');
      await new Promise((r) => setTimeout(r, 1500));
      assert.ok(refused() <= 2, `${refused()} 503s in 1.5 s after the first: slowed to one a second`);
      assert.equal(failures.length, 1, 'reported once');
      readable = false;
      await new Promise((r) => setTimeout(r, 2500));
      const count = logs.length;
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(logs.length, count, 'nothing while it cannot read');
      readable = true;
      poller.wake();
      await until(() => recovered === 1, 'the service answering again');
      assert.equal(failures.length, 1);
    } finally {
      poller.dispose();
    }
  });
});

test("a poll refused with 429 waits as long as Retry-After says, beyond the client's usual cap", async () => {
  await withSandbox({}, async (api) => {
    const logs: RequestLog[] = [];
    const { watched, warehouse } = await setUp(api);
    await fetch(`${api.sb.url}/sandbox/faults`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${api.sb.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: `/api/f/${warehouse}/inputscanners`, status: 429, count: 1, retryAfter: 120 }),
    });
    const error = await new LiveReads(clientOf(api, logs)).poll(watched).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.equal((error as { retryAfterMs?: number } | undefined)?.retryAfterMs, 120_000);
    assert.equal(logs.filter((l) => l.status === 429).length, 1, 'sent once, not again after the wait');
  });
});

test('after Load all, a full last page is followed by a read of the next: an object created beyond it shows', async () => {
  await withSandbox({}, async (api) => {
    const logs: RequestLog[] = [];
    const reads = new LiveReads(clientOf(api, logs));
    const warehouse = (await api.folder('Warehouse')).Key;
    const count = (await api.listAll(warehouse, 'inputscanners')).length;
    const watched: Watched = { groups: [{ kind: scanners, folderKey: warehouse, pageSize: count, pages: 1, all: true }], objects: [] };
    await reads.poll(watched);
    assert.equal(logs.length, 2, 'the full page and the empty one after it');
    await api.post(`/api/f/${warehouse}/inputscanners`, sample('inputScanner', 'Beyond the last page'));
    const result = await reads.poll(watched);
    assert.equal(result.groups[0].items.length, count + 1);
    assert.equal(result.groups[0].items[count].CommonName, 'Beyond the last page');
    assert.equal(result.groups[0].complete, true);
  });
});
