/**
 * At home in VS Code (issue 25): settings answered when wrong, tree items
 * described to screen readers, the walkthrough, localized strings.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/testApi';
import type { CollectionNode } from '../../src/tree/nodes/collectionNode';
import { childrenOf, envConnectionId, folderWith, label, nodeAt, rest, services } from './helpers';

let s: TestApi;
const config = () => vscode.workspace.getConfiguration('oms');

suite('home', () => {
  suiteSetup(async () => {
    s = await services();
  });

  test('settings: a negative page size is answered in the tree with a message naming the setting and its range', async () => {
    const folder = await folderWith('engagesites');
    const sites = (await nodeAt(s, 'Sandbox', ...folder.names, 'Engage sites')) as CollectionNode;
    await config().update('pageSize', -5, vscode.ConfigurationTarget.Global);
    try {
      sites.refresh();
      const shown = (await childrenOf(sites)).map(label);
      assert.strictEqual(shown.length, 1, shown.join(' | '));
      assert.match(shown[0], /oms\.pageSize is -5: it must be a whole number from 1 to 1000/);
    } finally {
      await config().update('pageSize', undefined, vscode.ConfigurationTarget.Global);
      sites.refresh();
    }
    assert.ok((await childrenOf(sites)).length > 1, 'the sites load again once the setting is fixed');
  });

  test('settings: a request time-out of 0 makes a command fail with the setting named, nothing is sent', async () => {
    const root = (await rest('GET', '/api')).body;
    const before = (await rest('GET', '/sandbox/outbox')).body.length;
    await config().update('requestTimeoutSeconds', 0, vscode.ConfigurationTarget.Global);
    try {
      const [site] = (await rest('GET', `/api/f/${root.Key}/engagesites`)).body;
      const r = await vscode.commands.executeCommand<{ ok: boolean; reason?: string }>('oms.inviteUser', {
        connectionId: envConnectionId, folderKey: root.Key, siteKey: site.Key, email: 'settings.check@example.com',
      });
      assert.strictEqual(r?.ok, false, JSON.stringify(r));
      assert.match(r.reason ?? '', /oms\.requestTimeoutSeconds is 0: it must be a whole number from 1 to 600/);
    } finally {
      await config().update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.strictEqual((await rest('GET', '/sandbox/outbox')).body.length, before, 'no invite sent');
  });
});
