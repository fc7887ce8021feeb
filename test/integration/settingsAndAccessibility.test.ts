/**
 * At home in VS Code: settings answered when wrong, tree items
 * described to screen readers, the walkthrough, localized strings.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/testApi';
import type { CollectionNode } from '../../src/tree/nodes/collectionNode';
import { childrenOf, envConnectionId, folderWith, label, nodeAt, rest, services } from './helpers';

let s: TestApi;
const config = () => vscode.workspace.getConfiguration('oms');

suite('settings', () => {
  suiteSetup(async () => {
    s = await services();
  });

  test('settings: a negative page size is answered in the tree with a message naming the setting and its range', async () => {
    const folder = await folderWith('engagesites');
    const sites = (await nodeAt(s, 'Sandbox', ...folder.names, 'Engage sites')) as CollectionNode;
    await config().update('pageSize', -5, vscode.ConfigurationTarget.Global);
    try {
      await sites.refresh();
      const shown = (await childrenOf(sites)).map(label);
      assert.strictEqual(shown.length, 1, shown.join(' | '));
      assert.match(shown[0], /oms\.pageSize is -5: it must be a whole number from 1 to 1000/);
    } finally {
      await config().update('pageSize', undefined, vscode.ConfigurationTarget.Global);
      await sites.refresh();
    }
    const again = (await childrenOf(sites)).map(label);
    assert.ok(again.length >= 1 && !again.some((l) => l.includes('oms.pageSize')), `the sites load again once the setting is fixed: ${again.join(' | ')}`);
  });

  test('settings: a request time-out of 0 makes a command fail with the setting named, nothing is sent', async () => {
    const root = (await rest('GET', '/api')).body;
    const before = (await rest('GET', '/sandbox/outbox')).body.length;
    await config().update('requestTimeoutSeconds', 0, vscode.ConfigurationTarget.Global);
    try {
      const [site] = (await rest('GET', `/api/f/${root.Key}/engagesites`)).body;
      const r = await vscode.commands.executeCommand<{ ok: boolean; reason?: string }>('oms.inviteUser', {
        connectionId: envConnectionId,
        folderKey: root.Key,
        siteKey: site.Key,
        email: 'settings.check@example.com',
      });
      assert.strictEqual(r?.ok, false, JSON.stringify(r));
      assert.match(r.reason ?? '', /oms\.requestTimeoutSeconds is 0: it must be a whole number from 1 to 600/);
    } finally {
      await config().update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.strictEqual((await rest('GET', '/sandbox/outbox')).body.length, before, 'no invite sent');
  });
});

suite('accessibility', () => {
  suiteSetup(async () => {
    s = await services();
  });

  const spoken = (node: { getTreeItem(): vscode.TreeItem }) => node.getTreeItem().accessibilityInformation?.label ?? '';

  test('tree items tell a screen reader their kind, name and state: active, production, unsaved', async () => {
    const connection = await nodeAt(s, 'Sandbox');
    const active = s.connections.active?.id === envConnectionId ? ', active' : '';
    assert.strictEqual(spoken(connection), `Connection Sandbox, ${new URL(process.env.OMS_SANDBOX_URL!).host}${active}`);
    const folder = await folderWith('inputscanners');
    const [root] = await childrenOf(connection);
    assert.strictEqual(spoken(root), `Instance ${folder.names[0]}`);
    const scanners = await nodeAt(s, 'Sandbox', ...folder.names, 'Input scanners');
    assert.match(spoken(scanners), /^Group Input scanners, \d+ loaded/);
    const [first] = await childrenOf(scanners);
    const object = (await rest('GET', `/api/f/${folder.key}/inputscanners`)).body[0];
    assert.strictEqual(spoken(first), `Input scanner ${object.CommonName}, version ${object.ConcurrencyVersion}`);

    // Unsaved edits in its editor: the item says so, and stops saying so once they are reverted.
    await vscode.commands.executeCommand('oms.openObject', first);
    const editor = await waitForEditor(object.CommonName);
    await editor.edit((e) => e.insert(new vscode.Position(1, 0), ' '));
    const unsaved = async () => spoken((await childrenOf(scanners))[0]);
    assert.match(await unsaved(), /, unsaved changes$/);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.doesNotMatch(await unsaved(), /unsaved/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    await s.connections.update(envConnectionId, { production: true });
    try {
      const again = await nodeAt(s, 'Sandbox');
      assert.match(spoken(again), /, production: every write asks first$/);
      assert.match(spoken((await childrenOf(await nodeAt(s, 'Sandbox', ...folder.names, 'Input scanners')))[0]), /, production$/);
    } finally {
      await s.connections.update(envConnectionId, { production: false });
    }
  });

  test('an error item says it is an error, why, and how to retry', async () => {
    const folder = await folderWith('engagesites');
    const sites = (await nodeAt(s, 'Sandbox', ...folder.names, 'Engage sites')) as CollectionNode;
    await config().update('pageSize', 0, vscode.ConfigurationTarget.Global);
    try {
      await sites.refresh();
      const [error] = await childrenOf(sites);
      assert.match(spoken(error), /^Error: failed to load\. The setting oms\.pageSize is 0: .*\. Press Enter to retry\.$/);
    } finally {
      await config().update('pageSize', undefined, vscode.ConfigurationTarget.Global);
      await sites.refresh();
    }
  });
});

async function waitForEditor(name: string): Promise<vscode.TextEditor> {
  for (let i = 0; i < 100; i++) {
    const editor = vscode.window.activeTextEditor;
    if (editor?.document.uri.path.endsWith(`/${name}.json`)) return editor;
    await new Promise((r) => setTimeout(r, 100));
  }
  return assert.fail(`no editor for ${name}`);
}
