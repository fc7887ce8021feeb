import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kinds, objectKinds, Kind } from '../../../src/model/kinds';
import { servedOperations } from '../../../src/sandbox/routes/collections';
import { validate } from '../../../src/validation/validator';
import { start, withSandbox, sample, Api } from './harness';

/** A field each kind can change in an update, and a new value for it. */
function edit(k: Kind, obj: Record<string, unknown>): Record<string, unknown> {
  switch (k.id) {
    case 'engageSite':
      return { ...obj, SiteReference: 'REF-EDITED' };
    case 'inputScanner':
      return { ...obj, NonSettlingErrorPriority: 3 };
    case 'serviceContainer':
      return { ...obj, MacAddress: '00:11:22:33:44:55' };
    case 'serviceContainerModule':
      return { ...obj, VersionString: '9.9.9' };
    case 'person':
      return { ...obj, Surname: 'Edited' };
    default:
      return { ...obj, CommonName: 'Edited' };
  }
}

/** An existing object of the kind somewhere in the demo data: folder key and object. */
async function existing(api: Api, k: Kind): Promise<{ folderKey: string; obj: Record<string, unknown> }> {
  const queue = [api.instanceKey];
  while (queue.length) {
    const folderKey = queue.shift()!;
    const list = await api.get(`/api/f/${folderKey}/${k.collection}?pageSize=1`);
    if (list.body.length) return { folderKey, obj: list.body[0] };
    queue.push(...(await api.get(`/api/f/${folderKey}/folders`)).body.map((f: { Key: string }) => f.Key));
  }
  throw new Error(`no ${k.id} in the demo data`);
}

for (const k of objectKinds) {
  const ops = servedOperations(k);
  test(`${k.collection}: operations follow the registry (${[...ops].join(', ')})`, async () => {
    const api = await start();
    try {
      const base = `/api/f/${api.instanceKey}/${k.collection}`;
      let folderKey = api.instanceKey;
      let obj: Record<string, unknown>;
      if (ops.has('create')) {
        const created = await api.post(base, sample(k.id, `New ${k.label}`));
        assert.equal(created.status, 201, created.text);
        obj = created.body;
        assert.match(obj.Key as string, /^[0-9a-f]{24}$/);
        assert.equal(obj.Href, `${base}/${String(obj.Key)}`);
        assert.equal(created.headers.get('location'), obj.Href);
        assert.equal(obj.InFolderKey, api.instanceKey);
        assert.equal(obj.InFolderHref, `/api/f/${api.instanceKey}`);
        assert.equal(obj.ConcurrencyVersion, 1);
        assert.equal(obj.CommonName, `New ${k.label}`);
        assert.ok((obj.Links as Array<{ Relation: string; Anchor: { Href: string } }>).some((l) => l.Relation === 'Notes' && l.Anchor.Href === 'notes'));
        assert.deepEqual(
          (obj.ObjectLinks as Array<{ Relation: string; LinkedObjectKey: string }>).map((l) => [l.Relation, l.LinkedObjectKey]),
          [
            ['InInstance', api.instanceKey],
            ['InstanceScope', api.instanceKey],
          ],
        );
        assert.deepEqual(validate(k.schema, obj), [], 'the created object fits its schema');
      } else {
        const posted = await api.post(base, sample(k.id));
        assert.equal(posted.status, 405);
        assert.equal(typeof posted.body.Message, 'string');
        assert.ok(!(posted.headers.get('allow') ?? '').includes('POST'));
        ({ folderKey, obj } = await existing(api, k));
      }
      const itemPath = `/api/f/${folderKey}/${k.collection}/${String(obj.Key)}`;

      if (ops.has('list')) {
        const listed = await api.get(`/api/f/${folderKey}/${k.collection}?pageSize=1000`);
        assert.equal(listed.status, 200);
        assert.ok(Array.isArray(listed.body));
        assert.ok(listed.body.some((o: { Key: string }) => o.Key === obj.Key));
      }
      if (ops.has('get')) {
        const got = await api.get(itemPath);
        assert.equal(got.status, 200);
        assert.deepEqual(got.body, obj);
      }
      if (ops.has('update')) {
        const version = obj.ConcurrencyVersion as number;
        const changed = edit(k, obj);
        const put = await api.put(itemPath, changed);
        assert.equal(put.status, 204, put.text);
        assert.equal(put.text, '');
        const after = (await api.get(itemPath)).body;
        assert.equal(after.ConcurrencyVersion, version + 1);
        assert.deepEqual({ ...after, ConcurrencyVersion: version }, changed);
      } else {
        assert.equal((await api.put(itemPath, obj)).status, 405);
      }
      if (ops.has('delete')) {
        const del = await api.delete(itemPath);
        assert.equal(del.status, 204);
        assert.equal((await api.get(itemPath)).status, 404);
        assert.equal((await api.delete(itemPath)).status, 404);
      } else {
        const del = await api.delete(itemPath);
        assert.equal(del.status, 405);
        assert.equal((await api.get(itemPath)).status, 200);
      }
    } finally {
      await api.sb.close();
    }
  });
}

test('folders: listed and read, never created, changed or deleted', async () => {
  await withSandbox({}, async (api) => {
    const k = kinds.get('folder')!;
    const folders = await api.get(`/api/f/${api.instanceKey}/folders`);
    assert.deepEqual(
      folders.body.map((f: { CommonName: string }) => f.CommonName),
      ['Head Office', 'Warehouse'],
    );
    const office = folders.body[0];
    assert.deepEqual(validate(k.schema, office), []);
    assert.equal(office.InFolderKey, api.instanceKey);
    assert.deepEqual((await api.get(`/api/f/${office.Key}`)).body, office);
    assert.deepEqual((await api.get(`/api/f/${api.instanceKey}/folders/${office.Key}`)).body, office);
    assert.equal((await api.post(`/api/f/${api.instanceKey}/folders`, sample('folder'))).status, 405);
    assert.equal((await api.put(`/api/f/${api.instanceKey}/folders/${office.Key}`, office)).status, 405);
    assert.equal((await api.delete(`/api/f/${api.instanceKey}/folders/${office.Key}`)).status, 405);
    // A folder's objects are its own: another folder's path does not reach them.
    const floors = (await api.get(`/api/f/${office.Key}/folders`)).body;
    assert.deepEqual(
      floors.map((f: { CommonName: string }) => f.CommonName),
      ['Floor 1', 'Floor 2'],
    );
    assert.equal((await api.get(`/api/f/${api.instanceKey}/folders/${floors[0].Key}`)).status, 404);
  });
});

test('an update keeps server-owned fields: Notes, Links, Key; a create ignores client keys', async () => {
  await withSandbox({}, async (api) => {
    const base = `/api/f/${api.instanceKey}/engagesites`;
    const created = (await api.post(base, { ...sample('engageSite'), Key: 'aaaaaaaaaaaaaaaaaaaaaaaa', Href: '/elsewhere' })).body;
    assert.notEqual(created.Key, 'aaaaaaaaaaaaaaaaaaaaaaaa');
    assert.equal(created.Href, `${base}/${created.Key}`);
    const note = await api.post(`${created.Href}/notes`, { NoteText: 'first note' });
    assert.equal(note.status, 201);
    const put = await api.put(created.Href, { ...created, Notes: [], Links: [], CommonName: 'Renamed' });
    assert.equal(put.status, 204, put.text);
    const after = (await api.get(created.Href)).body;
    assert.equal(after.CommonName, 'Renamed');
    assert.deepEqual(
      after.Notes.map((n: { NoteText: string }) => n.NoteText),
      ['first note'],
    );
    assert.deepEqual(after.Links, created.Links);
  });
});

test('notes: added with POST, listed, deleted; unknown notes are 404', async () => {
  await withSandbox({}, async (api) => {
    const site = (await api.post(`/api/f/${api.instanceKey}/engagesites`, sample('engageSite'))).body;
    const a = await api.post(`${site.Href}/notes`, { NoteText: 'Battery replaced' });
    const b = await api.post(`${site.Href}/notes`, 'Lock firmware updated');
    assert.equal(a.status, 201);
    assert.equal(b.status, 201);
    assert.match(a.body.$type, /\.NoteInfo, /);
    assert.match(a.body.Key, /^[0-9a-f]{24}$/);
    assert.ok(!Number.isNaN(Date.parse(a.body.CreatedOn)));
    const got = (await api.get(site.Href)).body;
    assert.deepEqual(
      got.Notes.map((n: { NoteText: string }) => n.NoteText),
      ['Battery replaced', 'Lock firmware updated'],
    );
    assert.equal(got.ConcurrencyVersion, 1, 'notes do not change the version');
    assert.deepEqual((await api.get(`${site.Href}/notes`)).body, got.Notes);
    assert.equal((await api.delete(`${site.Href}/notes/${a.body.Key}`)).status, 204);
    assert.equal((await api.delete(`${site.Href}/notes/${a.body.Key}`)).status, 404);
    assert.equal((await api.get(`${site.Href}/notes`)).body.length, 1);
    const empty = await api.post(`${site.Href}/notes`, { NoteText: '' });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.Errors[0].pointer, '/NoteText');
  });
});
