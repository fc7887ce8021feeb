/**
 * A tab closed a little earlier leaves its document loaded in VS Code: opening
 * the object again must show what the server holds now.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/testApi';
import type { ObjectNode } from '../../src/tree/nodes/objectNode';
import { asShown, childrenOf, folderWith, nodeAt, rest, services, waitFor } from './helpers';

let s: TestApi;

suite('reopen', () => {
  suiteSetup(async () => {
    s = await services();
  });

  test("an object changed elsewhere after its tab was closed opens with the server's text and version", async () => {
    const folder = await folderWith('servicecontainers');
    const node = (await childrenOf(await nodeAt(s, 'Sandbox', ...folder.names, 'Service containers')))[0] as ObjectNode;
    const at = `/api/f/${folder.key}/servicecontainers/${node.object.Key}`;
    await vscode.commands.executeCommand('oms.openObject', node);
    const doc = await waitFor('the document', () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === node.uri.toString()));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    assert.ok(vscode.workspace.textDocuments.includes(doc), "VS Code keeps the closed tab's document loaded");

    const before = (await rest('GET', at)).body;
    const tag = `reopen-${Date.now()}`;
    assert.strictEqual((await rest('PUT', at, { ...before, Tags: [...(before.Tags ?? []), tag] })).status < 300, true);
    const server = (await rest('GET', at)).body;

    await vscode.commands.executeCommand('oms.openObject', node);
    assert.deepStrictEqual(JSON.parse(doc.getText()), asShown(server));
    assert.strictEqual(s.objectFiles.baseOf(doc.uri)?.ConcurrencyVersion, server.ConcurrencyVersion, 'a save from it is based on the new version');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
