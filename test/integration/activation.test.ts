// First integration tests: the packaged extension is installed in a real VS Code,
// activates, and registers every command its manifest contributes. A manifest
// command without a registerCommand (or an activation that throws) fails here.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { quietMachine } from './helpers';
import type { ActivationRecord } from './index';

const EXTENSION_ID = 'oms-team.oms-explorer';

interface ContributedCommand {
  command: string;
  title?: string;
}

type ActivationTimes = Omit<ActivationRecord, 'quiet'>;

/** Our row of the perfview's "Extension Activation Stats" table, once the view has filled it in. */
async function waitForRow(doc: vscode.TextDocument): Promise<ActivationTimes> {
  for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 250))) {
    const row = doc
      .getText()
      .split('\n')
      .map((l) => l.split('|').map((c) => c.trim()))
      .find((cells) => cells.includes(EXTENSION_ID));
    if (row) {
      const at = row.indexOf(EXTENSION_ID);
      // Extension | Eager | Load Code | Call Activate | Finish Activate | Event | By
      return { codeLoadingTime: Number(row[at + 2]), activateCallTime: Number(row[at + 3]), activateResolvedTime: Number(row[at + 4]), event: row[at + 5] };
    }
  }
  return assert.fail(`no row for ${EXTENSION_ID} in the Startup Performance view:\n${doc.getText().slice(0, 2000)}`);
}

function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not installed in the test host`);
  return ext;
}

suite('activation', () => {
  /** How busy the machine was just before the first activation. */
  let quiet: ActivationRecord['quiet'];

  test('the extension is present', () => {
    const ext = extension();
    assert.strictEqual(ext.packageJSON.publisher, 'oms-team');
    assert.strictEqual(ext.packageJSON.name, 'oms-explorer');
  });

  test('the extension activates without throwing', async () => {
    const ext = extension();
    const wasActive = ext.isActive;
    // The timed activation waits for the rest of the workbench to finish starting, so that VS Code's
    // record of it measures this extension, not the other processes sharing the CPUs at that moment.
    quiet = await quietMachine();
    const started = Date.now();
    await ext.activate();
    // Recorded for the closing note and README (a number, not an assertion).
    const dir = process.env.OMS_TEST_DIAGNOSTICS;
    if (dir && !wasActive) fs.writeFileSync(path.join(dir, 'activation-ms.txt'), `${Date.now() - started}\n`);
    assert.strictEqual(ext.isActive, true, 'extension did not become active');
  });

  test('the exports hold no context, secret store or token', async () => {
    const api = (await extension().activate()) as Record<string, unknown> | undefined;
    // Outside tests (ExtensionMode.Production) activate() returns nothing at all.
    assert.ok(api, 'the test API, exported because VS Code runs tests');
    for (const key of ['context', 'secrets', 'tokens', 'sandbox']) assert.ok(!(key in api), `no ${key} in the exports`);
    const testApi = api as unknown as import('../../src/testApi').TestApi;
    await testApi.ready;
    const token = process.env.OMS_SANDBOX_TOKEN;
    const stored = await testApi.storedTokens('env-sandbox');
    assert.ok(stored?.access, 'the environment connection has a token stored');
    assert.ok(token && !JSON.stringify(stored).includes(token), 'tokens only as fingerprints');
  });

  test("VS Code's own record of the activation: code loading + activate call + resolve", async () => {
    await extension().activate();
    // The "Developer: Startup Performance" document (workbench perfview) lists, per extension,
    // the times the extension host recorded (ExtensionActivationTimes).
    // Its content provider is registered when the view is first shown ("Developer: Startup Performance").
    await vscode.commands.executeCommand('perfview.show');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse('perf:Startup%20Performance'));
    const times = await waitForRow(doc);
    console.log(
      `[activation] ${EXTENSION_ID}: load code ${times.codeLoadingTime} ms, call activate ${times.activateCallTime} ms, ` +
        `finish activate ${times.activateResolvedTime} ms (${times.event})`,
    );
    const dir = process.env.OMS_TEST_DIAGNOSTICS;
    if (dir) fs.writeFileSync(path.join(dir, 'activation-times.json'), `${JSON.stringify({ ...times, quiet } satisfies ActivationRecord)}\n`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const n of [times.codeLoadingTime, times.activateCallTime, times.activateResolvedTime]) assert.ok(Number.isFinite(n) && n >= 0, JSON.stringify(times));
  });

  test('every contributed command is registered', async () => {
    const ext = extension();
    await ext.activate();
    const contributed: ContributedCommand[] = ext.packageJSON.contributes?.commands ?? [];
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.map((c) => c.command).filter((id) => !registered.has(id));
    assert.deepStrictEqual(missing, [], `contributed in package.json but not registered by the extension: ${missing.join(', ')}`);
  });

  test('contributed commands use the extension prefix', () => {
    const contributed: ContributedCommand[] = extension().packageJSON.contributes?.commands ?? [];
    const foreign = contributed.map((c) => c.command).filter((id) => !id.startsWith('oms.'));
    assert.deepStrictEqual(foreign, [], `command ids without the "oms." prefix: ${foreign.join(', ')}`);
  });
});
