/** Pull as Files against a real sandbox: a folder into one canonical file per object, in pages, cancellable, bound to its connection. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHttp } from '../../../../src/api/http';
import { OmsClient } from '../../../../src/api/client';
import { canonicalText } from '../../../../src/changes/code/fileForm';
import { type ConnectionBinding, manifestName, readManifest } from '../../../../src/changes/code/manifest';
import { makePlan } from '../../../../src/changes/code/plan';
import { bindingOf, pull } from '../../../../src/changes/code/pull';
import { kind } from '../../../../src/model/kinds';
import { newObject } from '../../../../src/model/templates';
import type { BaseInfo } from '../../../../src/model/types';
import { withSandbox } from '../../sandbox/harness';
import { api, client, requests, binding, floor1, root, scanners, scope, scannerFiles, editFile, live, keyOf, snapshot } from './fixture';

test('pull: one canonical file <name>.<Key>.json per object, a manifest bound to the connection, the cache kept out of git; listing in pages', async () => {
  const report = await pull(client, root, binding, { scope: scope() });
  const onServer = await api.listAll(floor1, 'inputscanners');
  const pulled = await scannerFiles();
  assert.equal(pulled.length, onServer.length);
  assert.equal(report.objects, onServer.length);
  for (const o of onServer) {
    const file = pulled.find((f) => f.endsWith(`.${o.Key}.json`));
    assert.ok(file, `a file for ${o.CommonName}`);
    assert.match(path.basename(file), /^[a-z0-9-]+\.[0-9a-f]{24}\.json$/);
    const text = await fs.readFile(path.join(root, file), 'utf8');
    assert.equal(text, canonicalText(scanners, JSON.parse(text) as BaseInfo), 'canonical text');
    assert.ok(text.endsWith('}\n') && !text.includes('\r'));
    const obj = JSON.parse(text) as Record<string, unknown>;
    for (const f of ['ConcurrencyVersion', 'Notes', 'Links', 'Href', 'InFolderHref', 'InFolderKey']) assert.ok(!(f in obj), `${f} stays out of the file`);
    assert.deepEqual(Object.keys(obj).slice(0, 3), ['$type', 'Key', 'CommonName']);
  }
  const manifest = (await readManifest(root))!;
  assert.deepEqual(manifest.connection, binding);
  const first = onServer[0];
  assert.equal(manifest.objects.get(first.Key!)!.version, first.ConcurrencyVersion);
  assert.equal(manifest.objects.get(first.Key!)!.kind, 'inputScanner');
  assert.equal(await fs.readFile(path.join(root, '.oms', '.gitignore'), 'utf8'), '*\n');
  assert.ok(requests.every((r) => r.method === 'GET'));
  assert.ok(requests.length <= 4, `a handful of requests (${requests.length}), not one per object`);
});
test('a second pull with nothing changed writes no byte; an edited file is kept unless the user overwrites edits', async () => {
  await pull(client, root, binding, { scope: scope() });
  const firstTexts = await snapshot();
  const again = await pull(client, root, binding, {});
  assert.equal(again.written, 0);
  assert.equal(again.bytesWritten, 0);
  assert.deepEqual(await snapshot(), firstTexts, 'every file, the manifest included, byte for byte');

  const [one] = await scannerFiles();
  await editFile(one, (o) => {
    o.NonSettlingErrorPriority = 7;
  });
  const kept = await pull(client, root, binding, {});
  assert.deepEqual(kept.keptEdits, [one]);
  assert.match(await fs.readFile(path.join(root, one), 'utf8'), /"NonSettlingErrorPriority": 7/);
  const overwritten = await pull(client, root, binding, { overwriteEdits: true });
  assert.equal(overwritten.written, 1);
  assert.equal(await fs.readFile(path.join(root, one), 'utf8'), firstTexts.get(one));
});
test('a pull again asks for each page with its tag: a page the server answers 304 to costs nothing more; a changed page or file is read whole', async () => {
  await pull(client, root, binding, { scope: scope() });
  // Files written in the tick of the clock their stats were recorded in are read once more (as git's index does): then they are known.
  await new Promise((r) => setTimeout(r, 50));
  await pull(client, root, binding, {});
  const pages = () => requests.filter((r) => r.path.startsWith(`/api/f/${floor1}/inputscanners?`)).map((r) => r.status);
  const manifestFile = path.join(root, manifestName);
  const before = await snapshot();
  const manifestTime = (await fs.stat(manifestFile)).mtimeMs;
  const tagsFile = path.join(root, '.oms', 'pages');
  const tagsStat = await fs.stat(tagsFile);
  const [a, b] = await scannerFiles();

  requests.length = 0;
  const again = await pull(client, root, binding, {});
  assert.deepEqual(pages(), [304], 'the one page, unchanged');
  assert.equal(again.objects, (await scannerFiles()).length, 'its objects counted as listed');
  assert.equal(again.written, 0);
  assert.deepEqual(await snapshot(), before);
  assert.equal((await fs.stat(manifestFile)).mtimeMs, manifestTime, 'the manifest not written again');
  const tagsNow = await fs.stat(tagsFile);
  assert.deepEqual([tagsNow.ino, tagsNow.mtimeMs], [tagsStat.ino, tagsStat.mtimeMs], 'nor the page records');

  // Edited here, the same on the server: the page is read whole, and the edit kept and named.
  await editFile(a, (o) => {
    o.NonSettlingErrorPriority = 6;
  });
  requests.length = 0;
  const edited = await pull(client, root, binding, {});
  assert.deepEqual(pages(), [304, 200]);
  assert.deepEqual(edited.keptEdits, [a]);

  // Changed on the server: a new page, its file written.
  await fs.writeFile(path.join(root, a), before.get(a)!);
  const moved = { ...(await live(keyOf(b))), NonSettlingErrorPriority: 7 };
  await api.put(`/api/f/${floor1}/inputscanners/${keyOf(b)}`, moved);
  requests.length = 0;
  const changed = await pull(client, root, binding, {});
  assert.deepEqual(pages(), [200]);
  assert.equal(changed.written, 1);
  assert.equal(JSON.parse(await fs.readFile(path.join(root, b), 'utf8')).NonSettlingErrorPriority, 7);

  // The cache is untrusted: a record of another shape (a tag that would break the header, Keys that are not text) is not used.
  const [line] = (await fs.readFile(tagsFile, 'utf8')).split('\n');
  const record = JSON.parse(line) as { etag: string; keys: unknown[] };
  await fs.writeFile(
    tagsFile,
    [
      { ...record, etag: `${record.etag}\r\nX-Injected: 1` },
      { ...record, keys: record.keys.map(() => 1) },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n'),
  );
  requests.length = 0;
  const forged = await pull(client, root, binding, {});
  assert.deepEqual(pages(), [200]);
  assert.equal(forged.written, 0);
  requests.length = 0;
  await pull(client, root, binding, {});
  assert.deepEqual(pages(), [304], 'recorded again');
});
test('a cancelled pull keeps what it wrote; the next pull finishes it', async () => {
  const stop = new AbortController();
  stop.abort();
  const report = await pull(client, root, binding, { scope: scope(), signal: stop.signal });
  assert.equal(report.cancelled, true);
  assert.equal((await scannerFiles()).length, 0);
  const resumed = await pull(client, root, binding, {});
  assert.equal(resumed.cancelled, false);
  assert.equal((await scannerFiles()).length, (await api.listAll(floor1, 'inputscanners')).length);
});
test('cancelled between pages: what was written is recorded; the next pull writes only the rest, no file twice', async () => {
  await withSandbox({ seed: 'empty' }, async (big) => {
    const bigClient = new OmsClient(createHttp({ baseUrl: big.sb.url, token: () => big.sb.token }));
    const total = 2100; // five pages of a pull: 500 each, then 100
    let made = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (made < total) await bigClient.create(scanners, big.instanceKey, newObject(scanners, `Scanner ${made++}`));
      }),
    );
    const bigBinding = await bindingOf(bigClient, 'Big', big.sb.url);
    const stop = new AbortController();
    // Cancel pressed as the fifth page is asked for: the fourth is on its way to the disk.
    const listBytes = bigClient.listBytesIf.bind(bigClient);
    bigClient.listBytesIf = (k, folderKey, page, pageSize, etag, signal) => {
      if (page === 4) stop.abort();
      return listBytes(k, folderKey, page, pageSize, etag, signal);
    };
    const progress: number[] = [];
    const first = await pull(bigClient, root, bigBinding, {
      scope: { folderKey: big.instanceKey, recursive: false, kinds: [scanners.id] },
      signal: stop.signal,
      onProgress: (p) => progress.push(p.written),
    });
    assert.equal(first.cancelled, true);
    assert.equal(first.written, 2000, 'the four pages read before Cancel');
    assert.equal(progress.at(-1), 2000, 'progress counts files once written');
    assert.ok(
      progress.every((n, i) => i === 0 || n > progress[i - 1]),
      `progress rises: ${progress.join(', ')}`,
    );
    const kept = await scannerFiles();
    assert.equal(kept.length, first.written);
    assert.deepEqual(
      [...(await readManifest(root))!.objects.values()].map((o) => o.path).sort(),
      kept,
      'the manifest names every file written, and only those',
    );
    const before = new Map(await Promise.all(kept.map(async (f) => [f, (await fs.stat(path.join(root, f))).mtimeMs] as const)));

    const resumed = await pull(bigClient, root, bigBinding, {});
    assert.equal(resumed.cancelled, false);
    assert.equal(resumed.written, total - first.written, 'only the rest');
    assert.equal((await scannerFiles()).length, total);
    assert.equal([...(await readManifest(root))!.objects.keys()].length, total);
    for (const [f, mtime] of before) assert.equal((await fs.stat(path.join(root, f))).mtimeMs, mtime, `${f} not written again`);
  });
});
test('small objects: pages of 1,000 from the 1,000th on (where the requests take the time), each object pulled once', async () => {
  await withSandbox({ seed: 'empty' }, async (big) => {
    const bigClient = new OmsClient(createHttp({ baseUrl: big.sb.url, token: () => big.sb.token }));
    const people = kind('person');
    const total = 2600;
    let made = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (made < total) {
          const i = made++;
          await bigClient.create(people, big.instanceKey, { ...newObject(people, `Person ${i}`), GivenName: `Given ${i}`, Surname: `Surname ${i}` });
        }
      }),
    );
    const pages: string[] = [];
    const listBytes = bigClient.listBytesIf.bind(bigClient);
    bigClient.listBytesIf = (k, folderKey, page, pageSize, etag, signal) => {
      pages.push(`${page}/${pageSize}`);
      return listBytes(k, folderKey, page, pageSize, etag, signal);
    };
    const report = await pull(bigClient, root, await bindingOf(bigClient, 'Big', big.sb.url), {
      scope: { folderKey: big.instanceKey, recursive: false, kinds: [people.id] },
    });
    assert.deepEqual(pages.slice(0, 4), ['0/500', '1/500', '1/1000', '2/1000'], 'objects 0-499, 500-999, 1000-1999, 2000-2599');
    assert.ok(pages.length <= 5 && pages.slice(4).every((p) => p === '3/1000'), `one request more at most, an empty page: ${pages.join(', ')}`);
    assert.equal(report.written, total);
    const manifest = (await readManifest(root))!;
    assert.equal(new Set([...manifest.objects.values()].map((o) => o.path)).size, total, 'a file each, none twice');
  });
});
test('a file that cannot be written: the pull names it and goes on, the manifest names only what was written, the next pull finishes', async () => {
  await pull(client, root, binding, { scope: scope() });
  const all = await scannerFiles();
  await fs.rm(root, { recursive: true });
  // A link into a folder that is not there: the file cannot be created.
  await fs.mkdir(path.dirname(path.join(root, all[1])), { recursive: true });
  await fs.symlink(path.join(root, 'gone', 'x.json'), path.join(root, all[1]));
  const report = await pull(client, root, binding, { scope: scope() });
  assert.ok(
    report.refused.some((r) => r.includes(all[1])),
    report.refused.join('\n'),
  );
  const manifest = (await readManifest(root))!;
  for (const entry of [...manifest.objects.values()]) assert.ok(await fs.stat(path.join(root, entry.path)).then((s) => s.isFile()), `${entry.path} written`);
  assert.ok(![...manifest.objects.values()].some((o) => o.path === all[1]));
  await fs.rm(path.join(root, all[1]));
  const again = await pull(client, root, binding, {});
  assert.deepEqual(await scannerFiles(), all);
  assert.ok((again.written >= 1 && again.written < all.length) || all.length === 2, `only what was missing (${again.written} of ${all.length})`);
});
test('an object renamed on the server: the next pull moves its file to the new name (the Key stays), and changes nothing else', async () => {
  await pull(client, root, binding, { scope: scope() });
  const before = await snapshot();
  const [one] = await scannerFiles();
  const key = keyOf(one);
  const o = await live(key);
  const at = `/api/f/${floor1}/inputscanners/${key}`;
  await api.put(at, { ...o, CommonName: `${o.CommonName} Renamed` });
  try {
    const report = await pull(client, root, binding, {});
    assert.equal(report.written, 1);
    const after = await snapshot();
    const moved = [...after.keys()].find((f) => f.endsWith(`.${key}.json`))!;
    assert.notEqual(moved, one);
    assert.match(path.basename(moved), /-renamed\./);
    assert.ok(!after.has(one), 'the old name is gone');
    assert.equal((await readManifest(root))!.objects.get(key)!.path, moved);
    for (const [f, text] of before) if (f !== one && f.includes('/inputscanners/')) assert.equal(after.get(f), text, `${f} unchanged`);
  } finally {
    await api.put(at, { ...(await live(key)), CommonName: o.CommonName });
  }
});
test("a gateway that wraps the list is pulled like the service; a page that is not a list fails with the client's words, writing nothing", async () => {
  // What the sandbox never sends: a server answering the folder and one page of the floor's scanners, as `body` shapes them.
  const onServer = await api.listAll(floor1, 'inputscanners');
  const serve = async (body: (items: unknown[]) => unknown, run: (c: OmsClient) => Promise<void>) => {
    const server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const page = Number(url.searchParams.get('page') ?? 0);
      const answer = url.pathname.endsWith('/inputscanners') ? body(page === 0 ? onServer : []) : { Key: floor1, CommonName: 'Floor 1' };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await run(new OmsClient(createHttp({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: () => 'test' })));
    } finally {
      server.close();
    }
  };
  await serve(
    (items) => ({ Items: items }),
    async (c) => {
      const report = await pull(c, root, binding, { scope: scope() });
      assert.equal(report.objects, onServer.length);
      assert.equal((await scannerFiles()).length, onServer.length);
    },
  );
  const other = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-code-'));
  try {
    await serve(
      () => ({ Message: 'not a list' }),
      async (c) => {
        await assert.rejects(pull(c, other, binding, { scope: scope() }), /The server's list of input scanners is not an array/);
      },
    );
    assert.deepEqual([...(await readManifest(other))!.objects.keys()], [], 'nothing recorded');
  } finally {
    await fs.rm(other, { recursive: true, force: true });
  }
});
test('a pulled folder is bound to its connection: another instance is refused, naming the one it belongs to; a broken manifest is refused', async () => {
  await pull(client, root, binding, { scope: scope() });
  const other: ConnectionBinding = { label: 'Other', url: 'https://oms.example.com', instanceKey: 'aaaaaaaaaaaaaaaaaaaaaaaa' };
  await assert.rejects(makePlan(client, root, other), /pulled from Sandbox .*plan it against Sandbox/);
  await assert.rejects(pull(client, root, other, {}), /pulled from Sandbox/);
  await fs.writeFile(path.join(root, manifestName), '{"format":1');
  await assert.rejects(makePlan(client, root, binding), /oms\.manifest\.json is not valid JSON/);
});
