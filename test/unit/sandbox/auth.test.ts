import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { withSandbox, Api } from './harness';

async function form(api: Api, fields: Record<string, string>) {
  return api.call('POST', '/token', {
    token: null,
    body: new URLSearchParams(fields).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
}

/** The password of these tests' sandboxes: random, as the harness's token. */
const secret = randomBytes(12).toString('hex');
const password = (user = 'Demo Instance\\admin', pw = secret) => ({
  grant_type: 'password',
  client_id: 'consoleApp',
  client_secret: 'consoleSecret',
  username: user,
  password: pw,
  instance: 'Demo Instance',
});

test('requests without a valid bearer token get 401 with a JSON Message', async () => {
  await withSandbox({}, async (api) => {
    for (const token of [null, 'wrong-token']) {
      const res = await api.get('/api', { token });
      assert.equal(res.status, 401);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      assert.equal(typeof res.body.Message, 'string');
      assert.equal(res.headers.get('www-authenticate'), 'Bearer');
    }
    const folder = await api.get(`/api/f/${api.instanceKey}/engagesites`, { headers: { Authorization: 'Basic abc' }, token: null });
    assert.equal(folder.status, 401);
    assert.equal((await api.get('/sandbox/outbox', { token: null })).status, 401);
    assert.equal((await api.get('/api')).status, 200);
  });
});

test('sysinfo needs no token; /api and /api/f/{key} return the instance', async () => {
  await withSandbox({ token: 'static-token' }, async (api) => {
    assert.equal(api.sb.token, 'static-token');
    const info = await api.get('/api/sysinfo', { token: null });
    assert.equal(info.status, 200);
    assert.ok(!Number.isNaN(Date.parse(info.body.ServerTime)));
    assert.equal(typeof info.body.Version, 'string');

    const inst = await api.get('/api');
    assert.equal(inst.status, 200);
    assert.match(inst.body.$type, /\.InstanceInfo, /);
    assert.equal(inst.body.Key, api.instanceKey);
    assert.match(api.instanceKey, /^[0-9a-f]{24}$/);
    assert.equal(inst.body.CommonName, 'Demo Instance');
    assert.equal(inst.body.Href, `/api/f/${api.instanceKey}`);
    const same = await api.get(`/api/f/${api.instanceKey}`);
    assert.deepEqual(same.body, inst.body);
  });
});

test('password grant issues a token pair; wrong credentials are invalid_grant', async () => {
  await withSandbox({ user: 'alice', password: 's3cret' }, async (api) => {
    const ok = await form(api, password('Demo Instance\\alice', 's3cret'));
    assert.equal(ok.status, 200, ok.text);
    for (const field of ['access_token', 'refresh_token', 'userName', 'instance', '.issued', '.expires']) {
      assert.equal(typeof ok.body[field], 'string', field);
    }
    assert.equal(ok.body.token_type, 'bearer');
    assert.equal(ok.body.expires_in, 86399);
    assert.equal(ok.body.instance, api.instanceKey);
    assert.equal(ok.body.userName, 'Demo Instance\\alice');
    assert.ok(Date.parse(ok.body['.expires']) > Date.parse(ok.body['.issued']));
    assert.equal((await api.get('/api', { token: ok.body.access_token })).status, 200);

    // The instance may be named by key, the user without an instance prefix.
    assert.equal((await form(api, { ...password('alice', 's3cret'), instance: api.instanceKey })).status, 200);

    for (const bad of [password('Demo Instance\\alice', 'nope'), password('Demo Instance\\bob', 's3cret'), password('Other\\alice', 's3cret')]) {
      const res = await form(api, bad);
      assert.equal(res.status, 400);
      assert.equal(res.body.error, 'invalid_grant');
      assert.equal(typeof res.body.error_description, 'string');
    }
    const unsupported = await form(api, { grant_type: 'client_credentials' });
    assert.equal(unsupported.status, 400);
    assert.equal(unsupported.body.error, 'unsupported_grant_type');
    assert.equal((await api.get('/token', { token: null })).status, 405);
  });
});

test('refresh grant gives a new pair and the old refresh token stops working', async () => {
  await withSandbox({ password: secret }, async (api) => {
    const first = await form(api, password());
    assert.equal(first.status, 200);
    const second = await form(api, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    assert.equal(second.status, 200, second.text);
    assert.notEqual(second.body.access_token, first.body.access_token);
    assert.notEqual(second.body.refresh_token, first.body.refresh_token);
    assert.equal((await api.get('/api', { token: second.body.access_token })).status, 200);

    const reused = await form(api, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    assert.equal(reused.status, 400);
    assert.equal(reused.body.error, 'invalid_grant');
    assert.equal((await form(api, { grant_type: 'refresh_token', refresh_token: 'made-up' })).status, 400);
  });
});

test('issued tokens expire; the static token does not', async () => {
  await withSandbox({ tokenTtlSeconds: 1, password: secret }, async (api) => {
    const granted = await form(api, password());
    assert.equal(granted.body.expires_in, 1);
    assert.equal((await api.get('/api', { token: granted.body.access_token })).status, 200);
    await new Promise((r) => setTimeout(r, 1100));
    const expired = await api.get('/api', { token: granted.body.access_token });
    assert.equal(expired.status, 401);
    assert.match(expired.body.Message, /expired/);
    assert.equal((await api.get('/api')).status, 200);
    // The refresh token still gets a fresh access token.
    const renewed = await form(api, { grant_type: 'refresh_token', refresh_token: granted.body.refresh_token });
    assert.equal((await api.get('/api', { token: renewed.body.access_token })).status, 200);
  });
});
