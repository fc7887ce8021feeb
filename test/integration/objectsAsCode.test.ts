/**
 * Objects as code in the real host: a plan saved now and applied
 * later refuses what moved since it was made; on a production connection Apply asks
 * once for the whole run, naming its counts and URL. Through the commands a user
 * runs, the result read from the sandbox and the run report in the pulled folder.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { newObject } from '../../src/model/templates';
import { kind } from '../../src/model/kinds';
import type { TestApi } from '../../src/testApi';
import { closeAllEditors, envConnectionId, rest, sandboxUrl, services, waitFor } from './helpers';

let s: TestApi;
let rootKey: string;
let root: string;
const made: any[] = [];

const at = (key: string) => `/api/f/${rootKey}/inputscanners/${key}`;
const server = async (key: string) => (await rest('GET', at(key))).body;
const fileOf = (key: string) => {
  const dir = path.join(
    root,
    Object.values(JSON.parse(fs.readFileSync(path.join(root, 'oms.manifest.json'), 'utf8')).folders as Record<string, string>)[0],
    'inputscanners',
  );
  return path.join(
    dir,
    fs.readdirSync(dir).find((f) => f.endsWith(`.${key}.json`))!,
  );
};
/** An edit as a user makes it in the file: the first reporting priority set to `priority`. */
function editPriority(key: string, priority: number): void {
  const file = fileOf(key);
  const o = JSON.parse(fs.readFileSync(file, 'utf8'));
  o.InputScannerReportingPriorities[0].Priority = priority;
  fs.writeFileSync(file, JSON.stringify(o, null, 2) + '\n');
}
const plan = () => vscode.commands.executeCommand<any>('oms.plan', vscode.Uri.file(root));
const apply = () => vscode.commands.executeCommand<any[] | undefined>('oms.applyPlan', undefined, { stopOnError: false });
const lastReport = () => {
  const dir = path.join(root, '.oms', 'runs');
  // The reports (`<time>.json`), not the runs' journals (`<run id>.jsonl`) kept beside them.
  const newest = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .pop()!;
  return JSON.parse(fs.readFileSync(path.join(dir, newest), 'utf8')).results as Array<{ id: string; outcome: string; reason?: string }>;
};

suite('objects as code: apply', () => {
  suiteSetup(async () => {
    s = await services();
    rootKey = (await rest('GET', '/api')).body.Key;
    const stamp = Date.now();
    for (const name of ['A', 'B', 'C', 'D']) {
      const created = await rest('POST', `/api/f/${rootKey}/inputscanners`, newObject(kind('inputScanner'), `Code ${name} ${stamp}`));
      assert.ok(created.status < 300, `created scanner ${name}`);
      made.push(created.body);
    }
    // Outside the workspace: the UI checks' pull into it finds only their own folder.
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'oms-code-it-'));
    const report: any = await vscode.commands.executeCommand(
      'oms.pullAsFiles',
      { connectionId: envConnectionId, folderKey: rootKey, kind: 'inputScanner' },
      { root },
    );
    assert.ok(report && !report.cancelled && report.objects >= 4, 'pulled');
  });
  suiteTeardown(async () => {
    s.answerProductionWrites(undefined);
    await s.connections.update(envConnectionId, { production: false });
    for (const o of made) await rest('DELETE', at(o.Key));
    fs.rmSync(root, { recursive: true, force: true });
  });

  test(
    'a saved plan applied later refuses the entry whose file moved and the one whose server version moved since it was made: ' +
      'nothing sent for them, the reason in the run report; the rest applies',
    async () => {
      const [a, b, c] = made;
      for (const o of [a, b, c]) editPriority(o.Key, 7);
      const planned = await plan();
      assert.deepStrictEqual(
        planned.entries
          .filter((e: any) => e.action === 'update')
          .map((e: any) => e.key)
          .sort(),
        [a.Key, b.Key, c.Key].sort(),
      );
      const saved = await vscode.commands.executeCommand<string>('oms.savePlan');
      assert.ok(saved && fs.existsSync(saved), 'the plan is saved in the pulled folder');

      // Later: a's file is edited again, b is changed by someone else on the server.
      editPriority(a.Key, 8);
      const bNow = await server(b.Key);
      assert.ok((await rest('PUT', at(b.Key), { ...bNow, NonSettlingErrorPriority: (bNow.NonSettlingErrorPriority % 9) + 1 })).status < 300);
      const bMoved = await server(b.Key);

      const opened = await vscode.commands.executeCommand<any>('oms.openSavedPlan', vscode.Uri.file(saved));
      assert.strictEqual(opened.id, planned.id, 'the saved plan, not a new one');
      const results = await apply();
      assert.ok(results, 'apply ran');
      const outcome = (key: string) => results.find((r) => r.id === key);
      assert.strictEqual(outcome(a.Key)?.outcome, 'notSent');
      assert.match(outcome(a.Key)!.reason, /file changed since the plan/);
      assert.strictEqual(outcome(b.Key)?.outcome, 'stale');
      assert.match(outcome(b.Key)!.reason, /changed on the server.*nothing was sent/);
      assert.strictEqual(outcome(c.Key)?.outcome, 'applied');

      const aNow = await server(a.Key);
      assert.strictEqual(aNow.ConcurrencyVersion, a.ConcurrencyVersion, 'nothing sent for a');
      assert.notStrictEqual(aNow.InputScannerReportingPriorities[0].Priority, 8);
      assert.deepStrictEqual(await server(b.Key), bMoved, 'nothing sent for b: the server keeps the other change');
      const cNow = await server(c.Key);
      assert.strictEqual(cNow.ConcurrencyVersion, c.ConcurrencyVersion + 1);
      assert.strictEqual(cNow.InputScannerReportingPriorities[0].Priority, 7);

      // What the user opens from the result: each refusal with its reason.
      const report = lastReport();
      assert.match(report.find((r) => r.id === a.Key)!.reason!, /file changed since the plan/);
      assert.match(report.find((r) => r.id === b.Key)!.reason!, /changed on the server/);
      assert.strictEqual(report.find((r) => r.id === c.Key)!.outcome, 'applied');
    },
  );

  test('on a production connection Apply asks once for the whole run, naming its counts and the URL; Cancel sends nothing', async () => {
    await vscode.commands.executeCommand('oms.pullAgain', vscode.Uri.file(root), { overwriteEdits: true });
    const [, , c, d] = made;
    const before = { c: await server(c.Key), d: await server(d.Key) };
    for (const o of [c, d]) editPriority(o.Key, 6);
    const planned = await plan();
    assert.deepStrictEqual(
      planned.entries
        .filter((e: any) => e.selected)
        .map((e: any) => e.key)
        .sort(),
      [c.Key, d.Key].sort(),
    );
    await s.connections.update(envConnectionId, { production: true });

    const asked: string[] = [];
    s.answerProductionWrites((detail) => (asked.push(detail), false));
    assert.strictEqual(await apply(), undefined, 'cancelled');
    assert.strictEqual(asked.length, 1);
    assert.match(asked[0], /\b2 to update\b/);
    assert.doesNotMatch(asked[0], /0 to (create|delete)/, 'only the counts that are not zero');
    assert.ok(asked[0].includes(sandboxUrl), `the question names the URL: ${asked[0]}`);
    assert.deepStrictEqual(await server(c.Key), before.c, 'Cancel sent nothing');
    assert.deepStrictEqual(await server(d.Key), before.d, 'Cancel sent nothing');

    asked.length = 0;
    s.answerProductionWrites((detail) => (asked.push(detail), true));
    const results = await apply();
    assert.deepStrictEqual(
      results?.map((r) => r.outcome),
      ['applied', 'applied'],
    );
    assert.strictEqual(asked.length, 1, `asked once for two writes: ${asked.join(' | ')}`);
    for (const o of [c, d]) {
      const now = await server(o.Key);
      assert.strictEqual(now.ConcurrencyVersion, before[o === c ? 'c' : 'd'].ConcurrencyVersion + 1);
      assert.strictEqual(now.InputScannerReportingPriorities[0].Priority, 6);
    }
  });

  test("an editor open on a scanner (no edits) follows an Apply made from its file: the server's text and version at once, still clean", async () => {
    s.answerProductionWrites(undefined);
    await s.connections.update(envConnectionId, { production: false });
    await vscode.commands.executeCommand('oms.pullAgain', vscode.Uri.file(root), { overwriteEdits: true });
    const d = made[3];
    const before = await server(d.Key);
    const args = { connectionId: envConnectionId, folderKey: rootKey, kind: 'inputScanner', key: d.Key, name: before.CommonName };
    const doc = await vscode.workspace.openTextDocument(await vscode.commands.executeCommand<vscode.Uri>('oms.openObject', args));
    await vscode.window.showTextDocument(doc);
    assert.strictEqual(s.objectFiles.baseOf(doc.uri)?.ConcurrencyVersion, before.ConcurrencyVersion);
    editPriority(d.Key, 4321);
    await plan();
    const results = await apply();
    assert.deepStrictEqual(
      results?.map((r) => r.outcome),
      ['applied'],
    );
    await waitFor('the open editor to show the applied priority', () => doc.getText().includes('"Priority": 4321') || undefined);
    assert.strictEqual(s.objectFiles.baseOf(doc.uri)?.ConcurrencyVersion, before.ConcurrencyVersion + 1, 'its next save is based on the applied version');
    assert.strictEqual(doc.isDirty, false);
    await closeAllEditors();
  });
});
