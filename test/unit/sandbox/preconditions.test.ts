/**
 * Conditional writes (RFC 9110 §13.1.1-2, §13.2): If-Match and If-None-Match on a PUT, POST or DELETE
 * are checked against the target's current ETag (what a GET of the same path answers); a false
 * condition is a 412 and nothing is written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Api, sample, withSandbox } from './harness';
import type { BaseInfo } from '../../../src/model/types';

async function scanner(api: Api): Promise<{ obj: BaseInfo & { Href: string }; tag: string }> {
  const [first] = await api.listAll((await api.folder('Warehouse')).Key, 'inputscanners');
  const read = await api.get(first.Href!);
  return { obj: read.body, tag: read.headers.get('etag')! };
}

test('PUT with If-None-Match: * to an existing object is 412 and changes nothing; a tag that is not the current one lets it through', async () => {
  await withSandbox({}, async (api) => {
    const { obj, tag } = await scanner(api);
    const refused = await api.put(obj.Href, { ...obj, CommonName: 'Overwritten' }, { headers: { 'If-None-Match': '*' } });
    assert.equal(refused.status, 412, refused.text);
    assert.match(refused.body.Message, /If-None-Match/);
    const same = await api.put(obj.Href, { ...obj, CommonName: 'Overwritten' }, { headers: { 'If-None-Match': tag } });
    assert.equal(same.status, 412, 'If-None-Match naming the current tag');
    const after = await api.get(obj.Href);
    assert.equal(after.body.CommonName, obj.CommonName);
    assert.equal(after.body.ConcurrencyVersion, obj.ConcurrencyVersion);
    assert.equal(after.headers.get('etag'), tag);

    const other = await api.put(obj.Href, { ...obj, CommonName: 'Written' }, { headers: { 'If-None-Match': '"not-its-tag", W/"nor-this"' } });
    assert.equal(other.status, 204, other.text);
    assert.equal((await api.get(obj.Href)).body.CommonName, 'Written');
  });
});

test('PUT and DELETE with If-Match: a stale or weak tag is 412, the current tag (or *) is written', async () => {
  await withSandbox({}, async (api) => {
    const { obj, tag } = await scanner(api);
    assert.equal((await api.put(obj.Href, { ...obj, Description: 'first' }, { headers: { 'If-Match': tag } })).status, 204);
    const moved = await api.get(obj.Href);
    const now = moved.headers.get('etag')!;
    assert.notEqual(now, tag);

    const stale = await api.put(obj.Href, { ...moved.body, Description: 'second' }, { headers: { 'If-Match': tag } });
    assert.equal(stale.status, 412, stale.text);
    assert.match(stale.body.Message, /If-Match/);
    // Strong comparison: a weak tag never matches, even with the same opaque text.
    assert.equal((await api.put(obj.Href, { ...moved.body, Description: 'second' }, { headers: { 'If-Match': `W/${now}` } })).status, 412);
    assert.equal((await api.get(obj.Href)).body.Description, 'first');
    assert.equal((await api.put(obj.Href, { ...moved.body, Description: 'second' }, { headers: { 'If-Match': `"x", ${now}` } })).status, 204);

    const current = await api.get(obj.Href);
    assert.equal((await api.delete(obj.Href, { headers: { 'If-Match': now } })).status, 412);
    assert.equal((await api.get(obj.Href)).status, 200, 'not deleted');
    assert.equal((await api.delete(obj.Href, { headers: { 'If-Match': '*' } })).status, 204);
    assert.equal((await api.get(obj.Href)).status, 404);
    assert.ok(current.headers.get('etag'));
    // A write to what is not there stays a 404 (§13.2.1: that answer comes before any precondition).
    assert.equal((await api.put(obj.Href, current.body, { headers: { 'If-Match': '*' } })).status, 404);
    assert.equal((await api.delete(obj.Href, { headers: { 'If-None-Match': '*' } })).status, 404);
  });
});

test('POST (create) is checked against the collection: If-None-Match: * is 412 (it exists), If-Match another tag is 412; nothing is created', async () => {
  await withSandbox({}, async (api) => {
    const warehouse = (await api.folder('Warehouse')).Key;
    const before = await api.listAll(warehouse, 'inputscanners');
    const path = `/api/f/${warehouse}/inputscanners`;
    assert.equal((await api.post(path, sample('inputScanner', 'Made once'), { headers: { 'If-None-Match': '*' } })).status, 412);
    assert.equal((await api.post(path, sample('inputScanner', 'Made once'), { headers: { 'If-Match': '"a-page-long-gone"' } })).status, 412);
    assert.equal((await api.listAll(warehouse, 'inputscanners')).length, before.length);
    const pageTag = (await api.get(path)).headers.get('etag')!;
    const made = await api.post(path, sample('inputScanner', 'Made once'), { headers: { 'If-Match': pageTag } });
    assert.equal(made.status, 201, made.text);
    assert.equal((await api.listAll(warehouse, 'inputscanners')).length, before.length + 1);
    // Reads are as before: If-None-Match on a GET is a 304.
    assert.equal((await api.get(made.headers.get('location')!, { headers: { 'If-None-Match': '*' } })).status, 304);
  });
});
