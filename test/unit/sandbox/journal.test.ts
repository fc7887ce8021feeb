import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { readStoreFiles } from '../../../src/sandbox/store/recovery';
import { withSandbox, sample } from './harness';

async function tempDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'oms-journal-'));
}

test('the journal is compacted into the data file while writes go on; a restart finds every change', async () => {
  const dir = await tempDir();
  const dataFile = path.join(dir, 'data.json');
  try {
    const expected = new Map<string, string>();
    await withSandbox({ seed: 'empty', dataFile, journal: { compactAtBytes: 20_000 } }, async (api) => {
      const base = `/api/f/${api.instanceKey}/inputscanners`;
      for (let round = 0; round < 10; round++) {
        const created = await Promise.all(Array.from({ length: 20 }, (_, i) => api.post(base, sample('inputScanner', `S ${round}-${i}`))));
        for (const c of created) {
          assert.equal(c.status, 201);
          const put = await api.put(c.body.Href, { ...c.body, CommonName: `${c.body.CommonName} v2` });
          assert.equal(put.status, 204);
          expected.set(c.body.Key, `${c.body.CommonName} v2`);
        }
      }
      const files = await readdir(dir);
      const journal = await stat(path.join(dir, 'data.json.journal'));
      const snapshot = await stat(dataFile);
      assert.ok(journal.size < snapshot.size + 100_000, `journal ${journal.size} B is compacted (data file ${snapshot.size} B); files ${files.join()}`);
      // What the files hold now, read as a restart would, before any close.
      const loaded = await readStoreFiles(dataFile);
      const names = new Map<string, string>();
      for (const r of loaded!.entries) if ('object' in r) names.set((r.object as { Key: string }).Key, (r.object as { CommonName: string }).CommonName);
      for (const c of loaded!.changes) if (c.op === 'put') names.set((c.object as { Key: string }).Key, (c.object as { CommonName: string }).CommonName);
      for (const [key, name] of expected) assert.equal(names.get(key), name);
    });
    await withSandbox({ dataFile }, async (api) => {
      const all = await api.listAll(api.instanceKey, 'inputscanners');
      assert.equal(all.length, expected.size);
      for (const s of all) assert.equal(s.CommonName, expected.get(s.Key as string));
    });
    assert.deepEqual((await readdir(dir)).sort(), ['data.json', 'data.json.journal']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('start-up removes temp files an interrupted write left, and reads data files of the first format', async () => {
  const dir = await tempDir();
  const dataFile = path.join(dir, 'data.json');
  try {
    const instanceKey = '65a1f000aaaaaaaaaaaaaaaa';
    const instance = {
      $type: 'Feenics.Keep.WebApi.Model.InstanceInfo, Feenics.Keep.WebApi.Model',
      Key: instanceKey,
      Href: `/api/f/${instanceKey}`,
      CommonName: 'Old',
      InFolderKey: instanceKey,
    };
    const site = {
      ...sample('engageSite', 'From version 1'),
      Key: '65a1f000bbbbbbbbbbbbbbbb',
      InFolderKey: instanceKey,
      Href: `/api/f/${instanceKey}/engagesites/65a1f000bbbbbbbbbbbbbbbb`,
    };
    await writeFile(
      dataFile,
      JSON.stringify({
        format: 'oms-sandbox',
        version: 1,
        instanceKey,
        objects: [
          { kind: 'instance', object: instance },
          { kind: 'engageSite', object: site },
        ],
        outbox: [{ kind: 'invite', at: 'then', folderKey: instanceKey, body: 'a@example.com' }],
      }),
    );
    for (const leftover of ['.data.json.1234.tmp', '.data.json.99.tmp', 'data.json.tmp']) await writeFile(path.join(dir, leftover), 'partial');
    await writeFile(path.join(dir, 'unrelated.tmp'), 'not ours');
    await withSandbox({ dataFile }, async (api) => {
      assert.equal(api.instanceKey, instanceKey);
      assert.equal((await api.get(site.Href)).body.CommonName, 'From version 1');
      assert.equal((await api.get('/sandbox/outbox')).body[0].body, 'a@example.com');
    });
    assert.deepEqual((await readdir(dir)).sort(), ['data.json', 'data.json.journal', 'unrelated.tmp']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
