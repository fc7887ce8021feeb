import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { start, withSandbox, sample, Api } from './harness';

async function race(api: Api, writers: number): Promise<void> {
  const site = (await api.post(`/api/f/${api.instanceKey}/engagesites`, sample('engageSite'))).body;
  const results = await Promise.all(Array.from({ length: writers }, (_, i) => api.put(site.Href, { ...site, SiteReference: `writer ${i}` })));
  const statuses = results.map((r) => r.status).sort();
  assert.deepEqual(statuses, [204, ...Array(writers - 1).fill(409)]);
  const winner = results.findIndex((r) => r.status === 204);
  const after = (await api.get(site.Href)).body;
  assert.equal(after.ConcurrencyVersion, 2);
  assert.equal(after.SiteReference, `writer ${winner}`, "the stored object is the winner's");
}

test('two concurrent PUTs with the same version: exactly one 204 and one 409', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    for (let i = 0; i < 20; i++) await race(api, 2);
  });
});

test('many concurrent PUTs with the same version, with a data file: exactly one wins', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'oms-sandbox-'));
  const api = await start({ seed: 'empty', dataFile: path.join(dir, 'data.json') });
  try {
    for (let i = 0; i < 5; i++) await race(api, 8);
  } finally {
    await api.sb.close();
    await rm(dir, { recursive: true, force: true });
  }
});
