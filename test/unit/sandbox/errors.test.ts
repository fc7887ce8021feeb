import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withSandbox, sample } from './harness';

function assertErrorBody(body: unknown): void {
  assert.ok(body && typeof body === 'object', 'error bodies are JSON objects');
  assert.equal(typeof (body as { Message: unknown }).Message, 'string');
}

test('400 on schema errors, naming each field by JSON pointer; nothing is stored', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    const base = `/api/f/${api.instanceKey}/inputscanners`;
    const bad = sample('inputScanner');
    (bad as Record<string, unknown>).CommonName = 42;
    (bad.InputScannerReportingPriorities as Array<Record<string, unknown>>)[2].Priority = 'high';
    const res = await api.post(base, bad);
    assert.equal(res.status, 400);
    assertErrorBody(res.body);
    const pointers = res.body.Errors.map((e: { pointer: string }) => e.pointer);
    assert.ok(pointers.includes('/CommonName'), pointers.join());
    assert.ok(pointers.includes('/InputScannerReportingPriorities/2/Priority'), pointers.join());
    for (const e of res.body.Errors) assert.equal(typeof e.message, 'string');
    assert.deepEqual((await api.get(base)).body, []);

    const wrongType = await api.post(base, { ...sample('inputScanner'), $type: sample('engageSite').$type });
    assert.equal(wrongType.status, 400);
    assert.ok(wrongType.body.Errors.some((e: { pointer: string }) => e.pointer === '/$type'));

    const notObject = await api.post(base, [1, 2]);
    assert.equal(notObject.status, 400);
  });
});

test('400 when an update body does not match its path (Key, Href) or fails the schema', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    const base = `/api/f/${api.instanceKey}/engagesites`;
    const site = (await api.post(base, sample('engageSite'))).body;
    const other = (await api.post(base, sample('engageSite', 'Other'))).body;
    const keyMismatch = await api.put(site.Href, { ...site, Key: other.Key });
    assert.equal(keyMismatch.status, 400);
    assert.equal(keyMismatch.body.Errors[0].pointer, '/Key');
    const noKey = await api.put(site.Href, { ...site, Key: null });
    assert.equal(noKey.status, 400);
    const hrefMismatch = await api.put(site.Href, { ...site, Href: other.Href });
    assert.equal(hrefMismatch.status, 400);
    assert.equal(hrefMismatch.body.Errors[0].pointer, '/Href');
    const schema = await api.put(site.Href, { ...site, Tags: [1] });
    assert.equal(schema.status, 400);
    assert.equal(schema.body.Errors[0].pointer, '/Tags/0');
    assert.equal((await api.get(site.Href)).body.ConcurrencyVersion, 1, 'nothing changed');
  });
});

test('404 for unknown folders, keys, collections and routes', async () => {
  await withSandbox({}, async (api) => {
    const missing = '0123456789abcdef01234567';
    const checks = [
      `/api/f/${missing}`,
      `/api/f/${missing}/engagesites`,
      `/api/f/${api.instanceKey}/engagesites/${missing}`,
      `/api/f/${api.instanceKey}/nosuchthings`,
      `/api/f/${api.instanceKey}/engagesites/${missing}/nosuchaction`,
      '/api/nothing',
      '/elsewhere',
    ];
    for (const path of checks) {
      const res = await api.get(path);
      assert.equal(res.status, 404, path);
      assertErrorBody(res.body);
    }
    // A service container is not a folder.
    const container = (await api.get(`/api/f/${api.instanceKey}/servicecontainers`)).body[0];
    assert.equal((await api.get(`/api/f/${container.Key}`)).status, 404);
    assert.equal((await api.put(`/api/f/${api.instanceKey}/people/${missing}`, sample('person'))).status, 404);
  });
});

test('405 with an Allow header for methods a route does not offer', async () => {
  await withSandbox({}, async (api) => {
    const k = api.instanceKey;
    const cases: Array<[string, string, string]> = [
      ['POST', `/api/f/${k}/servicecontainers`, 'GET'],
      ['POST', `/api/f/${k}/servicecontainermodules`, 'GET'],
      ['PATCH', `/api/f/${k}/engagesites`, 'GET, POST'],
      ['POST', `/api/f/${k}/pushnotifications`, 'DELETE'],
      ['GET', `/api/f/${k}/people/complex`, 'POST'],
      ['PUT', `/api/f/${k}`, 'GET'],
      ['DELETE', '/api', 'GET'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await api.call(method, path, method === 'GET' ? {} : { json: {} });
      assert.equal(res.status, 405, `${method} ${path}`);
      assert.equal(res.headers.get('allow'), allow, `${method} ${path}`);
      assertErrorBody(res.body);
    }
    const container = (await api.get(`/api/f/${k}/servicecontainers`)).body[0];
    const del = await api.delete(container.Href);
    assert.equal(del.status, 405);
    assert.equal(del.headers.get('allow'), 'GET, PUT');
  });
});

test('409 when ConcurrencyVersion is stale or missing', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    const site = (await api.post(`/api/f/${api.instanceKey}/engagesites`, sample('engageSite'))).body;
    assert.equal((await api.put(site.Href, { ...site, SiteReference: 'one' })).status, 204);
    const stale = await api.put(site.Href, { ...site, SiteReference: 'two' });
    assert.equal(stale.status, 409);
    assert.match(stale.body.Message, /version/i);
    assert.equal(stale.body.Errors[0].pointer, '/ConcurrencyVersion');
    for (const version of [null, undefined]) {
      const res = await api.put(site.Href, { ...site, ConcurrencyVersion: version });
      assert.equal(res.status, 409);
      assert.match(res.body.Message, /required/);
    }
    const now = (await api.get(site.Href)).body;
    assert.equal(now.SiteReference, 'one');
    assert.equal(now.ConcurrencyVersion, 2);
    assert.equal((await api.put(site.Href, { ...now, SiteReference: 'three' })).status, 204);
  });
});

test('413 for bodies over maxBodyBytes, declared or streamed; the server keeps serving', async () => {
  await withSandbox({ seed: 'empty', maxBodyBytes: 4096 }, async (api) => {
    const base = `/api/f/${api.instanceKey}/engagesites`;
    const big = { ...sample('engageSite'), CommonName: 'x'.repeat(64 * 1024) };
    const declared = await api.post(base, big);
    assert.equal(declared.status, 413);
    assertErrorBody(declared.body);

    const chunk = new TextEncoder().encode(' '.repeat(16 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 64; i++) c.enqueue(chunk);
        c.close();
      },
    });
    const streamed = await fetch(api.sb.url + base, {
      method: 'POST',
      body: stream,
      duplex: 'half',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${api.sb.token}` },
    });
    assert.equal(streamed.status, 413);
    assert.match(((await streamed.json()) as { Message: string }).Message, /4096/);

    assert.equal((await api.post(base, sample('engageSite'))).status, 201);
    assert.equal((await api.get(base)).body.length, 1);
  });
});

test('415 for bodies that are not application/json; 400 for malformed or missing JSON', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    const base = `/api/f/${api.instanceKey}/engagesites`;
    const text = JSON.stringify(sample('engageSite'));
    const plain = await api.call('POST', base, { body: text, headers: { 'Content-Type': 'text/plain' } });
    assert.equal(plain.status, 415);
    assertErrorBody(plain.body);
    const form = await api.call('POST', base, { body: 'a=b', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    assert.equal(form.status, 415);
    const charset = await api.call('POST', base, { body: text, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
    assert.equal(charset.status, 201);

    const malformed = await api.call('POST', base, { body: '{"CommonName": ', headers: { 'Content-Type': 'application/json' } });
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.Message, /not valid JSON/);
    const missing = await api.call('POST', base, { headers: { 'Content-Type': 'application/json' } });
    assert.equal(missing.status, 400);
    const push = await api.call('DELETE', `/api/f/${api.instanceKey}/pushnotifications`, { body: 'hello', headers: { 'Content-Type': 'text/plain' } });
    assert.equal(push.status, 415);
  });
});

test('400 for paging parameters that are not non-negative integers', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    for (const q of ['page=-1', 'page=abc', 'pageSize=0', 'pageSize=1.5']) {
      const res = await api.get(`/api/f/${api.instanceKey}/people?${q}`);
      assert.equal(res.status, 400, q);
      assertErrorBody(res.body);
    }
  });
});
