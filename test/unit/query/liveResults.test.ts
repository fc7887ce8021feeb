/**
 * Query results following the server, against a real sandbox: the lists a run read are polled as the live feed
 * polls them (LiveReads, If-None-Match), and each changed list's objects are matched again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { kind } from '../../../src/model/kinds';
import type { BaseInfo } from '../../../src/model/types';
import { LiveReads } from '../../../src/live/liveReads';
import { compileQuery } from '../../../src/query/compile';
import { LiveResults, ResultChanges } from '../../../src/query/liveResults';
import { runQuery } from '../../../src/query/run';
import { withSandbox, Api, sample } from '../sandbox/harness';

const scanners = kind('inputScanner');

async function created(api: Api, folderKey: string, collection: string, body: BaseInfo): Promise<BaseInfo & { Key: string }> {
  const res = await api.post(`/api/f/${folderKey}/${collection}`, body);
  assert.equal(res.status, 201, res.text);
  return res.body as BaseInfo & { Key: string };
}

async function renamed(api: Api, folderKey: string, key: string, name: string): Promise<void> {
  const now = (await api.get(`/api/f/${folderKey}/inputscanners/${key}`)).body as BaseInfo;
  const res = await api.put(`/api/f/${folderKey}/inputscanners/${key}`, { ...now, CommonName: name });
  assert.ok(res.status === 200 || res.status === 204, res.text);
}

const names = (c: ResultChanges) => ({
  added: c.added.map((m) => m.object.CommonName).sort(),
  changed: c.changed.map((m) => m.object.CommonName).sort(),
  removed: c.removed.map((m) => m.object.CommonName).sort(),
});

test('results follow the server: an object that starts matching comes, a changed one is changed, one that stops matching or is gone leaves', async () => {
  await withSandbox({}, async (api) => {
    const client = new OmsClient(createHttp({ baseUrl: api.sb.url, token: () => api.sb.token, backoffMs: 10 }));
    const head = (await api.folder('Head Office')).Key;
    const warehouse = (await api.folder('Warehouse')).Key;
    const a = await created(api, warehouse, 'inputscanners', sample('inputScanner', 'Probe A'));
    const c = compileQuery("contains(CommonName, 'Probe')", [scanners]);
    if ('error' in c) throw new Error(c.error.message);

    const live = new LiveResults(c.query, [scanners]);
    const found: string[] = [];
    await runQuery(
      client,
      c.query,
      { folderKey: api.instanceKey, subfolders: true, kinds: [scanners] },
      {
        onFolder: (f) => live.addFolder(f),
        onMatches: (ms) => ms.forEach((m) => (live.add(m), found.push(String(m.object.CommonName)))),
      },
    );
    assert.deepEqual(found, ['Probe A']);
    const reads = new LiveReads(client);
    const poll = async () => names(live.apply((await reads.poll({ groups: live.watched(), objects: [] })).groups));

    // The first poll reads every list the run read: nothing moved since.
    assert.deepEqual(await poll(), { added: [], changed: [], removed: [] });

    const b = await created(api, head, 'inputscanners', sample('inputScanner', 'Probe B'));
    await renamed(api, warehouse, a.Key, 'Probe A2');
    await created(api, head, 'inputscanners', sample('inputScanner', 'Not a match'));
    assert.deepEqual(await poll(), { added: ['Probe B'], changed: ['Probe A2'], removed: [] });
    assert.deepEqual(await poll(), { added: [], changed: [], removed: [] }, 'an unchanged server: nothing comes or goes');

    await renamed(api, head, b.Key, 'Renamed away');
    assert.equal((await api.delete(`/api/f/${warehouse}/inputscanners/${a.Key}`)).status, 204);
    assert.deepEqual(await poll(), { added: [], changed: [], removed: ['Probe A2', 'Probe B'] });
  });
});
