import { test } from 'node:test';
import assert from 'node:assert/strict';
import { person, withSandbox } from './harness';

test('faults: the next N authenticated requests under a path prefix get the status, with Retry-After', async () => {
  await withSandbox({ seed: 'empty', password: 'faults-pw' }, async (api) => {
    const people = `/api/f/${api.instanceKey}/people`;
    const added = await api.post('/sandbox/faults', { path: `/api/f/${api.instanceKey}/`, status: 429, count: 2, retryAfter: 3 });
    assert.equal(added.status, 201);
    assert.equal((await api.get('/sandbox/faults')).body.length, 1);

    assert.equal((await api.get('/api')).status, 200, 'other paths are not affected');
    for (let i = 0; i < 2; i++) {
      const res = await api.get(people);
      assert.equal(res.status, 429);
      assert.equal(res.headers.get('retry-after'), '3');
      assert.match(res.body.Message, /429/);
    }
    assert.equal((await api.get(people)).status, 200, 'the rule is used up');
    assert.deepEqual((await api.get('/sandbox/faults')).body, []);

    await api.post('/sandbox/faults', { path: '/api', status: 503, count: 1 });
    const unauthenticated = await api.get('/api', { token: null });
    assert.equal(unauthenticated.status, 401, 'a request without a token never consumes a fault');
    const unavailable = await api.get('/api');
    assert.equal(unavailable.status, 503);
    assert.equal(unavailable.headers.get('retry-after'), null);
    assert.equal((await api.get('/api')).status, 200);

    // Public routes (no token) are never faulted.
    await api.post('/sandbox/faults', { path: '/', status: 503, count: 5 });
    assert.equal((await api.get('/api/sysinfo', { token: null })).status, 200);
    assert.equal(
      (
        await api.call('POST', '/token', {
          token: null,
          body: 'grant_type=password&username=admin&password=faults-pw',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        })
      ).status,
      200,
    );
    assert.equal((await api.delete('/sandbox/faults')).status, 204);
  });
});

test('faults: a delay holds the answer back after the request was handled; with a status, the status comes late', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    const people = `/api/f/${api.instanceKey}/people`;
    assert.equal((await api.post('/sandbox/faults', { path: people, delayMs: 600, count: 1 })).status, 201);
    const started = Date.now();
    const created = api.post(people, person('Sam', 'Slow'));
    await new Promise((r) => setTimeout(r, 300));
    // The rule is used up: this read is not held back, and finds the object whose answer is still on its way.
    assert.ok(
      (await api.listAll(api.instanceKey, 'people')).some((p) => p.CommonName === 'Sam Slow'),
      'handled before its answer',
    );
    const res = await created;
    assert.equal(res.status, 201);
    assert.ok(Date.now() - started >= 600, 'answered after the delay');

    await api.post('/sandbox/faults', { path: people, status: 503, delayMs: 300, count: 1 });
    const t0 = Date.now();
    assert.equal((await api.post(people, person('Una', 'Vailable'))).status, 503);
    assert.ok(Date.now() - t0 >= 300);
    assert.ok(!(await api.listAll(api.instanceKey, 'people')).some((p) => p.CommonName === 'Una Vailable'), 'a status fault handles nothing');

    // A rule of one method: the reads beside it pass, the first request of that method takes it.
    await api.post('/sandbox/faults', { path: people, method: 'POST', status: 503, count: 1 });
    assert.equal((await api.get(people)).status, 200, 'a GET does not take a POST rule');
    assert.equal((await api.get('/sandbox/faults')).body.length, 1, 'the rule is still there');
    assert.equal((await api.post(people, person('Pat', 'Post'))).status, 503);
    assert.deepEqual((await api.get('/sandbox/faults')).body, []);
  });
});

test('faults: rules are validated and need the token', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    const bad = await api.post('/sandbox/faults', { path: 'api', status: 200, count: 0, retryAfter: -1 });
    assert.equal(bad.status, 400);
    assert.deepEqual(
      bad.body.Errors.map((e: { pointer: string }) => e.pointer),
      ['/path', '/status', '/count', '/retryAfter'],
    );
    assert.equal((await api.post('/sandbox/faults', { path: '/', count: 1 })).status, 400, 'neither a status nor a delay');
    assert.equal((await api.post('/sandbox/faults', { path: '/', delayMs: 0, count: 1 })).status, 400);
    assert.equal((await api.post('/sandbox/faults', { path: '/', method: 'put', status: 503, count: 1 })).status, 400, 'a method in capitals, as sent');
    assert.equal((await api.post('/sandbox/faults', { path: '/', status: 503, count: 1 }, { token: null })).status, 401);
    assert.deepEqual((await api.get('/sandbox/faults')).body, []);
  });
});
