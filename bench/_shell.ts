import '../test/unit/runs/hostShim';
import { ui } from '../test/unit/runs/hostShim';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../src/sandbox/server';
import { createHttp } from '../src/api/http';
import { OmsClient } from '../src/api/client';
import { bulkChanges } from '../src/changes/bulk';
import { runChanges } from '../src/changes/executor';
import { RunJournal } from '../src/changes/runJournal';
import { kind } from '../src/model/kinds';
import { newObject } from '../src/model/templates';
import { previewAndRun } from '../src/runs/changesRun';
import type { Connection } from '../src/connection/connection';
void (async () => {
  const n = Number(process.argv[2] ?? 2000);
  const sb = await startSandbox({ port: 0, seed: 'empty' });
  const client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
  const k = kind('inputScanner');
  const targets = [];
  for (let i = 0; i < n; i += 100) {
    const made = await Promise.all(Array.from({ length: Math.min(100, n - i) }, (_, j) => client.create(k, sb.instanceKey, newObject(k, `D ${i + j}`))));
    for (const o of made) targets.push({ kind: k, folderKey: sb.instanceKey, key: o.Key!, name: o.Key! });
  }
  const connection = { id: 'c', info: { id: 'c', label: 'S', baseUrl: sb.url }, client, approveWrites: (what: string) => Promise.resolve({ what }) } as unknown as Connection;
  const host = { journal: new RunJournal(join(await mkdtemp(join(tmpdir(), 'sb-')), 'r')), events: { wrote: () => undefined, ended: () => Promise.resolve() } };
  for (let round = 0; round < Number(process.argv[3] ?? 2); round++) {
    let t = performance.now();
    await runChanges(client, bulkChanges(targets, { type: 'addTag', tag: `raw${round}` }), { stopOnError: false });
    const raw = n / ((performance.now() - t) / 1000);
    t = performance.now();
    let previewMs = 0;
    ui.answers.push(() => { previewMs = performance.now() - t; return (undefined as unknown); });
    await previewAndRun(host, { connection, title: 'x', changes: bulkChanges(targets, { type: 'addTag', tag: `p${round}` }), words: { runLabel: 'Apply' } });
    t = performance.now();
    await previewAndRun(host, { connection, title: 'x', changes: bulkChanges(targets, { type: 'addTag', tag: `shell${round}` }), words: { runLabel: 'Apply' } }, false);
    const shellRate = n / ((performance.now() - t) / 1000);
    console.log(`${n} objects: preview shown after ${Math.round(previewMs)} ms; executor alone ${Math.round(raw)}/s; shell (preview + journal + events) ${Math.round(shellRate)}/s`);
  }
  await sb.close();
})();
