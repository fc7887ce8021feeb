/**
 * The run shell in the real host, through the commands a user runs, every result read from the
 * sandbox: an Apply with failures and Retry Failed sending exactly those; an Apply that deletes an
 * object removes it from the tree and Go to Object at once; a bulk edit given its operation as an
 * argument; Undo of an Apply with a create and a delete.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { newObject } from '../../src/model/templates';
import { kind } from '../../src/model/kinds';
import type { TestApi } from '../../src/testApi';
import { childrenOf, envConnectionId, label, nodeAt, rest, services, waitFor } from './helpers';

let s: TestApi;
let rootKey: string;
let root: string;
const stamp = Date.now();
const made: any[] = [];

const at = (key: string) => `/api/f/${rootKey}/inputscanners/${key}`;
const server = async (key: string) => (await rest('GET', at(key))).body;
const kindDir = () =>
  path.join(
    root,
    Object.values(JSON.parse(fs.readFileSync(path.join(root, 'oms.manifest.json'), 'utf8')).folders as Record<string, string>)[0],
    'inputscanners',
  );
const fileOf = (key: string) =>
  path.join(
    kindDir(),
    fs.readdirSync(kindDir()).find((f) => f.endsWith(`.${key}.json`))!,
  );
function editFile(key: string, edit: (o: any) => void): void {
  const o = JSON.parse(fs.readFileSync(fileOf(key), 'utf8'));
  edit(o);
  fs.writeFileSync(fileOf(key), JSON.stringify(o, null, 2) + '\n');
}
const plan = (includeDeletes = false) => vscode.commands.executeCommand<any>('oms.plan', vscode.Uri.file(root), { includeDeletes });
const apply = (deletes?: number) => vscode.commands.executeCommand<any[]>('oms.applyPlan', undefined, { stopOnError: false, deletes });
/** The newest run of the pulled folder (an Apply is journalled in its .oms/runs/, as `oms apply`'s). */
const newestRun = () =>
  fs
    .readdirSync(path.join(root, '.oms', 'runs'))
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .pop()!
    .replace(/\.jsonl$/, '');
const rootLabel = async () => (await rest('GET', '/api')).body.CommonName as string;

suite('runs: apply, retry, undo and bulk edit through the one run shell', () => {
  suiteSetup(async () => {
    s = await services();
    rootKey = (await rest('GET', '/api')).body.Key;
    for (const name of ['A', 'B', 'C', 'D', 'E'])
      made.push((await rest('POST', `/api/f/${rootKey}/inputscanners`, newObject(kind('inputScanner'), `Run ${name} ${stamp}`))).body);
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'oms-runs-it-'));
    const report: any = await vscode.commands.executeCommand(
      'oms.pullAsFiles',
      { connectionId: envConnectionId, folderKey: rootKey, kind: 'inputScanner' },
      { root },
    );
    assert.ok(report && !report.cancelled, 'pulled');
  });
  suiteTeardown(async () => {
    for (const o of made) await rest('DELETE', at(o.Key));
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('an Apply with failures, then Retry Failed… sends exactly the failed ones', async () => {
    const [a, b, c] = made;
    for (const o of [a, b, c])
      editFile(o.Key, (x) => {
        x.NonSettlingErrorPriority = 7;
      });
    const was = new Map(await Promise.all([a, b, c].map(async (o) => [o.Key, (await server(o.Key)).ConcurrencyVersion] as const)));
    await plan();
    assert.ok((await rest('POST', '/sandbox/faults', { path: at(b.Key), status: 500, count: 1 })).status < 300);
    const results = await apply();
    assert.deepStrictEqual(
      results.filter((r) => r.outcome === 'failed').map((r) => r.id),
      [b.Key],
    );
    await vscode.commands.executeCommand('oms.retryFailedRun', { stopOnError: false });
    for (const o of [a, b, c]) {
      const now = await server(o.Key);
      assert.strictEqual(now.ConcurrencyVersion, was.get(o.Key)! + 1, `${o.CommonName}: written exactly once`);
      assert.strictEqual(now.NonSettlingErrorPriority, 7);
    }
    // Nothing left to retry: a second Retry sends nothing.
    await vscode.commands.executeCommand('oms.retryFailedRun', { stopOnError: false });
    for (const o of [a, b, c]) assert.strictEqual((await server(o.Key)).ConcurrencyVersion, was.get(o.Key)! + 1);
  });

  test('an Apply that deletes an object removes it from the tree and from Go to Object at once', async () => {
    const d = made[3];
    const group = async () => (await childrenOf(await nodeAt(s, 'Sandbox', await rootLabel(), 'Input scanners'))).map(label);
    await waitFor('the scanner in the tree', async () => (await group()).some((l) => l.includes(d.CommonName)) || undefined);
    const index = s.search.of(envConnectionId);
    await index.ensure();
    // Made over REST by this suite (live updates are off in this profile): the index is told, as a poll would.
    await index.changed(rootKey, 'inputScanner', d.Key);
    assert.ok(
      [...index.entries].some((e) => e.key === d.Key),
      'Go to Object knows it',
    );
    fs.rmSync(fileOf(d.Key));
    const planned = await plan(true);
    assert.deepStrictEqual(
      planned.entries.filter((e: any) => e.action === 'delete').map((e: any) => e.key),
      [d.Key],
    );
    for (const e of planned.entries) e.selected = e.action === 'delete';
    const results = await apply(1);
    assert.deepStrictEqual(
      results.map((r) => r.outcome),
      ['applied'],
    );
    assert.strictEqual((await rest('GET', at(d.Key))).status, 404);
    await waitFor('gone from Go to Object', () => ![...index.entries].some((e) => e.key === d.Key) || undefined, 3_000);
    await waitFor('gone from the tree', async () => !(await group()).some((l) => l.includes(d.CommonName)) || undefined, 3_000);
  });

  test('Undo of an Apply with a create and a delete deletes what it created and creates again what it deleted', async () => {
    const e = made[4];
    const template = JSON.parse(fs.readFileSync(fileOf(e.Key), 'utf8'));
    const { Key: _key, ...copy } = template;
    fs.writeFileSync(path.join(kindDir(), 'run-new.json'), JSON.stringify({ ...copy, CommonName: `Run New ${stamp}` }, null, 2) + '\n');
    fs.rmSync(fileOf(e.Key));
    const planned = await plan(true);
    for (const x of planned.entries) x.selected = x.action === 'create' || (x.action === 'delete' && x.key === e.Key);
    const results = await apply(1);
    assert.deepStrictEqual(results.map((r) => r.outcome).sort(), ['applied', 'applied'], JSON.stringify(results));
    const list = async () => (await rest('GET', `/api/f/${rootKey}/inputscanners?pageSize=1000`)).body as any[];
    const created = (await list()).find((o) => o.CommonName === `Run New ${stamp}`);
    assert.ok(created, 'created');
    await vscode.commands.executeCommand('oms.undoRun', { runId: newestRun(), connectionId: envConnectionId, stopOnError: false });
    const now = await list();
    assert.ok(!now.some((o) => o.Key === created.Key), 'what the apply created is deleted');
    const back = now.find((o) => o.CommonName === e.CommonName);
    assert.ok(back, 'what the apply deleted is there again');
    made.push(back);
  });

  test('a bulk edit given its operation as an argument edits every match once, as the same edit chosen in the preview', async () => {
    const tag = `run-${stamp}`;
    const before = (await rest('GET', `/api/f/${rootKey}/inputscanners?pageSize=1000`)).body.filter((o: any) => o.CommonName.endsWith(String(stamp)));
    await vscode.commands.executeCommand('oms.bulkEdit', {
      connectionId: envConnectionId,
      query: String(stamp),
      operation: { type: 'addTag', tag },
      stopOnError: false,
    });
    for (const o of before) {
      const now = await server(o.Key);
      assert.deepStrictEqual(now.Tags, [...(o.Tags ?? []), tag], o.CommonName);
      assert.strictEqual(now.ConcurrencyVersion, o.ConcurrencyVersion + 1);
    }
    // A tag the service refuses is refused before anything is read or sent.
    await vscode.commands.executeCommand('oms.bulkEdit', {
      connectionId: envConnectionId,
      query: String(stamp),
      operation: { type: 'addTag', tag: 'Reviewed Q3' },
      stopOnError: false,
    });
    for (const o of before) assert.strictEqual((await server(o.Key)).ConcurrencyVersion, o.ConcurrencyVersion + 1, 'nothing sent for an invalid tag');
  });
});
