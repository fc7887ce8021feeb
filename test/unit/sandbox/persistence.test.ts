import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startSandbox } from '../../../src/sandbox/server';
import { readStoreFiles } from '../../../src/sandbox/store/recovery';
import { start, person, sample, Api } from './harness';

async function tempDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'oms-sandbox-'));
}

test('with a data file, changes survive a restart and the seed is not applied twice', async () => {
  const dir = await tempDir();
  const dataFile = path.join(dir, 'nested', 'data.json');
  let api: Api | undefined;
  try {
    api = await start({ dataFile });
    const instanceKey = api.instanceKey;
    const header = JSON.parse((await readFile(dataFile, 'utf8')).split('\n')[0]);
    assert.equal(header.format, 'oms-sandbox');
    assert.equal(header.instanceKey, instanceKey);

    const base = `/api/f/${instanceKey}/engagesites`;
    const site = (await api.post(base, sample('engageSite', 'Persistent site'))).body;
    assert.equal((await api.put(site.Href, { ...site, SiteReference: 'kept' })).status, 204);
    assert.equal((await api.post(`${site.Href}/invite`, 'kept@example.com')).status, 204);
    assert.equal((await api.post(`${site.Href}/notes`, 'kept note')).status, 201);
    const office = await api.folder('Head Office');
    const people = `/api/f/${office.Key}/people`;
    const before = (await api.listAll(office.Key, 'people')).length;
    const doomed = (await api.get(`${people}?pageSize=1`)).body[0];
    assert.equal((await api.delete(doomed.Href)).status, 204);
    // One person with an object link of its own: its ObjectLinks are the instance's plus that one.
    const siteLink = {
      $type: 'Feenics.Keep.WebApi.Model.ObjectLinkItem, Feenics.Keep.WebApi.Model',
      Href: site.Href,
      LinkedObjectKey: site.Key,
      CommonName: 'Persistent site',
      Relation: 'Site',
    };
    assert.equal((await api.post(`${people}/complex`, [{ ...person('Linked', 'Person'), ObjectLinks: [siteLink] }, person('Per', 'Sistent')])).body, 2);
    // What a response confirms is already on disk (snapshot and journal), before any close.
    const written = await readStoreFiles(dataFile);
    assert.ok(written?.changes.some((c) => c.op === 'put' && (c.object as { SiteReference?: string }).SiteReference === 'kept'));
    // The server's own Links are not written, only marked (half of a person's bytes); a restart answers them again.
    // Nor the instance links every object shares (a third of the rest): only where an object has links of its own.
    const journal = await readFile(`${dataFile}.journal`, 'utf8');
    assert.ok(!journal.includes('"TakeOwnership"'), 'no server Links in the journal');
    assert.equal(journal.split('"InInstance"').length - 1, 1, 'instance links written only with the linked person');
    const added = (await api.listAll(office.Key, 'people')).slice(-2);
    const answered = {
      site: (await api.get(site.Href)).body,
      office: (await api.get(`/api/f/${office.Key}`)).body,
      instance: (await api.get(`/api/f/${instanceKey}`)).body,
      people: await Promise.all(added.map(async (p) => (await api!.get(p.Href!)).body as { Href: string; ObjectLinks: Array<{ Relation: string }> })),
    };
    assert.deepEqual(
      answered.people[0].ObjectLinks.map((l: { Relation: string }) => l.Relation),
      ['InInstance', 'InstanceScope', 'Site'],
    );
    assert.deepEqual(
      answered.people[1].ObjectLinks.map((l: { Relation: string }) => l.Relation),
      ['InInstance', 'InstanceScope'],
    );
    assert.equal(answered.site.Links.length, 8);
    assert.equal(answered.office.Links.length, 9, 'a folder has Import too');
    await api.sb.close();

    api = await start({ dataFile, seed: 'empty' });
    assert.equal(api.instanceKey, instanceKey);
    const again = (await api.get(site.Href)).body;
    assert.deepEqual(again, answered.site);
    assert.deepEqual(Object.keys(again), Object.keys(answered.site), 'fields in the same order');
    assert.deepEqual((await api.get(`/api/f/${office.Key}`)).body, answered.office);
    assert.deepEqual((await api.get(`/api/f/${instanceKey}`)).body, answered.instance);
    for (const p of answered.people) {
      const back: Record<string, unknown> = (await api.get(p.Href)).body;
      assert.deepEqual(back, p);
      assert.deepEqual(Object.keys(back), Object.keys(p), "a person's fields in the same order");
    }
    assert.equal(again.SiteReference, 'kept');
    assert.equal(again.ConcurrencyVersion, 2);
    assert.deepEqual(
      again.Notes.map((n: { NoteText: string }) => n.NoteText),
      ['kept note'],
    );
    assert.equal((await api.get('/sandbox/outbox')).body[0].body, 'kept@example.com');
    const after = await api.listAll(office.Key, 'people');
    assert.equal(after.length, before + 1, 'one deleted, two added, no reseeding');
    assert.ok(!after.some((p) => p.Key === doomed.Key));
    assert.equal(after[after.length - 1].Surname, 'Sistent');
    await api.sb.close();
    assert.deepEqual(
      (await readdir(path.dirname(dataFile))).filter((f) => f.endsWith('.tmp')),
      [],
      'no temp files left',
    );
  } finally {
    await api?.sb.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('concurrent writes are serialised: every confirmed change is in the file', async () => {
  const dir = await tempDir();
  const dataFile = path.join(dir, 'data.json');
  let api: Api | undefined;
  try {
    const live = (api = await start({ dataFile, seed: 'empty' }));
    const base = `/api/f/${api.instanceKey}/inputscanners`;
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => live.post(base, sample('inputScanner', `Scanner ${i}`))));
    assert.ok(results.every((r) => r.status === 201));
    const keys = new Set(results.map((r) => r.body.Key));
    // Read the files before closing: every 201 was preceded by a durable write.
    const onDisk = await readStoreFiles(dataFile);
    const stored = onDisk!.changes.map((c) => c.op === 'put' && c.kind === 'inputScanner' && (c.object as { Key: string }).Key).filter(Boolean);
    assert.deepEqual(new Set(stored), keys);
    await api.sb.close();
    api = await start({ dataFile });
    assert.equal((await api.get(`${base}?pageSize=1000`)).body.length, 40);
  } finally {
    await api?.sb.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a data file that is not sandbox data stops the start instead of being overwritten', async () => {
  const dir = await tempDir();
  const dataFile = path.join(dir, 'data.json');
  try {
    await writeFile(dataFile, '{"not": "ours"}');
    await assert.rejects(startSandbox({ port: 0, dataFile }), /not an OMS sandbox data file/);
    await writeFile(dataFile, '{broken');
    await assert.rejects(startSandbox({ port: 0, dataFile }), /not valid JSON/);
    assert.equal(await readFile(dataFile, 'utf8'), '{broken');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('without a data file, data lives in memory only', async () => {
  const a = await start();
  const created = await a.post(`/api/f/${a.instanceKey}/engagesites`, sample('engageSite'));
  await a.sb.close();
  assert.equal(created.status, 201);
  const b = await start();
  try {
    assert.equal((await b.get(created.body.Href)).status, 404);
  } finally {
    await b.sb.close();
  }
});
