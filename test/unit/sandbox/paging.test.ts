import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoPlan } from '../../../src/sandbox/store/seed';
import { withFailingJournal, withSandbox, person } from './harness';

const headOfficePeople = demoPlan.folders!.find((f) => f.name === 'Head Office')!.people!;

test('lists page with 0-based page and pageSize; pages join into the whole list in creation order', async () => {
  assert.ok(headOfficePeople >= 260);
  await withSandbox({}, async (api) => {
    const office = await api.folder('Head Office');
    const path = `/api/f/${office.Key}/people`;
    const sizes: number[] = [];
    const keys: string[] = [];
    for (let page = 0; ; page++) {
      const res = await api.get(`${path}?page=${page}&pageSize=100`);
      assert.equal(res.status, 200);
      sizes.push(res.body.length);
      keys.push(...res.body.map((p: { Key: string }) => p.Key));
      if (res.body.length < 100) break;
    }
    assert.deepEqual(sizes, [100, 100, headOfficePeople - 200]);
    assert.equal(new Set(keys).size, headOfficePeople, 'no person twice');

    const all = (await api.get(`${path}?pageSize=1000`)).body.map((p: { Key: string }) => p.Key);
    assert.deepEqual(all, keys, 'pages follow one stable order');
    assert.deepEqual([...all].sort(), all, 'creation order (keys grow with creation time)');

    assert.equal((await api.get(path)).body.length, 100, 'default pageSize is 100');
    assert.equal((await api.get(`${path}?pageSize=5000`)).body.length, headOfficePeople, 'pageSize above 1000 is cut to 1000');
    assert.deepEqual((await api.get(`${path}?page=9&pageSize=100`)).body, []);
    const second = (await api.get(`${path}?page=1&pageSize=7`)).body.map((p: { Key: string }) => p.Key);
    assert.deepEqual(second, keys.slice(7, 14));

    // New people come last; an update does not move anyone.
    assert.equal((await api.post(`${path}/complex`, [person('Zed', 'Last')])).status, 200);
    const first = (await api.get(`${path}?pageSize=1`)).body[0];
    assert.equal((await api.put(first.Href, { ...first, Surname: 'Moved?' })).status, 204);
    const after = (await api.get(`${path}?pageSize=1000`)).body;
    assert.equal(after.length, headOfficePeople + 1);
    assert.equal(after[0].Key, first.Key);
    assert.equal(after[after.length - 1].Surname, 'Last');
  });
});

test('a page read again shows every change made since (create, update, delete, a write that failed and was taken back)', async () => {
  await withFailingJournal(async (api, failNextWrite) => {
    const base = `/api/f/${api.instanceKey}/people`;
    const names = async () => (await api.get(`${base}?page=0&pageSize=10`)).body.map((p: { CommonName: string }) => p.CommonName);
    assert.deepEqual(await names(), []);
    const ada = (await api.post(base, person('Ada', 'Lovelace'))).body;
    await api.post(base, person('Grace', 'Hopper'));
    assert.deepEqual(await names(), ['Ada Lovelace', 'Grace Hopper']);
    assert.deepEqual(await names(), ['Ada Lovelace', 'Grace Hopper'], 'read twice: the same');
    assert.equal((await api.put(`${base}/${ada.Key}`, { ...ada, CommonName: 'Ada King' })).status, 204);
    assert.deepEqual(await names(), ['Ada King', 'Grace Hopper']);
    failNextWrite();
    const current = (await api.get(`${base}/${ada.Key}`)).body;
    assert.equal((await api.put(`${base}/${ada.Key}`, { ...current, CommonName: 'Not Written' })).status, 500);
    assert.deepEqual(await names(), ['Ada King', 'Grace Hopper'], 'a change taken back is not listed');
    assert.equal((await api.delete(`${base}/${ada.Key}`)).status, 204);
    assert.deepEqual(await names(), ['Grace Hopper']);
  });
});
