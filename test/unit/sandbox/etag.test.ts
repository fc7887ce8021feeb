import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withSandbox } from './harness';

test('a list page carries an ETag; If-None-Match gets 304 with no body until the group changes', async () => {
  await withSandbox({}, async (api) => {
    const floor = await api.folder('Floor 1', (await api.folder('Head Office')).Key);
    const path = `/api/f/${floor.Key}/inputscanners?page=0&pageSize=100`;
    const first = await api.get(path);
    const tag = first.headers.get('etag');
    assert.equal(first.status, 200);
    assert.match(tag ?? '', /^"[\w-]+"$/);

    const same = await api.get(path, { headers: { 'If-None-Match': tag! } });
    assert.equal(same.status, 304);
    assert.equal(same.text, '');
    assert.equal(same.headers.get('etag'), tag);
    assert.equal((await api.get(path, { headers: { 'If-None-Match': `"other", W/${tag}` } })).status, 304);
    assert.equal((await api.get(path, { headers: { 'If-None-Match': '"other"' } })).status, 200);

    const scanner = first.body[0];
    assert.equal((await api.put(scanner.Href, { ...scanner, CommonName: 'Renamed scanner' })).status, 204);
    const changed = await api.get(path, { headers: { 'If-None-Match': tag! } });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get('etag'), tag);
    assert.equal(changed.body[0].CommonName, 'Renamed scanner');
  });
});

test('an object carries an ETag that moves with its version; 304 while it stays', async () => {
  await withSandbox({}, async (api) => {
    const scanners = await api.listAll((await api.folder('Warehouse')).Key, 'inputscanners');
    const first = await api.get(scanners[0].Href!);
    const tag = first.headers.get('etag')!;
    assert.ok(tag);
    const again = await api.get(scanners[0].Href!, { headers: { 'If-None-Match': tag } });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
    await api.put(first.body.Href, { ...first.body, Description: 'moved' });
    const moved = await api.get(scanners[0].Href!, { headers: { 'If-None-Match': tag } });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.ConcurrencyVersion, first.body.ConcurrencyVersion + 1);
    assert.notEqual(moved.headers.get('etag'), tag);
    // A 404 carries no tag.
    const missing = await api.get(`${scanners[0].Href!.replace(/[^/]+$/, '')}0123456789abcdef01234567`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('etag'), null);
  });
});
