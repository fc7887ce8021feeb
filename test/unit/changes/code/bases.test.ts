/** Merge bases (the texts a pull keeps for later merges): one cache file, records read back whole. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { BaseRecords, Bases } from '../../../../src/changes/code/bases';
import { canonicalText, fileForm, hashOf } from '../../../../src/changes/code/fileForm';
import { mergeEntry } from '../../../../src/changes/code/merge';
import { readManifest } from '../../../../src/changes/code/manifest';
import { makePlan } from '../../../../src/changes/code/plan';
import { pull } from '../../../../src/changes/code/pull';
import { api, client, binding, floor1, root, scanners, scope, files, scannerFiles, editFile, live, keyOf } from './fixture';

test("merge bases of a pull's page: encoded once into a buffer that grows as needed, each text's bytes and hash its own, read back whole", async () => {
  const texts = ['{\n  "CommonName": "Zoë Østergård 東京 🚪"\n}\n', `${JSON.stringify({ CommonName: 'x'.repeat(5000) }, null, 2)}\n`, '{}\n'];
  const records = new BaseRecords(16); // smaller than one record: the buffer grows, copying the records before
  const added = texts.map((t) => records.add(t));
  for (const [i, { bytes, hash }] of added.entries()) {
    if (i === added.length - 1) assert.deepEqual(bytes, Buffer.from(texts[i]), 'the last text as its UTF-8 bytes');
    assert.equal(hash, hashOf(texts[i]));
  }
  const bases = new Bases(root);
  await fs.mkdir(path.dirname(bases.file), { recursive: true });
  assert.equal(records.appendTo(bases.file), (await fs.stat(bases.file)).size);
  assert.equal(records.count, 3);
  assert.deepEqual(
    texts.map((t) => new Bases(root).get(hashOf(t))),
    texts,
  );
  assert.throws(() => records.add('{"a": "\u001e"}'), /canonical JSON/, 'a raw record separator would cut the record');
});
test('merge bases: one cache file, not a file per object; a record a crash cut short is ignored; a pull into a clone without .oms/ rewrites them', async () => {
  await pull(client, root, binding, { scope: scope() });
  const cache = (await files()).filter((f) => f.startsWith('.oms/'));
  assert.deepEqual(cache, ['.oms/.gitignore', '.oms/bases', '.oms/pages', '.oms/stats'], 'no file per object in the cache');
  const [a] = await scannerFiles();
  await editFile(a, (o) => {
    o.InputScannerReportingPriorities[1].Priority = 4;
  });
  const liveA = await live(keyOf(a));
  liveA.InputScannerReportingPriorities[4].StatusCode = 3;
  await api.put(`/api/f/${floor1}/inputscanners/${keyOf(a)}`, liveA);
  // A crash while a resumed pull appended a's base again: its record cut short at the end.
  const pulledHash = (await readManifest(root))!.objects.get(keyOf(a))!.hash;
  await fs.appendFile(path.join(root, '.oms', 'bases'), `\u001e${pulledHash} {\n  "$type`);
  let { plan, live: onServer } = await makePlan(client, root, binding);
  assert.deepEqual((await mergeEntry(root, plan.entries[0], onServer.get(keyOf(a))!)).conflicts, [], 'the whole base, not the cut one');
  const merged = (await readManifest(root))!.objects.get(keyOf(a))!;
  assert.equal(
    new Bases(root).get(merged.hash),
    canonicalText(scanners, fileForm(scanners, await live(keyOf(a)))),
    'the base the merge wrote after the cut record is whole',
  );

  // A clone: the files and manifest from git, no local cache. Merging has no base until a pull writes them again.
  await editFile(a, (o) => {
    o.InputScannerReportingPriorities[2].Priority = 4;
  });
  await api.put(`/api/f/${floor1}/inputscanners/${keyOf(a)}`, { ...(await live(keyOf(a))), NonSettlingErrorPriority: 5 });
  await fs.rm(path.join(root, '.oms'), { recursive: true });
  ({ plan, live: onServer } = await makePlan(client, root, binding));
  await assert.rejects(mergeEntry(root, plan.entries[0], onServer.get(keyOf(a))!), /No merge base/);
  const again = await pull(client, root, binding, {});
  assert.deepEqual(again.keptEdits, [a]);
  assert.deepEqual(
    (await files()).filter((f) => f.startsWith('.oms/')),
    ['.oms/.gitignore', '.oms/bases', '.oms/stats'],
  );
  const [stale] = (await makePlan(client, root, binding)).plan.entries;
  assert.equal(stale.action, 'stale');
});
