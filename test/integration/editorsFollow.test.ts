/**
 * The save entry in the real host: editors follow a save made elsewhere,
 * and what goes away (a deleted object) takes its editors along without a
 * save prompt into it.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { parseObjectUri } from '../../src/fs/objectUri';
import type { TestApi } from '../../src/testApi';
import { objectDocuments, unsavedNote } from '../../src/documents/closeDocuments';
import { asShown, closeAllEditors, envConnectionId, rest, sandboxToken, sandboxUrl, services, setText, waitFor } from './helpers';

let s: TestApi;
let rootKey: string;

const tabsOf = (key: string) =>
  vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && parseObjectUri(t.input.uri)?.key === key);

suite('open editors follow saves', () => {
  suiteSetup(async () => {
    s = await services();
    rootKey = (await rest('GET', '/api')).body.Key;
  });
  teardown(closeAllEditors);

  test("after a Restore (saved elsewhere) an unedited open editor shows the server's text and version; one with edits keeps them and its base", async () => {
    const [site] = (await rest('GET', `/api/f/${rootKey}/engagesites`)).body;
    const at = `/api/f/${rootKey}/engagesites/${site.Key}`;
    const args = { connectionId: envConnectionId, folderKey: rootKey, kind: 'engageSite', key: site.Key, name: site.CommonName };
    const clean = await vscode.workspace.openTextDocument(await vscode.commands.executeCommand<vscode.Uri>('oms.openObject', args));
    await vscode.window.showTextDocument(clean);
    // A save from the editor, so the history has the version before it.
    const server = (await rest('GET', at)).body;
    await setText(clean, JSON.stringify({ ...asShown(server), Tags: ['house-follow'] }, null, 2) + '\n');
    assert.strictEqual(await vscode.commands.executeCommand('oms.save'), true);
    const saved = (await rest('GET', at)).body;
    // Restore puts the earlier version back through the save entry; the editor was not the one saving.
    const outcome: any = await vscode.commands.executeCommand('oms.showSaveHistory', clean.uri, { index: 0, restore: true });
    assert.strictEqual(outcome.status, 'saved');
    const restored = (await rest('GET', at)).body;
    assert.strictEqual(restored.ConcurrencyVersion, saved.ConcurrencyVersion + 1);
    await waitFor('the clean editor to show the restored text', () => !clean.getText().includes('house-follow') || undefined);
    assert.strictEqual(s.objectFiles.baseOf(clean.uri)?.ConcurrencyVersion, restored.ConcurrencyVersion, 'its next save is based on the restored version');
    assert.strictEqual(clean.isDirty, false);

    // With edits: kept, and the base stays (its next save meets the conflict).
    await setText(clean, JSON.stringify({ ...asShown(restored), Tags: ['typed-meanwhile'] }, null, 2) + '\n');
    const again: any = await vscode.commands.executeCommand('oms.showSaveHistory', clean.uri, { index: 0, restore: true });
    assert.strictEqual(again.status, 'saved', 'a second Restore, made elsewhere');
    await new Promise((r) => setTimeout(r, 500));
    assert.ok(clean.getText().includes('typed-meanwhile'), 'the edits are kept');
    assert.ok(clean.isDirty);
    assert.strictEqual(s.objectFiles.baseOf(clean.uri)?.ConcurrencyVersion, restored.ConcurrencyVersion);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    // As it was, for the suites after this one.
    await rest('PUT', at, { ...server, ConcurrencyVersion: (await rest('GET', at)).body.ConcurrencyVersion });
  });

  test('Delete Object on an object with unsaved edits closes its editor without a save prompt; nothing of the edit is sent', async () => {
    const name = `Deleted dirty ${Date.now()}`;
    const {
      Key: _key,
      Href: _href,
      ConcurrencyVersion: _v,
      Notes: _notes,
      Links: _links,
      ...copy
    } = (await rest('GET', `/api/f/${rootKey}/engagesites`)).body[0];
    assert.ok((await rest('POST', `/api/f/${rootKey}/engagesites`, { ...copy, CommonName: name, Tags: [] })).status < 300);
    const key = (await rest('GET', `/api/f/${rootKey}/engagesites?pageSize=1000`)).body.find((o: any) => o.CommonName === name).Key;
    const uri = await vscode.commands.executeCommand<vscode.Uri>('oms.openObject', {
      connectionId: envConnectionId,
      folderKey: rootKey,
      kind: 'engageSite',
      key,
      name: 'Deleted dirty',
    });
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    await setText(doc, doc.getText().replace('"Tags": []', '"Tags": ["never-sent"]'));
    assert.ok(doc.isDirty);
    // Before: VS Code's "save changes?" (a modal, which stops this run) came first, then a save into a deleted object.
    assert.strictEqual(await vscode.commands.executeCommand('oms.deleteObject', uri, true), true);
    assert.strictEqual((await rest('GET', `/api/f/${rootKey}/engagesites/${key}`)).status, 404);
    await waitFor('its editor to close', () => tabsOf(key).length === 0 || undefined);
  });

  test('Remove Connection with unsaved edits in an object of it: the question names them; its editor closes with no save prompt; nothing is sent', async () => {
    const id: string = await vscode.commands.executeCommand('oms.addConnection', {
      label: `Removed dirty ${Date.now()}`,
      baseUrl: sandboxUrl,
      token: sandboxToken,
    });
    const site = (await rest('GET', `/api/f/${rootKey}/engagesites`)).body[0];
    const uri = await vscode.commands.executeCommand<vscode.Uri>('oms.openObject', {
      connectionId: id,
      folderKey: rootKey,
      kind: 'engageSite',
      key: site.Key,
      name: site.CommonName,
    });
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    await setText(doc, doc.getText().replace('"Tags": [', '"Tags": ["never-sent", '));
    assert.ok(doc.isDirty);
    // The confirmation's detail line, as the command builds it for this connection.
    const ofIt = (u: vscode.Uri) => u.authority === id;
    const note = unsavedNote(objectDocuments(ofIt).dirty) ?? '';
    assert.ok(note.includes(`Unsaved edits in ${site.CommonName} `), note);
    // Before: no word of the edits, and the editor stayed, showing another connection's version in the status bar.
    await vscode.commands.executeCommand('oms.removeConnection', id, true);
    assert.strictEqual(s.connections.get(id), undefined);
    await waitFor('its editor to close', () => objectDocuments(ofIt).all.length === 0 || undefined);
    const after = (await rest('GET', `/api/f/${rootKey}/engagesites/${site.Key}`)).body;
    assert.strictEqual(after.ConcurrencyVersion, site.ConcurrencyVersion, 'nothing was sent');
    assert.ok(!after.Tags.includes('never-sent'));
  });
});
