/**
 * The `oms` command line beside the real host: a plan saved with the editor's Save Plan is applied
 * by the command line shipped in the .vsix (extension/dist/oms.cjs), and the host's Object Changes
 * view, planned again, then shows nothing left to apply.
 */
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { newObject } from '../../src/model/templates';
import { kind } from '../../src/model/kinds';
import { envConnectionId, rest, sandboxToken, services } from './helpers';

/** Runs the shipped command line with Node (the host's own binary as Node). */
function oms(args: string[]): Promise<{ code: number | null; out: string }> {
  const ext = vscode.extensions.getExtension('oms-team.oms-explorer')!;
  const child = spawn(process.execPath, [path.join(ext.extensionPath, 'dist', 'oms.cjs'), ...args], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', OMS_TOKEN: sandboxToken },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

suite('objects as code: the oms command line', () => {
  let root: string;
  let rootKey: string;
  const made: Array<{ Key: string }> = [];
  const at = (key: string) => `/api/f/${rootKey}/inputscanners/${key}`;

  suiteSetup(async () => {
    await services(); // the environment's connection is in place
    rootKey = (await rest('GET', '/api')).body.Key;
    for (const name of ['A', 'B']) {
      const created = await rest('POST', `/api/f/${rootKey}/inputscanners`, newObject(kind('inputScanner'), `CLI ${name} ${Date.now()}`));
      assert.ok(created.status < 300, `created scanner ${name}`);
      made.push(created.body);
    }
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'oms-cli-it-'));
    const target = { connectionId: envConnectionId, folderKey: rootKey, kind: 'inputScanner' };
    const report: any = await vscode.commands.executeCommand('oms.pullAsFiles', target, { root });
    assert.ok(report && !report.cancelled, 'pulled');
  });
  suiteTeardown(async () => {
    for (const o of made) await rest('DELETE', at(o.Key));
    fs.rmSync(root, { recursive: true, force: true });
  });

  test('a plan saved in the editor is applied by oms apply; the Object Changes view then has nothing left to apply', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'oms.manifest.json'), 'utf8'));
    for (const o of made) {
      const file = path.join(root, manifest.objects[o.Key].path);
      const text = JSON.parse(fs.readFileSync(file, 'utf8'));
      fs.writeFileSync(file, JSON.stringify({ ...text, CommonName: `${text.CommonName} via oms` }, null, 2) + '\n');
    }
    const planned: any = await vscode.commands.executeCommand('oms.plan', vscode.Uri.file(root));
    assert.deepStrictEqual(
      planned.entries
        .filter((e: any) => e.action === 'update')
        .map((e: any) => e.key)
        .sort(),
      made.map((o) => o.Key).sort(),
    );
    const saved = await vscode.commands.executeCommand<string>('oms.savePlan');

    // As a pipeline does: the service named by the job (here the URL the folder was pulled from), not by the folder's files.
    const applied = await oms(['apply', root, saved, '--auto-approve', '--url', manifest.connection.url]);
    assert.strictEqual(applied.code, 0, applied.out);
    assert.match(applied.out, /Applied 2 · unchanged 0 · stale 0 · failed 0 · not sent 0/);
    for (const o of made) assert.match((await rest('GET', at(o.Key))).body.CommonName, / via oms$/);

    const after: any = await vscode.commands.executeCommand('oms.plan', vscode.Uri.file(root));
    // Objects other suites change on the server may show as behind; nothing is left to send.
    const left = after.entries.filter((e: any) => ['create', 'update', 'delete'].includes(e.action) || made.some((o) => o.Key === e.key));
    assert.deepStrictEqual(left, [], 'nothing left to apply');
  });
});
