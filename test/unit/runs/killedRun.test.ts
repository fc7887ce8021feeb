/**
 * Write-ahead for real: a run in a child process is killed while the server has applied writes
 * whose answers are held back (a proxy delays them), so the run never hears of them. Every
 * object the server shows written is named in the journal: applied, or "unknown" (may have been
 * written), and Undo Run then covers them.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, Sandbox } from '../../../src/sandbox/server';
import { RunJournal } from '../../../src/changes/runJournal';
import { undoPlan } from '../../../src/changes/bulk';
import { kind } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';
import type { BaseInfo } from '../../../src/model/types';
import { Api } from '../sandbox/harness';

const scanner = kind('inputScanner');
let sb: Sandbox;
let api: Api;
let proxy: Server;

before(async () => {
  sb = await startSandbox({ port: 0, seed: 'empty' });
  api = new Api(sb);
  const target = new URL(sb.url);
  // Answers to writes come back a second late: the server has applied them, the run has not heard.
  proxy = createServer((req, res) => {
    const out = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () =>
        setTimeout(
          () => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(chunks));
          },
          req.method === 'GET' ? 0 : 1000,
        ),
      );
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
});
after(() => {
  proxy.closeAllConnections();
  proxy.close();
  return sb.close();
});

test('a run killed after writes landed unanswered: its journal names every object the server shows written', async () => {
  const folderKey = sb.instanceKey;
  const keys: string[] = [];
  for (let i = 0; i < 40; i++) keys.push((await api.post(`/api/f/${folderKey}/inputscanners`, newObject(scanner, `Door ${i}`))).body.Key as string);
  const dir = join(await mkdtemp(join(tmpdir(), 'oms-killed-')), 'runs');
  const port = (proxy.address() as { port: number }).port;
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'killedRunChild.ts')], {
    env: { ...process.env, OMS_URL: `http://127.0.0.1:${port}`, OMS_TOKEN: sb.token, OMS_DIR: dir, OMS_FOLDER: folderKey, OMS_KEYS: keys.join(',') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  // Killed while the second wave of writes is applied on the server and unanswered.
  const landed = async () => {
    let n = 0;
    for (const key of keys) if (((await api.get(`/api/f/${folderKey}/inputscanners/${key}`)).body as BaseInfo).Tags?.includes('killed')) n++;
    return n;
  };
  for (let i = 0; i < 200 && !/applied/.test(out); i++) await new Promise((r) => setTimeout(r, 50));
  for (let i = 0; i < 200 && (await landed()) <= out.split('applied').length - 1; i++) await new Promise((r) => setTimeout(r, 20));
  child.kill('SIGKILL');
  await once(child, 'exit');
  await new Promise((r) => setTimeout(r, 300));

  const written = [];
  for (const key of keys) if (((await api.get(`/api/f/${folderKey}/inputscanners/${key}`)).body as BaseInfo).Tags?.includes('killed')) written.push(key);
  const runId = /run (\S+)/.exec(out)![1];
  const { entries } = await new RunJournal(dir).read(runId);
  const named = new Map(entries.map((e) => [e.key, e.outcome]));
  assert.ok(written.length > 0 && written.length < keys.length, `killed mid-way: ${written.length} of ${keys.length} written`);
  const reported = written.filter((k) => named.get(k) === 'applied').length;
  assert.ok(reported < written.length, `some writes landed without their answer: ${reported} reported of ${written.length} written`);
  for (const key of written)
    assert.ok(named.get(key) === 'applied' || named.get(key) === 'unknown', `${key} written on the server, journal says ${named.get(key)}`);

  // Undo covers them all: each unknown one is put back where the server holds what was sent.
  const undo = undoPlan(entries, (id) => kind(id));
  const covered = new Set(undo.changes.map((c) => c.key));
  for (const key of written) assert.ok(covered.has(key), `${key} is in the undo`);
  assert.ok(
    undo.notes.some((n) => /may have changed it/.test(n.note)),
    'the undo says which outcomes are unknown',
  );
});
