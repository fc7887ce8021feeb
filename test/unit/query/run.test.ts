/** The query core against a real sandbox: what matches, scope, pages reused through ETag (304), cancel, and errors with their place. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, Sandbox } from '../../../src/sandbox/server';
import { createHttp, RequestLog } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { kind, objectKinds } from '../../../src/model/kinds';
import type { InputScannerInfo } from '../../../src/model/types';
import { compileQuery, Query } from '../../../src/query/compile';
import { runQuery, Match, QueryCancelled, QueryProgress } from '../../../src/query/run';
import { PageCache } from '../../../src/query/pageCache';

let sb: Sandbox;
let client: OmsClient;
const requests: RequestLog[] = [];
const scanners = kind('inputScanner');

before(async () => {
  sb = await startSandbox({ port: 0, seed: 'demo' });
  client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token, log: (e) => requests.push(e) }));
});
after(() => sb.close());

function compiled(text: string, kinds = [scanners]): Query {
  const c = compileQuery(text, kinds);
  if ('error' in c) throw new Error(c.error.message);
  return c.query;
}

/** Every scanner below the instance, read by hand over REST, with its folder. */
async function allScanners(): Promise<InputScannerInfo[]> {
  const out: InputScannerInfo[] = [];
  const walk = async (folderKey: string) => {
    out.push(...(await client.listAll<InputScannerInfo>(scanners, folderKey)));
    for (const f of await client.listAll(kind('folder'), folderKey)) await walk(f.Key!);
  };
  await walk(sb.instanceKey);
  return out;
}

async function collect(query: Query, subfolders = true, cache?: PageCache, kinds = [scanners]): Promise<Match[]> {
  const found: Match[] = [];
  await runQuery(client, query, { folderKey: sb.instanceKey, subfolders, kinds }, { cache, onMatches: (m) => found.push(...m) });
  return found;
}

test('a content query finds exactly the scanners a filter written by hand finds, across subfolders', async () => {
  const all = await allScanners();
  assert.ok(all.length >= 8, 'the demo has scanners in several folders');
  // Give two scanners a priority-1 row reporting status 1 (Active): the question users ask (the samples report Active at priority 0).
  for (const s of all.slice(1, 3)) {
    const live = await client.get<InputScannerInfo>(scanners, s.InFolderKey!, s.Key!);
    Object.assign(live.InputScannerReportingPriorities[2], { Priority: 1, StatusCode: 1 });
    await client.update(scanners, live);
  }
  const activeAtOne = (s: InputScannerInfo) => s.InputScannerReportingPriorities.some((r) => r.Priority === 1 && r.StatusCode === 1);
  const byHand = (await allScanners())
    .filter(activeAtOne)
    .map((s) => s.Key)
    .sort();
  assert.ok(byHand.length >= 2);
  const found = await collect(compiled('InputScannerReportingPriorities[?Priority == `1` && StatusCode == `1`]'));
  assert.deepEqual(found.map((m) => m.key).sort(), byHand);
  assert.ok(found.every((m) => m.kind === scanners && m.object.InFolderKey === m.folderKey));
});

test('without subfolders only the folder itself is read', async () => {
  const sites = kind('engageSite');
  const inRoot = (await client.listAll(sites, sb.instanceKey)).map((o) => o.Key).sort();
  const found = await collect(compiled('CommonName', [sites]), false, undefined, [sites]);
  assert.ok(inRoot.length > 0);
  assert.deepEqual(found.map((m) => m.key).sort(), inRoot);
  const everywhere = await collect(compiled('CommonName', [sites]), true, undefined, [sites]);
  assert.ok(everywhere.length > found.length, 'the demo keeps engage sites in subfolders');
});

test('only the kinds asked for are read; a query over several kinds knows the fields of each', async () => {
  requests.length = 0;
  const people = kind('person');
  const c = compileQuery("Surname == 'Smith' || InputScannerReportingPriorities", [people, scanners]);
  assert.ok(!('error' in c) && c.warnings.length === 0);
  const found = await collect(compiled('Surname', [people]), true, undefined, [people]);
  assert.ok(found.length > 0 && found.every((m) => m.kind === people));
  assert.ok(
    requests.every((r) => !r.path.includes('/inputscanners')),
    'no scanner page was read',
  );
});

test('asking again reuses the pages held: every page is answered 304 and nothing is parsed again; a changed page is read', async () => {
  const cache = new PageCache();
  const q = compiled('InputScannerReportingPriorities[?Priority == `1`]');
  const first = await collect(q, true, cache);
  requests.length = 0;
  const again = await collect(compiled('InputScannerReportingPriorities[?Priority == `1` && StatusCode == `1`]'), true, cache);
  const scannerGets = requests.filter((r) => r.path.includes('/inputscanners'));
  assert.ok(scannerGets.length > 0 && scannerGets.every((r) => r.status === 304), `all 304: ${scannerGets.map((r) => r.status).join(',')}`);
  assert.ok(again.length <= first.length);
  // A scanner changed on the server: its page is read again (200) and the change is seen.
  const target = (await allScanners()).find((s) => !again.some((m) => m.key === s.Key))!;
  const live = await client.get<InputScannerInfo>(scanners, target.InFolderKey!, target.Key!);
  Object.assign(live.InputScannerReportingPriorities[5], { Priority: 1, StatusCode: 1 });
  await client.update(scanners, live);
  requests.length = 0;
  const third = await collect(compiled('InputScannerReportingPriorities[?Priority == `1` && StatusCode == `1`]'), true, cache);
  assert.ok(
    third.some((m) => m.key === target.Key),
    'the changed scanner now matches',
  );
  assert.ok(requests.some((r) => r.path.includes(`/f/${target.InFolderKey}/inputscanners`) && r.status === 200));
});

/** Every object of `kinds` below the instance by hand over REST, in a run's order: folder by folder (breadth first), kind by kind. */
async function inRunOrder(kinds = [kind('person'), scanners]): Promise<string[]> {
  const order: string[] = [];
  const folders = [sb.instanceKey];
  for (let i = 0; i < folders.length; i++) {
    for (const k of kinds) for (const o of await client.listAll(k, folders[i])) order.push(`${k.id} ${o.Key}`);
    for (const f of await client.listAll(kind('folder'), folders[i])) folders.push(f.Key!);
  }
  return order;
}

let last: QueryProgress | undefined;
/** A run of `Key` (every object matches) over people and scanners in pages of 3, as `kind key` in the order matched. */
async function everyObject(cache?: PageCache, signal?: AbortSignal, onMatches?: (m: Match[]) => void): Promise<string[]> {
  const found: string[] = [];
  last = await runQuery(
    client,
    compiled('Key', [kind('person'), scanners]),
    { folderKey: sb.instanceKey, subfolders: true, kinds: [kind('person'), scanners] },
    {
      cache,
      signal,
      pageSize: 3,
      onMatches: (m) => {
        found.push(...m.map((x) => `${x.kind.id} ${x.key}`));
        onMatches?.(m);
      },
    },
  );
  return found;
}

test('results are the same and in the same order read from the server, from the bytes held (304) and from the objects kept parsed', async () => {
  const byHand = await inRunOrder();
  assert.ok(byHand.length > 20);
  const cache = new PageCache();
  assert.deepEqual(await everyObject(cache), byHand, 'read from the server');
  assert.ok(cache.size >= byHand.length && cache.parsed === 0, 'the pages are held as bytes');
  assert.deepEqual(await everyObject(cache), byHand, 'from the bytes held');
  assert.ok(last!.pages > 20 && last!.unchangedPages === last!.pages, 'every page matched was answered 304');
  await cache.settled();
  assert.ok(cache.parsed >= byHand.length, 'after a run the pages held are parsed in the background');
  assert.deepEqual(await everyObject(cache), byHand, 'from the objects kept parsed');
  assert.ok(last!.unchangedPages === last!.pages);
});

test('a cache smaller than the scope holds no more than its bound, and the next run reads the pages it could not keep: the same results', async () => {
  const byHand = await inRunOrder();
  const full = new PageCache();
  await everyObject(full);
  const cache = new PageCache(Math.floor(full.bytes / 2), 10);
  assert.deepEqual(await everyObject(cache), byHand);
  assert.ok(cache.bytes <= full.bytes / 2 && cache.size > 0 && cache.size < full.size, `${cache.bytes} of ${full.bytes} bytes`);
  await cache.settled();
  assert.deepEqual(await everyObject(cache), byHand, 'answered partly from the cache, partly from the server');
  assert.ok(last!.unchangedPages > 0 && last!.unchangedPages < last!.pages, `${last!.unchangedPages} of ${last!.pages} pages answered 304`);
  assert.ok(cache.parsed > 0 && cache.parsed <= 10, `kept parsed: ${cache.parsed}`);
  assert.deepEqual(await everyObject(cache), byHand);
});

test('cancel while pages are in flight stops the run: nothing is matched after it, from the server or from the cache', async () => {
  for (const cache of [undefined, new PageCache()]) {
    if (cache) await everyObject(cache); // then every page is answered 304
    const abort = new AbortController();
    let after = 0;
    await assert.rejects(
      everyObject(cache, abort.signal, () => {
        if (abort.signal.aborted) after++;
        else abort.abort(); // the next page and the next collection's first are asked for by now
      }),
      QueryCancelled,
    );
    assert.equal(after, 0);
  }
});

test('the cache holds at most its limit of bytes: a page that does not fit is not kept, unless pages idle for 5 minutes make room', () => {
  let clock = 0;
  const cache = new PageCache(5, 0, () => clock);
  const page = (n: number) => ({ etag: String(n), packed: Buffer.alloc(n), objects: n * 10 });
  cache.set('a', page(3));
  cache.set('b', page(2));
  cache.set('c', page(2));
  assert.deepEqual([cache.bytes, cache.size], [5, 50]);
  assert.equal(cache.get('c'), undefined, 'a full cache keeps what it holds: a run reading pages in order reuses them next time');
  clock = 4 * 60_000;
  cache.get('a');
  clock = 6 * 60_000;
  cache.set('c', page(2));
  assert.ok(cache.get('a') && cache.get('c'), 'b, idle for 6 minutes, made room');
  assert.equal(cache.get('b'), undefined);
  assert.deepEqual([cache.bytes, cache.size], [5, 50]);
});

test('progress is reported after every page with counts, and cancel stops the run between pages', async () => {
  const seen: number[] = [];
  const progress = await runQuery(
    client,
    compiled('Key'),
    { folderKey: sb.instanceKey, subfolders: true, kinds: objectKinds.filter((k) => k.operations.includes('list')) },
    {
      pageSize: 5,
      onProgress: (p) => seen.push(p.scanned),
    },
  );
  assert.ok(seen.length > 3 && seen.every((n, i) => i === 0 || n >= seen[i - 1]));
  assert.equal(progress.scanned, seen.at(-1));
  const abort = new AbortController();
  let pages = 0;
  await assert.rejects(
    runQuery(
      client,
      compiled('Key'),
      { folderKey: sb.instanceKey, subfolders: true, kinds: [kind('person')] },
      {
        pageSize: 5,
        signal: abort.signal,
        onProgress: () => {
          if (++pages === 2) abort.abort();
        },
      },
    ),
    QueryCancelled,
  );
  assert.equal(pages, 2, 'no page was matched after cancel');
});

test('an object whose evaluation fails does not match, and the failure is counted with its reason', async () => {
  const progress = await runQuery(client, compiled('length(NoSuchField) > `0`'), { folderKey: sb.instanceKey, subfolders: true, kinds: [scanners] });
  assert.equal(progress.matched, 0);
  assert.ok(progress.failed > 0 && /length\(\)/.test(progress.firstFailure ?? ''), progress.firstFailure);
});

test('an invalid query says what is wrong and where', () => {
  const c = compileQuery('InputScannerReportingPriorities[?Priority == `1`', [scanners]);
  assert.ok('error' in c);
  assert.match(c.error.message, /expected '\]'/);
  assert.equal(c.error.position, 48);
  const pipe = compileQuery('CommonName || x ||| y', [scanners]);
  assert.ok('error' in pipe && pipe.error.position === 18, JSON.stringify(pipe));
  const fn = compileQuery('lenght(Tags) > `1`', [scanners]);
  assert.ok('error' in fn && fn.error.position === 0 && fn.error.length === 6 && /lenght\(\)/.test(fn.error.message));
  assert.ok('error' in compileQuery('  ', [scanners]));
});

test('a field the schema does not know is a warning with the nearest names, placed on the field, nested ones too', () => {
  const c = compileQuery('InputScannerReportingPriorities[?Priorty == `1`] && CommonNam', [scanners]);
  assert.ok(!('error' in c));
  assert.deepEqual(
    c.warnings.map((w) => [w.position, w.length]),
    [
      [33, 7],
      [52, 9],
    ],
  );
  assert.match(c.warnings[0].message, /Priorty is not a field of InputScannerReportingPriorities.*nearest: Priority/);
  assert.match(c.warnings[1].message, /CommonNam is not a field of input scanner.*nearest: CommonName/);
  assert.deepEqual(c.query.columns, ['InputScannerReportingPriorities']);
});
