import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { sample, withSandbox } from './harness';

test('/sandbox/stats counts requests by method and route; the log has method, path, status and time, never a token, query or body', async () => {
  const lines: string[] = [];
  await withSandbox({ token: 'stats-secret-token', log: (line) => lines.push(line) }, async (api) => {
    const root = api.instanceKey;
    await api.get('/api');
    await api.get(`/api/f/${root}/inputscanners?page=0&pageSize=5&secretQuery=abc`);
    await api.get(`/api/f/${root}/inputscanners`);
    const created = await api.post(`/api/f/${root}/engagesites`, { ...sample('engageSite', 'Body Marker Site'), Description: 'body-marker' });
    assert.equal(created.status, 201);
    await api.get(`/api/f/${root}/engagesites/${created.body.Key}`);
    await api.get('/api/no/such/route');
    await api.get('/api', { token: 'wrong-token' });

    const stats = await api.get('/sandbox/stats');
    assert.equal(stats.status, 200);
    const { total, routes } = stats.body.requests as { total: number; routes: Record<string, number> };
    assert.equal(total, 7, 'every request answered before this one');
    assert.deepEqual(routes, {
      'GET (no route)': 1,
      'GET /api': 2,
      'GET /api/f/:folder/engagesites/:key': 1,
      'GET /api/f/:folder/inputscanners': 2,
      'POST /api/f/:folder/engagesites': 1,
    });
  });
  assert.equal(lines.length, 8);
  assert.match(lines[0], /^GET \/api 200 \d+ms$/);
  assert.match(lines[1], /^GET \/api\/f\/[0-9a-f]{24}\/inputscanners 200 \d+ms$/);
  assert.match(lines[3], /^POST \/api\/f\/[0-9a-f]{24}\/engagesites 201 \d+ms$/);
  assert.match(lines[5], /^GET \/api\/no\/such\/route 404 \d+ms$/);
  assert.match(lines[6], /^GET \/api 401 \d+ms$/);
  const all = lines.join('\n');
  for (const secret of ['stats-secret-token', 'wrong-token', 'secretQuery', 'body-marker', 'Body Marker'])
    assert.ok(!all.includes(secret), `"${secret}" in the log`);
});

test('oms-sandbox --log-requests <file>: one line per request in a file only the user can read', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'oms-reqlog-'));
  const logFile = path.join(dir, 'requests.log');
  const env = { ...process.env, OMS_SANDBOX_TOKEN: 'log-file-token' };
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.resolve(__dirname, '../../../src/sandbox/cli.ts'), '--port', '0', '--seed', 'empty', '--log-requests', logFile],
    { stdio: ['ignore', 'pipe', 'pipe'], env },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    err += d;
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    const until = Date.now() + 20_000;
    while (!out.includes('\n') && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const url = /listening on (\S+)/.exec(out)?.[1];
    assert.ok(url, out);
    assert.equal((await fetch(`${url}/api`, { headers: { Authorization: 'Bearer log-file-token' } })).status, 200);
    assert.equal((await fetch(`${url}/sandbox/stats`, { headers: { Authorization: 'Bearer log-file-token' } })).status, 200);
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal(await exit, 0);
  try {
    const text = await readFile(logFile, 'utf8');
    const lines = text.trim().split('\n');
    assert.equal(lines.length, 2, text);
    assert.match(lines[0], /^\d{4}-\d\d-\d\dT\S+Z GET \/api 200 \d+ms$/);
    assert.match(lines[1], /^\S+ GET \/sandbox\/stats 200 \d+ms$/);
    assert.ok(!text.includes('log-file-token'), 'the token is never logged');
    assert.equal((await stat(logFile)).mode & 0o077, 0, 'readable by the user alone');
    assert.equal(err, '', 'nothing on stderr without --verbose');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
