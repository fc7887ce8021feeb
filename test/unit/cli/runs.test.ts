/**
 * `oms retry` and `oms undo` on the run journals `oms apply` and the editor write, through the same
 * run core, built (dist/oms.cjs) and run as a child process against a real sandbox: exit codes as
 * apply's (0 all done, 1 nothing sent, 2 in part), the retry and the undo journalled beside the run,
 * and a journal of a newer format refused clearly.
 */
import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OmsClient } from '../../../src/api/client';
import { createHttp } from '../../../src/api/http';
import { bulkChanges } from '../../../src/changes/bulk';
import { RunJournal } from '../../../src/changes/runJournal';
import type { Connection } from '../../../src/connection/connection';
import { kind } from '../../../src/model/kinds';
import type { BaseInfo, InputScannerInfo } from '../../../src/model/types';
import { sendChanges } from '../../../src/runs/core/changesRun';
import { sendPeopleRun } from '../../../src/runs/core/peopleRun';
import { newObject } from '../../../src/model/templates';
import type { RunView } from '../../../src/runs/core/run';
import { Api, start } from '../sandbox/harness';
import { buildOms, oms, OmsRun } from './oms';

const token = 'cli-runs-token-2b8d4f6a1c';
let api: Api;
let warehouse: string;
let root: string;
const env = () => ({ OMS_TOKEN: token, OMS_URL: api.sb.url });

before(async () => {
  buildOms();
  api = await start({ seed: 'demo', token });
  warehouse = (await api.folder('Warehouse')).Key;
});
after(() => api.sb.close());
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-cli-runs-'));
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

const ok = (run: OmsRun, code = 0) => assert.equal(run.code, code, `exit ${run.code}\nstdout: ${run.out}\nstderr: ${run.err}`);
const live = async (key: string) => (await api.get(`/api/f/${warehouse}/inputscanners/${key}`)).body as InputScannerInfo;
const journals = async (dir: string) => (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.jsonl')).sort();

test("oms apply exits 2 on one failure; oms retry <journal> resends the failure (exit 0); oms undo <run id> puts back all three, the retry's too", async () => {
  ok(await oms(['pull', root, '--url', api.sb.url, '--folder', warehouse, '--kinds', 'inputScanner'], { env: env() }));
  const manifest = JSON.parse(await fs.readFile(path.join(root, 'oms.manifest.json'), 'utf8')) as { objects: Record<string, { path: string }> };
  const files = Object.values(manifest.objects)
    .map((o) => o.path)
    .filter((p) => p.includes('/inputscanners/'))
    .sort();
  assert.ok(files.length >= 2, files.join(' '));
  const before: InputScannerInfo[] = [];
  for (const rel of files) {
    const o = JSON.parse(await fs.readFile(path.join(root, rel), 'utf8')) as InputScannerInfo;
    before.push({ ...o });
    o.NonSettlingErrorPriority = o.NonSettlingErrorPriority === 4 ? 5 : 4;
    await fs.writeFile(path.join(root, rel), JSON.stringify(o, null, 2) + '\n');
  }
  const failing = before[1].Key!;
  await api.post('/sandbox/faults', { path: `/api/f/${warehouse}/inputscanners/${failing}`, method: 'PUT', status: 500, count: 1 });

  const apply = await oms(['apply', root, '--auto-approve'], { env: env() });
  ok(apply, 2);
  const runs = path.join(root, '.oms', 'runs');
  const [applied] = await journals(runs);
  assert.ok(applied, 'apply wrote its journal in .oms/runs/');
  assert.notEqual((await live(failing)).NonSettlingErrorPriority, before[1].NonSettlingErrorPriority === 4 ? 5 : 4);

  const retry = await oms(['retry', path.join(runs, applied), '--auto-approve'], { env: env() });
  ok(retry, 0);
  assert.match(retry.out, /1 applied/);
  assert.equal((await live(failing)).NonSettlingErrorPriority, before[1].NonSettlingErrorPriority === 4 ? 5 : 4, 'the retry sent it');
  assert.equal((await journals(runs)).length, 2, 'the retry is journalled beside the run');

  const runId = applied.replace(/\.jsonl$/, '');
  const undo = await oms(['undo', runId, '--auto-approve'], { env: env(), cwd: root });
  ok(undo, 0);
  assert.match(undo.out, /and its Retry Failed run/);
  assert.match(undo.out, new RegExp(`: ${files.length} applied`));
  for (const b of before) assert.equal((await live(b.Key!)).NonSettlingErrorPriority, b.NonSettlingErrorPriority, `${b.CommonName}: put back`);

  const again = await oms(['retry', runId], { env: env(), cwd: root });
  ok(again, 1);
  assert.match(again.err, /No terminal to ask for a yes/);
});

/** The editor's side of a run without the editor: a connection to the sandbox that approves, a view that asks nothing. */
function editorRunParts(): { connection: Connection; quiet: RunView } {
  const client = new OmsClient(createHttp({ baseUrl: api.sb.url, token: () => token }));
  const connection = {
    id: 'editor-connection',
    info: { id: 'editor-connection', label: 'Sandbox', baseUrl: api.sb.url },
    client,
    approveWrites: (what: string) => Promise.resolve({ what }),
  } as unknown as Connection;
  const quiet: RunView = {
    progress: (_t, work) => work(() => undefined, new AbortController().signal),
    confirm: () => Promise.resolve(undefined),
    stopOnError: () => Promise.resolve(false),
    say: () => undefined,
    report: () => undefined,
  };
  return { connection, quiet };
}

test('oms undo puts back an editor-made run (its journal names the service, given in --url too); a newer-format journal is refused, nothing sent', async () => {
  const scanners = ((await api.get(`/api/f/${warehouse}/inputscanners`)).body as BaseInfo[]).slice(0, 2);
  const { connection, quiet } = editorRunParts();
  const journal = new RunJournal(path.join(root, 'editor-storage', 'runs'));
  const op = { type: 'addTag' as const, tag: 'from-editor' };
  const targets = scanners.map((o) => ({ kind: kind('inputScanner'), folderKey: warehouse, key: o.Key!, name: o.CommonName! }));
  const run = await sendChanges(
    { view: quiet },
    {
      connection,
      journal,
      title: 'Bulk edit: add tag',
      changes: bulkChanges(targets, op),
      header: { recipe: { type: 'bulk', operation: op } },
      words: { runLabel: '' },
    },
    false,
  );
  for (const t of targets) assert.ok(((await live(t.key)).Tags ?? []).includes('from-editor'));

  const file = path.join(journal.dir, `${run.runId}.jsonl`);
  const unpinned = await oms(['undo', file, '--auto-approve'], { env: { OMS_TOKEN: token } });
  ok(unpinned, 1);
  assert.match(unpinned.err, /give that URL in OMS_URL or --url/, 'a journal outside a pulled folder does not choose where the token goes');
  const undo = await oms(['undo', file, '--auto-approve', '--url', api.sb.url], { env: { OMS_TOKEN: token } });
  ok(undo, 0);
  assert.match(undo.out, /Undo of “Bulk edit: add tag”: 2 applied/);
  for (const t of targets) assert.ok(!((await live(t.key)).Tags ?? []).includes('from-editor'), `${t.name}: the tag is put back`);

  const [head, ...rest] = (await fs.readFile(file, 'utf8')).split('\n');
  await fs.writeFile(file, [JSON.stringify({ ...JSON.parse(head), format: 99 }), ...rest].join('\n'));
  const newer = await oms(['undo', file, '--auto-approve', '--url', api.sb.url], { env: env() });
  ok(newer, 1);
  assert.match(newer.err, /recorded by a newer version \(journal format 99; this version reads up to 4\)/);
});

test('oms retry sends a batch add’s refused people again from the editor’s journal, nobody twice; oms undo says why it cannot undo it', async () => {
  const { connection, quiet } = editorRunParts();
  const tag = `cli-people-${Date.now().toString(36)}`;
  const people = [0, 1, 2, 3].map((i) => ({
    row: `line ${i + 2}`,
    person: { ...newObject(kind('person'), `${tag} ${i}`), GivenName: `${tag}${i}`, Tags: [tag] },
  }));
  const tagged = async () =>
    ((await api.get(`/api/f/${warehouse}/people?pageSize=1000`)).body as BaseInfo[]).filter((p) => p.Tags?.includes(tag)).map((p) => p.CommonName);
  await api.post('/sandbox/faults', { path: `/api/f/${warehouse}/people/complex`, method: 'POST', status: 400, count: 1 });
  const journal = new RunJournal(path.join(root, 'editor-storage', 'runs'));
  const run = await sendPeopleRun(
    { view: quiet },
    { connection, journal, title: 'Add 4 people', folderKey: warehouse, people, batchSize: 2, concurrency: 1, stopOnError: false, source: 'p.csv' },
  );
  assert.deepEqual((await tagged()).sort(), [`${tag} 2`, `${tag} 3`]);

  const file = path.join(journal.dir, `${run.runId}.jsonl`);
  const retry = await oms(['retry', file, '--auto-approve', '--url', api.sb.url], { env: { OMS_TOKEN: token } });
  ok(retry, 0);
  assert.match(retry.out, /2 applied/);
  assert.deepEqual(
    (await tagged()).sort(),
    [0, 1, 2, 3].map((i) => `${tag} ${i}`),
  );
  const undo = await oms(['undo', file, '--auto-approve', '--url', api.sb.url], { env: { OMS_TOKEN: token } });
  ok(undo, 0);
  assert.match(undo.out, /people added in batches cannot be undone/);
  assert.match(undo.out, /nothing can be put back/);
  assert.deepEqual((await tagged()).length, 4, 'nobody deleted');
});
