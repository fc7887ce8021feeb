/**
 * A connection's requests (src/connection/connection.ts): the question before
 * a production write, renewal after a refused token, and the rule for sending
 * a request again (README, "Sign-in and tokens"). Against the real sandbox,
 * and a tiny server for the RFC 6750 `invalid_token` challenge the sandbox
 * does not give.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { startSandbox, Sandbox } from '../../../src/sandbox/server';
import { createHttp, RequestLog } from '../../../src/api/http';
import { signIn, TokenSet } from '../../../src/api/auth';
import { Connection, WriteQuestion } from '../../../src/connection/connection';
import { ApiError } from '../../../src/api/errors';
import { kind } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox({ port: 0, seed: 'demo', password: 'admin' });
});
after(() => sb.close());

/** A connection over an in-memory token store, logging every request that went out. */
function session(baseUrl: string, tokens: TokenSet, options: { production?: boolean; askBeforeWrite?: WriteQuestion } = {}) {
  const state = { tokens };
  const sent: RequestLog[] = [];
  const connection = new Connection(
    { id: 'c1', label: 'test', baseUrl, production: options.production },
    {
      tokens: {
        get: (_id, url) => Promise.resolve(url === baseUrl ? state.tokens : undefined),
        set: (_id, _url, fresh) => {
          state.tokens = fresh;
          return Promise.resolve();
        },
        delete: () => Promise.resolve(),
      },
      limits: () => ({}),
      askBeforeWrite: options.askBeforeWrite ?? (() => Promise.reject(new Error('asked on a connection that is not production'))),
      log: (_label, e) => sent.push(e),
    },
  );
  return { client: connection.client, connection, state, sent };
}

test('a production connection asks before each write, never before a read; no sends nothing; an approval covers its writes', async () => {
  const tokens = await signIn(createHttp({ baseUrl: sb.url }), { instance: 'Demo Instance', user: 'admin', password: 'admin' });
  const asked: string[] = [];
  let answer = false;
  const { client, connection, sent } = session(sb.url, tokens, {
    production: true,
    askBeforeWrite: (info, request, many) => {
      asked.push(`${info.label}: ${'method' in request ? `${request.method} ${request.path}` : request.what}${many ? ' (many)' : ''}`);
      return answer ? Promise.resolve() : Promise.reject(new Error('cancelled'));
    },
  });
  const site = kind('engageSite');
  await client.folder(sb.instanceKey);
  assert.deepEqual(asked, [], 'a read asks nothing');
  await assert.rejects(client.create(site, sb.instanceKey, newObject(site, 'Refused')), /cancelled/);
  assert.deepEqual(asked, [`test: POST /api/f/${sb.instanceKey}/engagesites`]);
  assert.deepEqual(
    sent.map((e) => e.method),
    ['GET'],
    'the refused write never left',
  );
  answer = true;
  const approval = await connection.approveWrites('Two sites');
  answer = false;
  const http = connection.client.http;
  for (const name of ['One', 'Two']) await http({ method: 'POST', path: `/api/f/${sb.instanceKey}/engagesites`, json: newObject(site, name), approval });
  assert.deepEqual(asked.slice(1), ['test: Two sites (many)'], 'one question for the operation, none per request');
  assert.deepEqual(
    sent.map((e) => `${e.method} ${e.status}`),
    ['GET 200', 'POST 201', 'POST 201'],
  );
});

test('a read refused with 401 is sent again after the refresh', async () => {
  const tokens = await signIn(createHttp({ baseUrl: sb.url }), { instance: 'Demo Instance', user: 'admin', password: 'admin' });
  const { client, state, sent } = session(sb.url, { ...tokens, accessToken: 'revoked-access-token' });
  assert.equal((await client.instance()).Key, sb.instanceKey);
  assert.deepEqual(
    sent.map((e) => `${e.method} ${e.path} ${e.status}`),
    ['GET /api 401', 'POST /token 200', 'GET /api 200'],
  );
  assert.notEqual(state.tokens.accessToken, 'revoked-access-token', 'the renewed token is kept');
});

test('a write refused with a plain 401 is not sent again after the refresh', async () => {
  const tokens = await signIn(createHttp({ baseUrl: sb.url }), { instance: 'Demo Instance', user: 'admin', password: 'admin' });
  const { client, state, sent } = session(sb.url, { ...tokens, accessToken: 'revoked-access-token' });
  const site = kind('engageSite');
  const error = await client.create(site, sb.instanceKey, newObject(site, 'Sent once')).then(
    () => assert.fail('expected a rejection'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ApiError && error.kind === 'auth');
  assert.match(error.message, /Signed in again, but the POST was not sent again/);
  assert.deepEqual(
    sent.map((e) => `${e.method} ${e.status}`),
    ['POST 401', 'POST 200'],
    'the create once, then the token grant',
  );
  assert.equal(sent[1].path, '/token');
  assert.notEqual(state.tokens.accessToken, 'revoked-access-token', 'signed in again for the next try');
  // The next try goes through with the renewed token.
  assert.ok((await client.create(site, sb.instanceKey, newObject(site, 'Sent once'))).Key);
});

test('a write refused with invalid_token (never handled) is sent again after the refresh', async () => {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.setHeader('Content-Type', 'application/json');
      if (req.url === '/token') return res.end(JSON.stringify({ access_token: 'fresh', refresh_token: 'r2', expires_in: 3600 }));
      if (req.headers.authorization !== 'Bearer fresh') {
        res.writeHead(401, { 'WWW-Authenticate': 'Bearer error="invalid_token", error_description="The token expired"' });
        return res.end('{"Message":"expired"}');
      }
      res.end(JSON.stringify({ Key: 'k1' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const { client } = session(url, { accessToken: 'stale', refreshToken: 'r1' });
    const site = kind('engageSite');
    assert.equal((await client.create(site, 'f1', newObject(site, 'x'))).Key, 'k1');
    assert.deepEqual(seen, ['POST /api/f/f1/engagesites Bearer stale', 'POST /token ', 'POST /api/f/f1/engagesites Bearer fresh']);
  } finally {
    server.close();
  }
});

test('a 401 that comes after another request renewed the token takes the new token, with no second refresh', async () => {
  // Refresh tokens are good once (as the sandbox's): a second refresh with r1 is refused. The answer to
  // /api/f/late is held until the token was renewed for /api/f/early.
  const seen: string[] = [];
  let renewed: () => void = () => {};
  const renewal = new Promise<void>((r) => (renewed = r));
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const auth = req.headers.authorization ?? '';
      seen.push(`${req.method} ${req.url} ${auth}`);
      res.setHeader('Content-Type', 'application/json');
      if (req.url === '/token') {
        if (seen.filter((s) => s.startsWith('POST /token')).length > 1) {
          res.writeHead(400);
          return res.end('{"error":"invalid_grant"}');
        }
        res.end(JSON.stringify({ access_token: 'fresh', refresh_token: 'r2', expires_in: 3600 }));
        return renewed();
      }
      if (auth !== 'Bearer fresh') {
        void (req.url === '/api/f/late' ? renewal : Promise.resolve()).then(() => {
          res.writeHead(401);
          res.end('{"Message":"expired"}');
        });
        return;
      }
      res.end(JSON.stringify({ Key: req.url!.split('/').pop() }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const { client } = session(url, { accessToken: 'stale', refreshToken: 'r1' });
    const [early, late] = await Promise.all([client.folder('early'), client.folder('late')]);
    assert.deepEqual([early.Key, late.Key], ['early', 'late']);
    assert.deepEqual(
      seen.filter((s) => s.startsWith('POST /token')),
      ['POST /token '],
      'one refresh',
    );
    assert.ok(seen.includes('GET /api/f/late Bearer fresh'), seen.join('\n'));
  } finally {
    server.close();
  }
});
