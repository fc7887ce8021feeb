/** One odd object from the server never stops a pull: it is skipped with its name, or gets a file of its own. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHttp } from '../../../../src/api/http';
import { OmsClient } from '../../../../src/api/client';
import { readManifest } from '../../../../src/changes/code/manifest';
import { makePlan } from '../../../../src/changes/code/plan';
import { bindingOf, pull } from '../../../../src/changes/code/pull';
import type { BaseInfo } from '../../../../src/model/types';
import { Api, start } from '../../sandbox/harness';

let api: Api;
let proxy: http.Server;
let floor1: string;
const oddFolder = 'x/../../y';
const deepField = '"__DEEP__"';

before(async () => {
  api = await start({ seed: 'demo' });
  const head = await api.folder('Head Office');
  floor1 = (await api.folder('Floor 1', head.Key)).Key;
  const floorObject = (await api.listAll(head.Key, 'folders')).find((f) => f.Key === floor1)!;
  // In front of the sandbox: Floor 1's scanners and folders come with odd ones added, as a server might send them.
  proxy = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const url = req.url!;
      if (url.includes(encodeURIComponent(oddFolder))) {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('[]');
        return;
      }
      const upstream = await fetch(api.sb.url + url, {
        method: req.method,
        headers: { authorization: req.headers.authorization ?? '', 'content-type': req.headers['content-type'] ?? '' },
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      let text = await upstream.text();
      const first = /[?&]page=0\b/.test(url) || !url.includes('page=');
      if (req.method === 'GET' && first && url.startsWith(`/api/f/${floor1}/inputscanners?`)) {
        const items = JSON.parse(text) as BaseInfo[];
        const like = (Key: unknown, CommonName: unknown, more: object = {}) =>
          ({ ...items[0], Key, CommonName, ConcurrencyVersion: 1, ...more }) as unknown as BaseInfo;
        items.push(
          like('k'.repeat(300), 'Long Key'),
          like('numname', 42),
          like('constructor', 'Constructor'),
          like('__proto__', 'Proto'),
          like('a.b', 'Twin'),
          like('a_b', 'Twin'),
          like('deep', 'Deep', { Deep: '__DEEP__' }),
        );
        text = JSON.stringify(items).replace(deepField, `${'['.repeat(5000)}${']'.repeat(5000)}`);
      } else if (req.method === 'GET' && first && url.startsWith(`/api/f/${floor1}/folders?`)) {
        text = JSON.stringify([...(JSON.parse(text) as BaseInfo[]), { ...floorObject, Key: oddFolder, CommonName: 'Odd' }]);
      }
      res.writeHead(upstream.status, { 'Content-Type': upstream.headers.get('content-type') ?? 'application/json' }).end(text);
    })();
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
});
after(async () => {
  proxy.close();
  await api.sb.close();
});

test('odd Keys and names: a 300-character Key, a name that is not text, constructor/__proto__, Keys that slug alike, a folder Key x/../../y', async () => {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-odd-'));
  const root = path.join(base, 'pulled');
  try {
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const client = new OmsClient(createHttp({ baseUrl: url, token: () => api.sb.token }));
    const binding = await bindingOf(client, 'Sandbox', url);
    const report = await pull(client, root, binding, { scope: { folderKey: floor1, recursive: true, kinds: ['inputScanner'] } });
    assert.deepEqual(await fs.readdir(base), ['pulled'], 'nothing beside the pulled folder');
    const manifest = (await readManifest(root))!;
    const real = await api.listAll(floor1, 'inputscanners');
    for (const o of real) assert.ok(manifest.objects.get(o.Key!)!, `${String(o.CommonName)} pulled`);
    const odd = ['k'.repeat(300), 'numname', 'constructor', '__proto__', 'a.b', 'a_b'];
    for (const key of odd) {
      assert.ok(manifest.objects.has(key), `${key.slice(0, 20)} has an entry`);
      const text = await fs.readFile(path.join(root, manifest.objects.get(key)!.path), 'utf8');
      assert.equal((JSON.parse(text) as BaseInfo).Key, key, 'its file holds its Key');
    }
    assert.equal(new Set(odd.map((k) => manifest.objects.get(k)!.path)).size, odd.length, 'each its own file');
    assert.ok(!manifest.objects.has('deep'));
    assert.ok(
      report.refused.some((r) => r.includes('Deep') && r.includes('levels deep')),
      report.refused.join('\n'),
    );
    assert.ok(!Object.hasOwn(manifest.folders, oddFolder));
    assert.ok(
      report.refused.some((r) => r.includes(JSON.stringify(oddFolder))),
      'the folder is named, not pulled',
    );
    const { plan } = await makePlan(client, root, binding);
    assert.ok(
      plan.entries.every((e) => e.action !== 'invalid'),
      JSON.stringify(plan.entries.filter((e) => e.action === 'invalid')),
    );
  } finally {
    await fs.rm(base, { recursive: true, force: true });
  }
});
