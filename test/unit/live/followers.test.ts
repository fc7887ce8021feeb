/** What follows a live read without a request of its own: the tree's pager and Go to Object's index. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHttp, RequestLog } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { kind } from '../../../src/model/kinds';
import { LiveReads } from '../../../src/live/liveReads';
import { sourceOf } from '../../../src/search/indexes';
import { ObjectIndex } from '../../../src/search/objectIndex';
import { Pager } from '../../../src/tree/pager';
import { withSandbox, sample } from '../sandbox/harness';

test('a pager follows a read of its pages: Load all stays all, a partial load keeps its next page', async () => {
  const all = new Pager((page) => Promise.resolve({ items: page === 0 ? [1, 2, 3] : [], next: page === 0 ? 1 : undefined }), 3);
  await all.loadAll();
  assert.equal(all.pages, 1);
  assert.equal(all.follow([1, 3, 4, 5], true, 2), true);
  assert.deepEqual(all.items, [1, 3, 4, 5]);
  assert.equal(all.hasMore, false);

  const partial = new Pager((page) => Promise.resolve({ items: [page * 2, page * 2 + 1], next: page + 1 }), 2);
  await partial.loadMore();
  assert.equal(partial.follow([9, 1], false, 1), true);
  assert.equal(partial.hasMore, true);
  assert.equal(partial.pages, 1);
  await partial.loadMore();
  assert.deepEqual(partial.items, [9, 1, 2, 3]);

  const loading = new Pager(async () => new Promise<{ items: number[] }>((r) => setTimeout(() => r({ items: [7] }), 20)), 2);
  const first = loading.loadMore();
  assert.equal(loading.follow([1], true, 1), false, 'a load under way wins');
  await first;
  assert.deepEqual(loading.items, [7]);
});

test("Go to Object's index follows a live read of a group: renamed, new and deleted objects, without a request of its own", async () => {
  await withSandbox({}, async (api) => {
    const logs: RequestLog[] = [];
    const client = new OmsClient(createHttp({ baseUrl: api.sb.url, token: () => api.sb.token, log: (e) => logs.push(e) }));
    const index = new ObjectIndex(sourceOf({ client, rootFolderKey: () => Promise.resolve(api.instanceKey) }));
    await index.ensure();
    const warehouse = (await api.folder('Warehouse')).Key;
    const [renamed, deleted] = await api.listAll(warehouse, 'inputscanners');
    await api.put(renamed.Href!, { ...renamed, CommonName: 'Renamed live' });
    await api.delete(deleted.Href!);
    const created = (await api.post(`/api/f/${warehouse}/inputscanners`, sample('inputScanner', 'Created live'))).body;

    const reads = new LiveReads(client);
    const group = { kind: kind('inputScanner'), folderKey: warehouse, pageSize: 100, pages: 1, all: true };
    const result = await reads.poll({ groups: [group], objects: [] });
    logs.length = 0;
    for (const g of result.groups) index.observed(g.group.folderKey, g.group.kind.id, g.items, g.complete);
    assert.equal(logs.length, 0);
    assert.equal(index.entry(renamed.Key!)?.name, 'Renamed live');
    assert.equal(index.entry(created.Key)?.name, 'Created live');
    assert.deepEqual(
      index.entry(created.Key)?.folders.map((f) => f.name),
      ['Demo Instance', 'Warehouse'],
    );
    assert.equal(index.entry(deleted.Key!), undefined);
  });
});
