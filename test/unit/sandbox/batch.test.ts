import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withSandbox, person, sample } from './harness';

test('batch add of people: 200 with the count; everyone is stored with keys', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    const path = `/api/f/${api.instanceKey}/people`;
    const batch = [person('Ada', 'Lovelace'), person('Grace', 'Hopper'), person('Alan', 'Turing')];
    batch[0].Addresses = [
      {
        $type: 'Feenics.Keep.WebApi.Model.EmailAddressInfo, Feenics.Keep.WebApi.Model',
        Key: null,
        Href: null,
        IsPrivate: false,
        Type: 'Work',
        MailTo: 'ada@example.com',
      },
    ];
    const res = await api.post(`${path}/complex`, batch);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.text, '3');
    const people = (await api.get(path)).body;
    assert.deepEqual(
      people.map((p: { Surname: string }) => p.Surname),
      ['Lovelace', 'Hopper', 'Turing'],
    );
    for (const p of people) {
      assert.match(p.Key, /^[0-9a-f]{24}$/);
      assert.equal(p.Href, `${path}/${p.Key}`);
      assert.equal(p.ConcurrencyVersion, 1);
    }
    assert.match(people[0].Addresses[0].Key, /^[0-9a-f]{24}$/, 'addresses get keys');
    assert.equal((await api.post(`${path}/complex`, [])).body, 0);
  });
});

test('batch add is all or nothing: one bad item is named by index and pointer, nobody is added', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    const path = `/api/f/${api.instanceKey}/people`;
    const batch: unknown[] = [person('Ada', 'Lovelace'), person('Grace', 'Hopper'), { ...person('Bad', 'Item'), Surname: 7 }, person('Alan', 'Turing')];
    const res = await api.post(`${path}/complex`, batch);
    assert.equal(res.status, 400);
    assert.match(res.body.Message, /Item 2\b/);
    assert.match(res.body.Message, /Nobody was added/);
    assert.deepEqual(
      res.body.Errors.map((e: { pointer: string }) => e.pointer),
      ['/2/Surname'],
    );
    assert.deepEqual((await api.get(path)).body, []);

    const wrongKind = await api.post(`${path}/complex`, [person('A', 'B'), sample('engageSite')]);
    assert.equal(wrongKind.status, 400);
    assert.match(wrongKind.body.Message, /Item 1\b/);
    assert.ok(wrongKind.body.Errors.every((e: { pointer: string }) => e.pointer.startsWith('/1')));

    const notArray = await api.post(`${path}/complex`, person('Solo', 'Person'));
    assert.equal(notArray.status, 400);
    assert.match(notArray.body.Message, /array/);
    assert.deepEqual((await api.get(path)).body, []);
  });
});
