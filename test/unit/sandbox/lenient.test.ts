import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kind, objectKinds } from '../../../src/model/kinds';
import { validate } from '../../../src/validation/validator';
import { withSandbox, person, sample } from './harness';
import { servedOperations } from '../../../src/sandbox/routes/collections';

/** A create body as public clients of the real service send it: no $type, Key, Href, InFolder*, Links; MetaDataBson null. */
function bare(id: Parameters<typeof sample>[0], name: string): Record<string, unknown> {
  const body: Record<string, unknown> = { ...sample(id, name), MetaDataBson: null };
  for (const field of ['$type', 'Key', 'Href', 'InFolderHref', 'InFolderKey', 'Links']) delete body[field];
  return body;
}

test('a create without $type, Key, Href, InFolder* or Links, with MetaDataBson null, is stored in the full shape', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    for (const k of objectKinds.filter((k) => servedOperations(k).has('create'))) {
      const res = await api.post(`/api/f/${api.instanceKey}/${k.collection}`, bare(k.id, `Bare ${k.label}`));
      assert.equal(res.status, 201, `${k.id}: ${res.text}`);
      const stored = (await api.get(res.body.Href)).body;
      assert.match(stored.$type, new RegExp(`\\.${k.typeName}, `), 'the collection gives the type');
      assert.match(stored.Key, /^[0-9a-f]{24}$/);
      assert.equal(stored.InFolderKey, api.instanceKey);
      assert.ok(stored.Links.length > 0);
      assert.deepEqual(validate(k.schema, stored), [], `${k.id} fits its schema`);
    }
  });
});

test('POST /people adds one person; a batch item without $type is typed by the collection too', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    const people = `/api/f/${api.instanceKey}/people`;
    const one = await api.post(people, { ...bare('person', 'Ada Lovelace'), GivenName: 'Ada', Surname: 'Lovelace' });
    assert.equal(one.status, 201, one.text);
    assert.equal(one.headers.get('location'), one.body.Href);
    const batch = await api.post(`${people}/complex`, [{ ...bare('person', 'Grace Hopper'), Surname: 'Hopper' }]);
    assert.equal(batch.status, 200, batch.text);
    assert.deepEqual(
      (await api.get(people)).body.map((p: { Surname: string }) => p.Surname),
      ['Lovelace', 'Hopper'],
    );
    assert.ok(kind('person').operations.includes('create'), 'the tree offers New Person');
  });
});

test('a Tag with capitals or spaces is refused with the rule; lower-case tags are kept', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    const base = `/api/f/${api.instanceKey}/engagesites`;
    for (const tag of ['Night', 'night shift', 'ÉTÉ']) {
      const res = await api.post(base, { ...sample('engageSite'), Tags: ['ok', tag] });
      assert.equal(res.status, 400, tag);
      assert.equal(res.body.Errors[0].pointer, '/Tags/1');
      assert.match(res.body.Errors[0].message, /lower case without spaces/);
    }
    const ok = await api.post(base, { ...sample('engageSite'), Tags: ['night-shift', 'été'] });
    assert.equal(ok.status, 201);
    assert.deepEqual(ok.body.Tags, ['night-shift', 'été']);
  });
});

test('sysinfo carries EventPublisherUrl; notes name their author and time', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    const info = (await api.get('/api/sysinfo', { token: null })).body;
    assert.equal(typeof info.EventPublisherUrl, 'string');
    assert.ok(info.EventPublisherUrl.startsWith(api.sb.url));
    const created = (await api.post(`/api/f/${api.instanceKey}/people`, person('Note', 'Taker'))).body;
    const note = (await api.post(`${created.Href}/notes`, 'Badge replaced')).body;
    assert.equal(note.User.Relation, 'User');
    assert.match(note.User.CommonName, /\\admin$/);
    assert.match(note.User.LinkedObjectKey, /^[0-9a-f]{24}$/);
    assert.ok(Math.abs(Date.parse(note.CreatedOn) - Date.now()) < 60_000);
    const stored = (await api.get(created.Href)).body;
    assert.deepEqual(stored.Notes, [note]);
    assert.deepEqual(validate(kind('person').schema, stored), [], 'the note with its author fits the schema');
  });
});
