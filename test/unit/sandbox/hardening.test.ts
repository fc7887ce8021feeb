import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, Socket } from 'node:net';
import { Agent, request } from 'node:http';
import { withFailingJournal, withSandbox, person, sample } from './harness';

/** An engage site whose unknown field `CardAssignments` is `[{"a":[{"a":...}]}]`, `depth` levels deep, as JSON text. */
function nestedSite(depth: number): string {
  const site = JSON.stringify(sample('engageSite'));
  const open = '[{"a":'.repeat(depth / 2);
  const close = '}]'.repeat(depth / 2);
  return `${site.slice(0, -1)},"CardAssignments":${open}1${close}}`;
}

/** Sends raw bytes and resolves with what the server answers before closing (or after `waitMs`). */
function raw(url: string, text: string, waitMs = 5000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let got = '';
    const socket = connect(Number(port), hostname, () => socket.write(text));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(got);
    }, waitMs);
    socket.on('data', (d) => {
      got += d.toString();
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(got);
    });
    socket.on('error', () => undefined);
  });
}

test('a body nested deeper than 64 levels is 400 before anything is stored, in any field', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    const base = `/api/f/${api.instanceKey}/engagesites`;
    const post = (body: string) => api.call('POST', base, { body, headers: { 'Content-Type': 'application/json' } });
    const deep = await post(nestedSite(4500));
    assert.equal(deep.status, 400);
    assert.match(deep.body.Message, /nested deeper than 64/);
    const shallow = await post(nestedSite(40));
    assert.equal(shallow.status, 201, 'moderate nesting in unknown fields is kept');
    assert.equal((await api.get(base)).body.length, 1);
    // Brackets inside strings are text, whatever the escapes before a quote.
    const name = `${'['.repeat(100)} \\" ${'{'.repeat(100)} \\`;
    const bracketed = await post(JSON.stringify({ ...sample('engageSite'), CommonName: name, Tags: ['\\', '"[', '\\"{'] }));
    assert.equal(bracketed.status, 201, JSON.stringify(bracketed.body));
    assert.equal(bracketed.body.CommonName, name);
    assert.equal((await api.get('/api')).status, 200, 'still serving');
  });
});

test('a failed journal write fails that request alone: memory is put back and the next writes go through', async () => {
  await withFailingJournal(
    async (api, failNextWrite) => {
      const base = `/api/f/${api.instanceKey}/engagesites`;
      failNextWrite();
      const failed = await api.post(base, sample('engageSite', 'Lost'));
      assert.equal(failed.status, 500);
      assert.match(failed.body.Message, /disk full/);
      assert.deepEqual((await api.get(base)).body, [], 'memory does not run ahead of the file');
      const ok = await api.post(base, sample('engageSite', 'Kept'));
      assert.equal(ok.status, 201);
      failNextWrite();
      const stale = await api.put(ok.body.Href, { ...ok.body, SiteReference: 'lost' });
      assert.equal(stale.status, 500);
      assert.equal((await api.get(ok.body.Href)).body.ConcurrencyVersion, 1);
      assert.equal((await api.put(ok.body.Href, { ...ok.body, SiteReference: 'kept' })).status, 204);
    },
    async (api) => {
      const sites = (await api.get(`/api/f/${api.instanceKey}/engagesites`)).body;
      assert.deepEqual(
        sites.map((s: { CommonName: string; SiteReference: string }) => [s.CommonName, s.SiteReference]),
        [['Kept', 'kept']],
      );
    },
  );
});

test('a batch of 200,000 invalid items is refused within a second, naming the first indexes; others are served meanwhile', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    const items = Array.from({ length: 200_000 }, () => ({ Surname: 1 }));
    const started = Date.now();
    const batch = api.post(`/api/f/${api.instanceKey}/people/complex`, items);
    const other = api.get('/api/sysinfo', { token: null }).then(() => Date.now() - started);
    const res = await batch;
    const elapsed = Date.now() - started;
    assert.equal(res.status, 400);
    assert.match(res.body.Message, /^Items 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 \(and maybe more\) of the batch are invalid/);
    assert.ok(res.body.Errors.length <= 50);
    assert.ok(elapsed < 1000, `answered in ${elapsed} ms`);
    assert.ok((await other) < 1000);
    // Valid items up to an invalid one late in a big batch: the index is named.
    const late = Array.from({ length: 5000 }, (_, i) => person('Late', `Item ${i}`)) as unknown[];
    late[4321] = { ...person('Bad', 'Tag'), Tags: ['Has Capitals'] };
    const one = await api.post(`/api/f/${api.instanceKey}/people/complex`, late);
    assert.equal(one.status, 400);
    assert.match(one.body.Message, /^Item 4321 of the batch is invalid/);
    assert.equal(one.body.Errors[0].pointer, '/4321/Tags/0');
    assert.deepEqual((await api.get(`/api/f/${api.instanceKey}/people`)).body, []);
  });
});

test('slow clients get 408; a full server closes an idle connection for a newcomer, else 503; and keeps serving', async () => {
  await withSandbox({ seed: 'empty', headersTimeoutMs: 300, requestTimeoutMs: 600, maxConnections: 4 }, async (api) => {
    const host = new URL(api.sb.url).host;
    const slowHeaders = await raw(api.sb.url, `GET /api HTTP/1.1\r\nHost: ${host}\r\n`);
    assert.match(slowHeaders, /^HTTP\/1\.1 408/);
    const slowBody = await raw(
      api.sb.url,
      `POST /api/f/${api.instanceKey}/engagesites HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${api.sb.token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
    );
    assert.match(slowBody, /^HTTP\/1\.1 408/);

    // Full of idle connections: the oldest idle one is closed and the newcomer served.
    const { port } = new URL(api.sb.url);
    const open = () =>
      new Promise<Socket>((resolve) => {
        const s = connect(Number(port), '127.0.0.1', () => resolve(s));
      });
    const idle: Socket[] = [];
    for (let i = 0; i < 4; i++) idle.push(await open());
    const closed = new Promise((resolve) => idle[0].once('close', resolve));
    assert.match(await raw(api.sb.url, `GET /api/sysinfo HTTP/1.1\r\nHost: ${host}\r\n\r\n`, 1000), /^HTTP\/1\.1 200/);
    await closed;
    for (const s of idle) s.destroy();
    await new Promise((r) => setTimeout(r, 100));

    // Full of busy connections (a request waiting for its body): the newcomer gets 503.
    const busy: Socket[] = [];
    for (let i = 0; i < 4; i++) {
      const s = await open();
      s.write(
        `POST /api/f/${api.instanceKey}/engagesites HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${api.sb.token}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n',
      );
      busy.push(s);
    }
    await new Promise((r) => setTimeout(r, 50));
    try {
      const refused = await raw(api.sb.url, `GET /api/sysinfo HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      assert.match(refused, /^HTTP\/1\.1 503/);
    } finally {
      for (const s of busy) s.destroy();
    }
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await api.get('/api')).status, 200);
  });
});

test('only local Host names are answered (421 otherwise), and no CORS headers', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    const { port } = new URL(api.sb.url);
    const ask = (host: string) =>
      new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/api/sysinfo', headers: { Host: host, Origin: 'http://evil.example' } }, (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, headers: res.headers });
        });
        req.on('error', reject);
        req.end();
      });
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, 'localhost', `[::1]:${port}`]) {
      const res = await ask(host);
      assert.equal(res.status, 200, host);
      assert.ok(!Object.keys(res.headers).some((h) => h.startsWith('access-control-')), 'no CORS headers');
    }
    for (const host of [`evil.example:${port}`, 'attacker.example', `10.0.0.1:${port}`]) {
      assert.equal((await ask(host)).status, 421, host);
    }
  });
});

test('SIGTERM-style close ends promptly even with a request in flight', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    const host = new URL(api.sb.url).host;
    // A request whose body never comes.
    void raw(
      api.sb.url,
      `POST /api/f/${api.instanceKey}/engagesites HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${api.sb.token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n',
      10_000,
    );
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await api.sb.close();
    assert.ok(Date.now() - started < 5000, `closed in ${Date.now() - started} ms`);
  });
});

test('answers keep their keep-alive connection (GET, and a body read); a body left unread closes it', async () => {
  await withSandbox({ seed: 'empty' }, async (api) => {
    const { port } = new URL(api.sb.url);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    type Answer = { status: number; connection?: string; socketPort?: number };
    const send = (method: string, p: string, body?: string, token = api.sb.token) =>
      new Promise<Answer>((resolve, reject) => {
        const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
        if (body !== undefined) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
        const req = request({ host: '127.0.0.1', port, method, path: p, agent, headers }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, socketPort: res.socket?.localPort }));
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      const first = await send('GET', '/api');
      const second = await send('GET', `/api/f/${api.instanceKey}/engagesites`);
      assert.equal(first.connection, 'keep-alive');
      assert.equal(second.socketPort, first.socketPort, 'the same connection serves the next request');
      const created = await send('POST', `/api/f/${api.instanceKey}/engagesites`, JSON.stringify(sample('engageSite')));
      assert.equal(created.status, 201);
      assert.equal(created.connection, 'keep-alive');
      const refused = await send('POST', `/api/f/${api.instanceKey}/engagesites`, JSON.stringify(sample('engageSite')), 'wrong');
      assert.equal(refused.status, 401);
      assert.equal(refused.connection, 'close', 'a body not read is not left on the connection');
    } finally {
      agent.destroy();
    }
  });
});
