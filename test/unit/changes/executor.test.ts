/**
 * The executor against a real sandbox: every change applied exactly once (the server's
 * versions and its request log say so), throttling with Retry-After, failures with the
 * service's text, stop on error, cancel, stale preconditions.
 */
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, Sandbox } from '../../../src/sandbox/server';
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { Change, ChangeResult, RunProgress, runChanges } from '../../../src/changes/executor';
import { kind } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';
import type { BaseInfo, InputScannerInfo } from '../../../src/model/types';
import { Api } from '../sandbox/harness';

const scannerKind = kind('inputScanner');
const count = 40;
let sb: Sandbox;
let api: Api;
let client: OmsClient;
let folderKey: string;
/** Sandbox request log: "METHOD path status time". */
let served: string[] = [];
/** Called per request the sandbox served, to arm faults mid-run. */
let onServed: ((line: string) => void) | undefined;
let scanners: Array<BaseInfo & { Key: string }> = [];

before(async () => {
  sb = await startSandbox({
    port: 0,
    seed: 'empty',
    log: (line) => {
      served.push(line);
      onServed?.(line);
    },
  });
  api = new Api(sb);
  client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token, backoffMs: 10 }));
  folderKey = sb.instanceKey;
  for (let i = 0; i < count; i++) {
    const res = await api.post(`/api/f/${folderKey}/inputscanners`, newObject(scannerKind, `Door ${i}`));
    assert.equal(res.status, 201, res.text);
  }
});
after(() => sb.close());
beforeEach(async () => {
  await api.delete('/sandbox/faults');
  scanners = (await api.listAll(folderKey, 'inputscanners')) as typeof scanners;
  served = [];
  onServed = undefined;
});

/** The bulk edit "NonSettlingErrorPriority = value", planned without a precondition. */
function setPriority(objects: Array<BaseInfo & { Key: string }>, value: number, extra?: (live: BaseInfo) => void): Change[] {
  return objects.map((o) => ({
    id: o.Key,
    label: o.CommonName ?? o.Key,
    kind: scannerKind,
    folderKey,
    key: o.Key,
    op: 'update',
    build: (live) => {
      extra?.(live!);
      return live!.NonSettlingErrorPriority === value ? { skip: 'already set' } : { ...live!, NonSettlingErrorPriority: value };
    },
  }));
}

async function versions(): Promise<Map<string, number>> {
  return new Map((await api.listAll(folderKey, 'inputscanners')).map((o) => [o.Key!, o.ConcurrencyVersion ?? 0]));
}

/** Successful PUTs per object key, from the server's own log. */
function writesPerKey(): Map<string, number> {
  const writes = new Map<string, number>();
  for (const line of served) {
    const m = /^PUT \/api\/f\/[^/]+\/inputscanners\/([^/ ]+) 2\d\d /.exec(line);
    if (m) writes.set(m[1], (writes.get(m[1]) ?? 0) + 1);
  }
  return writes;
}

const outcomes = (results: ChangeResult[]) => results.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.outcome]: (acc[r.outcome] ?? 0) + 1 }), {});

test('every object is written once: versions up by exactly one, results per object with before and after', async () => {
  const was = await versions();
  const progress: RunProgress[] = [];
  const results = await runChanges(client, setPriority(scanners, 7), { stopOnError: false, onProgress: (p) => progress.push(p) });
  assert.deepEqual(outcomes(results), { applied: count });
  const now = await versions();
  for (const [key, v] of now) assert.equal(v, was.get(key)! + 1, key);
  assert.deepEqual(
    [...writesPerKey().values()].filter((n) => n !== 1),
    [],
  );
  assert.equal(writesPerKey().size, count);
  for (const r of results) {
    assert.equal(r.after?.ConcurrencyVersion, (r.before?.ConcurrencyVersion ?? 0) + 1);
    assert.equal((r.after as InputScannerInfo).NonSettlingErrorPriority, 7);
  }
  assert.deepEqual(progress.at(-1), { done: count, total: count, failed: 0 });
});

test('a change with nothing to send sends nothing and says why', async () => {
  const results = await runChanges(client, setPriority(scanners, scanners[0].NonSettlingErrorPriority as number), { stopOnError: false });
  assert.deepEqual(outcomes(results), { unchanged: count });
  assert.equal(results[0].reason, 'already set');
  assert.equal(writesPerKey().size, 0);
});

test('429 with Retry-After: the run waits as told (progress shows it) and still writes each object exactly once', async () => {
  const was = await versions();
  await api.post('/sandbox/faults', { path: '/api/f/', status: 429, count: 3, retryAfter: 1 });
  // More throttles mid-run, so they also land between an object's read and its write.
  const rearm = new Set([10, 20, 30]);
  let ended = 0;
  const waits: number[] = [];
  const started = Date.now();
  const results = await runChanges(client, setPriority(scanners, 3), {
    stopOnError: false,
    onProgress: (p) => p.waitingSeconds && waits.push(p.waitingSeconds),
    onResult: () => {
      if (rearm.has(++ended)) void api.post('/sandbox/faults', { path: '/api/f/', status: 429, count: 1, retryAfter: 1 });
    },
  });
  assert.deepEqual(outcomes(results), { applied: count }, JSON.stringify(results.filter((r) => r.outcome !== 'applied')));
  assert.ok(waits.length >= 1 && waits.every((s) => s === 1), `waits shown: ${waits.join(',')}`);
  assert.ok(Date.now() - started >= 1000, 'the Retry-After second was waited');
  assert.ok(
    served.some((l) => / 429 /.test(l)),
    'the server did answer 429',
  );
  const now = await versions();
  for (const [key, v] of now) assert.equal(v, was.get(key)! + 1, `${key}: once`);
  assert.deepEqual(
    [...writesPerKey().values()].filter((n) => n !== 1),
    [],
    'no duplicate writes',
  );
});

test('many 429s: waits overlap (the count moves while objects wait), each object applied once, a throttled write resent only after a fresh read', async () => {
  const was = await versions();
  await api.post('/sandbox/faults', { path: '/api/f/', status: 429, count: 2, retryAfter: 1 });
  // About one request in ten answered 429, reads and writes alike.
  let apiRequests = 0,
    armed = 0;
  onServed = (line) => {
    if (/^\S+ \/api\/f\//.test(line) && ++apiRequests % 10 === 0 && armed++ < 12)
      void api.post('/sandbox/faults', { path: '/api/f/', status: 429, count: 1, retryAfter: 1 });
  };
  const progress: RunProgress[] = [];
  const results = await runChanges(client, setPriority(scanners, 2), { stopOnError: false, onProgress: (p) => progress.push(p) });
  assert.deepEqual(outcomes(results), { applied: count }, JSON.stringify(results.filter((r) => r.outcome !== 'applied')));

  const api429 = served.filter((l) => /^\S+ \/api\/f\/\S+ 429 /.test(l));
  assert.ok(api429.length >= 8, `throttled ${api429.length} times`);
  const now = await versions();
  for (const [key, v] of now) assert.equal(v, was.get(key)! + 1, `${key}: once`);
  assert.deepEqual(
    [...writesPerKey().values()].filter((n) => n !== 1),
    [],
    'one successful write per object',
  );
  // Writes sent: one per object, plus one per write the server throttled; never one without a read before it.
  const puts = served.filter((l) => l.startsWith('PUT /api/f/'));
  assert.equal(puts.length, count + api429.filter((l) => l.startsWith('PUT ')).length);
  for (const key of now.keys()) {
    const mine = served.filter((l) => l.includes(`/inputscanners/${key} `)).map((l) => l.split(' ')[0]);
    mine.forEach((method, i) => {
      if (method === 'PUT') assert.equal(mine[i - 1], 'GET', `${key}: ${mine.join(' ')}`);
    });
  }
  // Waits overlap: objects kept ending while others waited out their Retry-After, shown as "waiting 1 s".
  const whileWaiting = new Set(progress.filter((p) => p.waitingSeconds).map((p) => p.done));
  assert.ok(whileWaiting.size >= count / 2, `${whileWaiting.size} of ${count} objects ended while another waited`);
  assert.ok(progress.every((p) => !p.waitingSeconds || p.waitingSeconds === 1));
});

test("500 to ten requests, continue on error: ten objects fail with the service's text, the others apply; Retry Failed sends exactly those ten", async () => {
  const was = await versions();
  await api.post('/sandbox/faults', { path: '/api/f/', status: 500, count: 10 });
  const changes = setPriority(scanners, 5);
  const results = await runChanges(client, changes, { stopOnError: false });
  const failed = results.filter((r) => r.outcome === 'failed');
  assert.equal(failed.length, 10);
  for (const r of failed) assert.match(r.reason ?? '', /500: Injected fault: status 500/);
  assert.equal(results.filter((r) => r.outcome === 'applied').length, count - 10);
  const mid = await versions();
  for (const r of results) assert.equal(mid.get(r.id), was.get(r.id)! + (r.outcome === 'applied' ? 1 : 0), r.id);

  served = [];
  const again = changes.filter((c) => failed.some((f) => f.id === c.id));
  const retried = await runChanges(client, again, { stopOnError: false });
  assert.deepEqual(outcomes(retried), { applied: 10 });
  assert.deepEqual([...writesPerKey().keys()].sort(), failed.map((f) => f.id).sort(), 'requests for exactly the failed ones');
  const now = await versions();
  for (const [key, v] of now) assert.equal(v, was.get(key)! + 1, key);
});

test('stop on error: after the first failure nothing more starts; the rest is "not sent" and untouched', async () => {
  const was = await versions();
  await api.post('/sandbox/faults', { path: '/api/f/', status: 500, count: 1 });
  const results = await runChanges(client, setPriority(scanners, 9), { stopOnError: true, concurrency: 1 });
  assert.deepEqual(outcomes(results), { failed: 1, notSent: count - 1 });
  assert.match(results[1].reason ?? '', /stopped/);
  assert.deepEqual(await versions(), was);
});

test('cancel: requests in flight finish, the rest end "not sent"; versions moved for exactly the applied ones', async () => {
  const was = await versions();
  const controller = new AbortController();
  let ended = 0;
  const results = await runChanges(client, setPriority(scanners, 4), {
    stopOnError: false,
    signal: controller.signal,
    onResult: () => {
      if (++ended === 12) controller.abort();
    },
  });
  const counts = outcomes(results);
  assert.equal((counts.applied ?? 0) + (counts.notSent ?? 0), count);
  assert.ok(counts.applied >= 12 && counts.notSent > 0, JSON.stringify(counts));
  const now = await versions();
  for (const r of results) assert.equal(now.get(r.id), was.get(r.id)! + (r.outcome === 'applied' ? 1 : 0), `${r.id} ${r.outcome}`);
});

test('a change planned against a version the server moved past is stale: nothing sent, the other edit kept', async () => {
  const [one] = scanners;
  const edited = { ...one, CommonName: 'Edited over REST' };
  assert.equal((await api.put(`/api/f/${folderKey}/inputscanners/${one.Key}`, edited)).status, 204);
  served = [];
  const change: Change = { ...setPriority([one], 8)[0], baseVersion: one.ConcurrencyVersion };
  const [result] = await runChanges(client, [change], { stopOnError: false });
  assert.equal(result.outcome, 'stale');
  assert.match(result.reason ?? '', new RegExp(`version ${one.ConcurrencyVersion} expected, ${one.ConcurrencyVersion! + 1} found`));
  assert.equal(writesPerKey().size, 0);
  const now = (await api.get(`/api/f/${folderKey}/inputscanners/${one.Key}`)).body as InputScannerInfo;
  assert.equal(now.CommonName, 'Edited over REST');
});

test('a change the checks refuse (an identifying field edited) fails with the reason and sends nothing', async () => {
  const [one] = scanners;
  const change: Change = { id: one.Key, label: 'x', kind: scannerKind, folderKey, key: one.Key, op: 'update', build: (live) => ({ ...live!, Key: 'other' }) };
  const [result] = await runChanges(client, [change], { stopOnError: false });
  assert.equal(result.outcome, 'failed');
  assert.match(result.reason ?? '', /Key cannot be changed/);
  assert.equal(writesPerKey().size, 0);
});
