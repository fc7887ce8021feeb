// Security suite, sandbox: sign-in and unauthenticated requests, against a real sandbox over real sockets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { withSandbox } from '../sandbox/harness';
import { ask, tokenForm } from './net';

test('security: no default password: a sandbox started with a token alone refuses the password grant (admin/admin included)', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    for (const password of ['admin', '', 'password']) {
      const res = await ask(api.sb.url, { method: 'POST', path: '/token', form: tokenForm('admin', password) });
      assert.equal(res.status, 400, password);
      assert.equal(JSON.parse(res.text).error, 'unsupported_grant_type');
      assert.match(JSON.parse(res.text).error_description, /without a password/);
    }
    assert.equal((await api.get('/api')).status, 200, 'the token still works');
  });
});

test('security: failed sign-ins are limited per peer: 429 with Retry-After (even for the right password); another address still signs in', async () => {
  const password = randomBytes(12).toString('hex');
  await withSandbox({ seed: 'empty', password }, async (api) => {
    const from = (localAddress: string, pw: string) => ask(api.sb.url, { method: 'POST', path: '/token', form: tokenForm('admin', pw), localAddress });
    for (let i = 0; i < 10; i++) assert.equal((await from('127.0.0.1', `guess-${i}`)).status, 400);
    for (const pw of ['guess-10', password]) {
      const limited = await from('127.0.0.1', pw);
      assert.equal(limited.status, 429, pw === password ? 'the right password too: guessing is stopped, not slowed' : 'a wrong one');
      const retryAfter = Number(limited.headers['retry-after']);
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${limited.headers['retry-after']}`);
      assert.equal(JSON.parse(limited.text).error, 'too_many_attempts');
    }
    assert.equal((await from('127.0.0.2', password)).status, 200, 'another peer is not locked out');
  });
});

test('security: POST /token reads at most 4 KB: 413 as soon as Content-Length says more, and for a longer chunked body', async () => {
  await withSandbox({ seed: 'empty', password: 'pw' }, async (api) => {
    // Only the headers are sent: the answer comes from Content-Length alone.
    const declared = await ask(api.sb.url, {
      method: 'POST',
      path: '/token',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': String(8 * 1024 * 1024) },
      headersOnly: true,
    });
    assert.equal(declared.status, 413);
    assert.equal(declared.headers.connection, 'close');
    const chunked = await ask(api.sb.url, {
      method: 'POST',
      path: '/token',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `grant_type=password&username=admin&password=${'x'.repeat(5000)}`,
      chunked: true,
    });
    assert.equal(chunked.status, 413);
    const small = await ask(api.sb.url, { method: 'POST', path: '/token', form: tokenForm('admin', 'pw') });
    assert.equal(small.status, 200, 'a form of normal size signs in');
  });
});

test('security: expired tokens are pruned from memory', async () => {
  await withSandbox({ seed: 'empty', password: 'pw', tokenTtlSeconds: 1 }, async (api) => {
    for (let i = 0; i < 5; i++) assert.equal((await ask(api.sb.url, { method: 'POST', path: '/token', form: tokenForm('admin', 'pw') })).status, 200);
    assert.equal((await api.get('/sandbox/stats')).body.tokens.accessTokens, 5);
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal((await api.get('/sandbox/stats')).body.tokens.accessTokens, 0, 'no expired access token is kept');
  });
});

test('security: injected faults apply to authenticated requests only', async () => {
  await withSandbox({ seed: 'empty', password: 'pw' }, async (api) => {
    assert.equal((await api.post('/sandbox/faults', { path: '/', status: 503, count: 3 })).status, 201);
    assert.equal((await api.get('/api', { token: null })).status, 401);
    assert.equal((await ask(api.sb.url, { method: 'POST', path: '/token', form: tokenForm('admin', 'pw') })).status, 200);
    assert.equal((await api.get('/api/sysinfo', { token: null })).status, 200);
    assert.equal((await api.get('/sandbox/faults')).body[0].count, 3, 'none of those consumed the rule');
    assert.equal((await api.get('/api')).status, 503);
  });
});
