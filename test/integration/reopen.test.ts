/**
 * A tab closed a little earlier leaves its document loaded in VS Code: opening
 * the object again must show what the server holds now. A document VS Code let
 * go of leaves the version last read: opened after a change on the server, an
 * edit of it still saves.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/testApi';
import type { ObjectNode } from '../../src/tree/nodes/objectNode';
import { objectUri } from '../../src/fs/objectUri';
import { kind } from '../../src/model/kinds';
import { newObject } from '../../src/model/templates';
import { asShown, childrenOf, envConnectionId, folderWith, nodeAt, rest, services, waitFor } from './helpers';

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

  test('an object read before and changed on the server since opens with its version: an edit of it saves', async () => {
    // A scanner no document has held: read once through the file system (as a document VS Code has since let
    // go of was), so the provider keeps that version while the server moves on.
    const rootKey = (await rest('GET', '/api')).body.Key;
    const created = (await rest('POST', `/api/f/${rootKey}/inputscanners`, newObject(kind('inputScanner'), `Reopen ${Date.now()}`))).body;
    const at = `/api/f/${rootKey}/inputscanners/${created.Key}`;
    const uri = objectUri({ connectionId: envConnectionId, folderKey: rootKey, kind: kind('inputScanner'), key: created.Key }, created.CommonName, 'root');
    try {
      await vscode.workspace.fs.readFile(uri);
      await rest('PUT', at, { ...created, Tags: [`elsewhere-${Date.now()}`] });
      await new Promise((r) => setTimeout(r, 1_500)); // past the window in which a read is reused

      const doc = await vscode.workspace.openTextDocument(uri);
      const editor = await vscode.window.showTextDocument(doc);
      const server = (await rest('GET', at)).body;
      assert.deepStrictEqual(JSON.parse(doc.getText()), asShown(server));
      const tag = `reopened-${Date.now()}`;
      const edited = { ...JSON.parse(doc.getText()), Tags: [...server.Tags, tag] };
      await editor.edit((e) => e.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), JSON.stringify(edited, null, 2) + '\n'));
      assert.ok(await doc.save(), 'the save went through (VS Code did not call the file newer)');
      const saved = (await rest('GET', at)).body;
      assert.ok(saved.Tags.includes(tag), `the server's tags: ${JSON.stringify(saved.Tags)}`);
      assert.strictEqual(saved.ConcurrencyVersion, server.ConcurrencyVersion + 1);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await rest('DELETE', at);
    }
  });
});
