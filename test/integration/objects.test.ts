/**
 * The main job in the real host: the tree over the sandbox, objects as JSON
 * documents, save with PUT and its checks, create, delete, paging, sign-in.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/testApi';
import type { ObjectNode } from '../../src/tree/nodes/objectNode';
import type { CollectionNode } from '../../src/tree/nodes/collectionNode';
import { parseObjectUri } from '../../src/fs/objectUri';
import { asShown, childrenOf, closeAllEditors, envConnectionId, folderWith, label, nodeAt, rest, sandboxToken, services, setText, waitFor } from './helpers';

let s: TestApi;

/**
 * Whether the editor marks the document unsaved, as the workbench shows it: a refused save keeps it
 * so by a change made during the write, which the extension host's copy of `isDirty` does not hear of.
 */
const tabDirty = (uri: vscode.Uri) =>
  vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .some((t) => t.isDirty && t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());
let rootName: string;
let rootKey: string;

suite('objects', () => {
  suiteSetup(async () => {
    s = await services();
    const instance = await rest('GET', '/api');
    rootName = instance.body.CommonName;
    rootKey = instance.body.Key;
  });
  teardown(closeAllEditors);

  test('the tree shows the connection, its root folder, child folders and one group per kind', async () => {
    const connection = await nodeAt(s, 'Sandbox');
    const [root] = await childrenOf(connection);
    assert.strictEqual(label(root), rootName);
    const children = (await childrenOf(root)).map(label);
    const folders = (await rest('GET', `/api/f/${rootKey}/folders`)).body.map((f: any) => f.CommonName);
    for (const f of folders) assert.ok(children.includes(f), `folder ${f} in ${children.join(', ')}`);
    for (const group of ['Engage sites', 'Input scanners', 'Service containers', 'Service container modules', 'People']) {
      assert.ok(children.includes(group), `group ${group} in ${children.join(', ')}`);
    }
  });

  test('an object opens as a JSON document named after it, as the server returned it', async () => {
    const folder = await folderWith('inputscanners');
    const scanners = await nodeAt(s, 'Sandbox', ...folder.names, 'Input scanners');
    const node = (await childrenOf(scanners))[0] as ObjectNode;
    await vscode.commands.executeCommand('oms.openObject', node);
    const editor = await waitFor('an editor', () => vscode.window.activeTextEditor);
    const doc = editor.document;
    assert.strictEqual(doc.uri.scheme, 'oms');
    assert.strictEqual(doc.languageId, 'oms-object', 'the object language: JSON features, no auto-save');
    assert.ok(doc.uri.path.endsWith(`/${node.name}.json`), doc.uri.path);
    const server = (await rest('GET', `/api/f/${folder.key}/inputscanners/${node.object.Key}`)).body;
    assert.deepStrictEqual(JSON.parse(doc.getText()), asShown(server), 'the object without its version');
    assert.strictEqual(s.objectFiles.baseOf(doc.uri)?.ConcurrencyVersion, server.ConcurrencyVersion, 'the version the text is based on');
    assert.strictEqual(doc.isDirty, false);
  });

  test('edit and save: the sandbox holds the change and the document shows the new version', async () => {
    const { doc, server, at } = await openFirst('Input scanners', 'inputscanners');
    const edited = { ...asShown(server), Tags: ['edited-in-test'] };
    edited.InputScannerReportingPriorities[2].Priority = 7;
    await vscode.window.showTextDocument(doc);
    await setText(doc, JSON.stringify(edited, null, 2) + '\n');
    assert.ok(await explicitSave(doc), 'save succeeded');
    const after = (await rest('GET', at)).body;
    assert.deepStrictEqual(after.Tags, edited.Tags);
    assert.strictEqual(after.InputScannerReportingPriorities[2].Priority, 7);
    assert.strictEqual(after.ConcurrencyVersion, server.ConcurrencyVersion + 1, 'one PUT');
    assert.deepStrictEqual(JSON.parse(doc.getText()), asShown(after), 'the document holds what the server holds');
    assert.strictEqual(s.objectFiles.baseOf(doc.uri)?.ConcurrencyVersion, after.ConcurrencyVersion, 'the next save is based on the new version');
    assert.strictEqual(doc.isDirty, false);
    // No hidden second save: Undo takes back the user's own edit.
    await vscode.commands.executeCommand('undo');
    await waitFor('undo to restore the text before the edit', () => sameTags(JSON.parse(doc.getText()).Tags, server.Tags));
    assert.strictEqual(doc.isDirty, true);
    assert.strictEqual((await rest('GET', at)).body.ConcurrencyVersion, after.ConcurrencyVersion, 'nothing more sent');
  });

  test('auto-save sends nothing: an edit and a draft wait for an explicit save, which sends one PUT', async () => {
    const config = vscode.workspace.getConfiguration('files');
    await config.update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    await config.update('autoSaveDelay', 300, vscode.ConfigurationTarget.Global);
    try {
      const { doc, server, at } = await openFirst('Engage sites', 'engagesites');
      await vscode.window.showTextDocument(doc);
      await setText(doc, JSON.stringify({ ...asShown(server), Tags: ['typed-with-auto-save'] }, null, 2) + '\n');
      const before = (await rest('GET', `/api/f/${rootKey}/inputscanners?pageSize=1000`)).body.length;
      const uri: vscode.Uri = await vscode.commands.executeCommand('oms.newObject', {
        connectionId: envConnectionId,
        folderKey: rootKey,
        kind: 'inputScanner',
        name: 'Never auto-created',
      });
      const draft = await vscode.workspace.openTextDocument(uri);
      await setText(draft, draft.getText().replace('"Tags": []', '"Tags": ["typed"]'));
      await new Promise((r) => setTimeout(r, 3000));
      assert.strictEqual((await rest('GET', at)).body.ConcurrencyVersion, server.ConcurrencyVersion, 'no PUT on auto-save');
      assert.strictEqual((await rest('GET', `/api/f/${rootKey}/inputscanners?pageSize=1000`)).body.length, before, 'no draft created on auto-save');
      assert.ok(doc.isDirty && draft.isDirty, 'both keep the typed text, unsaved');
      await vscode.window.showTextDocument(doc);
      assert.strictEqual(await vscode.commands.executeCommand('oms.save'), true, 'explicit save');
      const after = (await rest('GET', at)).body;
      assert.strictEqual(after.ConcurrencyVersion, server.ConcurrencyVersion + 1, 'exactly one PUT');
      assert.deepStrictEqual(after.Tags, ['typed-with-auto-save']);
      await setText(doc, JSON.stringify(asShown(server), null, 2) + '\n');
      assert.ok(await explicitSave(doc), 'the edit taken back the same way');
    } finally {
      await config.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
      await config.update('autoSaveDelay', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('auto-save turned on for the object language by the user: an auto-save still sends nothing and keeps the edit', async () => {
    // Off by default for object documents (configurationDefaults); a user's own language setting wins.
    const config = vscode.workspace.getConfiguration('files', { languageId: 'oms-object' });
    await config.update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global, true);
    await config.update('autoSaveDelay', 300, vscode.ConfigurationTarget.Global, true);
    try {
      const { doc, server, at } = await openFirst('Engage sites', 'engagesites');
      await vscode.window.showTextDocument(doc);
      await setText(doc, JSON.stringify({ ...asShown(server), Tags: ['auto-saved-by-choice'] }, null, 2) + '\n');
      // VS Code did start the auto-save (the setting took), and it was held back.
      const logDir = vscode.Uri.joinPath(s.logUri, '..');
      const logText = async () =>
        (
          await Promise.all(
            (await findFiles(logDir, /Object Management Service\.log$/)).map(async (f) => Buffer.from(await vscode.workspace.fs.readFile(f)).toString('utf8')),
          )
        ).join('\n');
      await waitFor('the auto-save held back (the log)', async () => (await logText()).includes(`Auto-save of ${server.CommonName} held back`), 15_000);
      assert.strictEqual((await rest('GET', at)).body.ConcurrencyVersion, server.ConcurrencyVersion, 'no PUT on auto-save');
      assert.ok(doc.isDirty, 'the typed text kept, unsaved');
      assert.deepStrictEqual(JSON.parse(doc.getText()).Tags, ['auto-saved-by-choice']);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    } finally {
      await config.update('autoSave', undefined, vscode.ConfigurationTarget.Global, true);
      await config.update('autoSaveDelay', undefined, vscode.ConfigurationTarget.Global, true);
    }
  });

  test('an edit of Notes is flagged while typing and its save refused with what to do instead', async () => {
    const { doc, server, at } = await openFirst('Engage sites', 'engagesites');
    await setText(doc, JSON.stringify({ ...asShown(server), Notes: [{ NoteText: 'typed into the document' }] }, null, 2));
    const flagged = await waitFor('a diagnostic on Notes', () => vscode.languages.getDiagnostics(doc.uri).find((d) => d.source === 'oms'));
    assert.match(flagged.message, /does not store Notes.*Add Note/);
    assert.strictEqual(await doc.save(), false, 'save refused');
    assert.strictEqual(tabDirty(doc.uri), true, 'the text is kept');
    assert.deepStrictEqual((await rest('GET', at)).body, server, 'nothing sent');
  });

  test('Review Changes shows the server version beside the unsaved edit; nothing is sent', async () => {
    const { doc, server, at } = await openFirst('Engage sites', 'engagesites');
    await vscode.window.showTextDocument(doc);
    await setText(doc, JSON.stringify({ ...asShown(server), Tags: ['to-review'] }, null, 2) + '\n');
    await vscode.commands.executeCommand('oms.reviewChanges');
    const diff = await waitFor('a diff tab', () =>
      vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff
        ? vscode.window.tabGroups.activeTabGroup.activeTab.input
        : undefined,
    );
    assert.strictEqual(diff.original.scheme, 'oms-server');
    assert.strictEqual(diff.modified.toString(), doc.uri.toString());
    const original = await vscode.workspace.openTextDocument(diff.original);
    assert.deepStrictEqual(JSON.parse(original.getText()), asShown(server), 'the server side is the server copy as a document shows it');
    assert.strictEqual((await rest('GET', at)).body.ConcurrencyVersion, server.ConcurrencyVersion);
    // Typing the server's text back and saving sends nothing (no changes) and leaves the editor clean.
    await setText(doc, JSON.stringify(asShown(server), null, 2) + '\n');
    assert.ok(await explicitSave(doc));
    assert.strictEqual(doc.isDirty, false);
    assert.strictEqual((await rest('GET', at)).body.ConcurrencyVersion, server.ConcurrencyVersion, 'no PUT for an unchanged object');
  });

  test('a rename moves the tab title to the new CommonName', async () => {
    const { doc, server, at } = await openFirst('Engage sites', 'engagesites');
    await vscode.window.showTextDocument(doc);
    const name = `Renamed ${Date.now().toString(36)}`;
    await setText(doc, JSON.stringify({ ...asShown(server), CommonName: name }, null, 2) + '\n');
    assert.ok(await explicitSave(doc));
    await waitFor('a tab titled with the new name', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === `${name}.json`));
    await waitFor('the old title to be gone', () => !vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.label === `${server.CommonName}.json`));
    // And back: the tab returns to the old name, holding the server's copy.
    const renamed = vscode.window.activeTextEditor!.document;
    assert.ok(renamed.uri.path.endsWith(`/${name}.json`), renamed.uri.path);
    await setText(renamed, JSON.stringify({ ...asShown(server), CommonName: server.CommonName }, null, 2) + '\n');
    assert.ok(await explicitSave(renamed));
    const back = await waitFor('the tab back at the old name', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label === `${server.CommonName}.json`),
    );
    const backDoc = await vscode.workspace.openTextDocument((back.input as vscode.TabInputText).uri);
    const now = (await rest('GET', at)).body;
    // The copy VS Code still held of the old address (the text typed before the rename) is read again.
    await waitFor(
      "the old name's document to hold the server copy",
      () => s.objectFiles.baseOf(backDoc.uri)?.ConcurrencyVersion === now.ConcurrencyVersion && JSON.parse(backDoc.getText()).CommonName === server.CommonName,
    );
    assert.deepStrictEqual(JSON.parse(backDoc.getText()), asShown(now));
    assert.strictEqual(backDoc.isDirty, false);
  });

  test('an invalid edit shows diagnostics, saving it is refused with the reason, the sandbox is unchanged', async () => {
    const { doc, server, at } = await openFirst('Input scanners', 'inputscanners');
    const bad = structuredClone(server);
    bad.InputScannerReportingPriorities[0].StatusCode = 9;
    bad.InputScannerReportingPriorities.push({ ...bad.InputScannerReportingPriorities[0] });
    await setText(doc, JSON.stringify(bad, null, 2));
    const diagnostics = await waitFor(
      'schema diagnostics from jsonValidation',
      () => {
        const d = vscode.languages.getDiagnostics(doc.uri);
        return d.length ? d : undefined;
      },
      30_000,
    );
    assert.ok(
      diagnostics.some((d) => /8|enum|allowed|Value/.test(d.message)),
      diagnostics.map((d) => d.message).join(' | '),
    );
    assert.strictEqual(await doc.save(), false, 'save is refused');
    assert.strictEqual(tabDirty(doc.uri), true, 'the edit is kept');
    assert.strictEqual(JSON.parse(doc.getText()).InputScannerReportingPriorities.length, 9);
    assert.deepStrictEqual((await rest('GET', at)).body, server);
  });

  test('an edit of Key or $type is refused before anything is sent', async () => {
    const { doc, server, at } = await openFirst('Engage sites', 'engagesites');
    await setText(doc, JSON.stringify({ ...server, Key: '0123456789abcdef01234567' }, null, 2));
    const flagged = await waitFor('a diagnostic on Key', () => vscode.languages.getDiagnostics(doc.uri).find((d) => d.source === 'oms'));
    assert.match(flagged.message, /Key cannot be changed/);
    assert.strictEqual(doc.getText(flagged.range), '"0123456789abcdef01234567"');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(doc.uri, Buffer.from(doc.getText()))), /Key cannot be changed/);
    assert.deepStrictEqual((await rest('GET', at)).body, server);
  });

  test('a change made on the server meanwhile is caught as a conflict, never silently overwritten', async () => {
    const { doc, server, at } = await openFirst('Engage sites', 'engagesites');
    const theirs = { ...server, SiteReference: 'changed-by-someone-else' };
    assert.strictEqual((await rest('PUT', at, theirs)).status, 204);
    // The same field edited here: the merge cannot settle it without the user.
    await setText(doc, JSON.stringify({ ...asShown(server), SiteReference: 'mine' }, null, 2));
    const asked: string[][] = [];
    const original = s.saves.chooseFields;
    try {
      s.saves.chooseFields = (_name, conflicts) => (asked.push(conflicts.map((c) => c.pointer)), Promise.resolve(undefined));
      // One question (ours: a choice per field), asked once; stopped: nothing sent, the edit kept.
      assert.strictEqual(await doc.save(), false, 'the stale save is not sent');
      assert.deepStrictEqual(asked, [['/SiteReference']]);
      assert.strictEqual(tabDirty(doc.uri), true);
      assert.strictEqual((await rest('GET', at)).body.SiteReference, 'changed-by-someone-else');
      // A write that is not a document's save gets the error.
      await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(doc.uri, Buffer.from(doc.getText()))), /changed on the server/);
      s.saves.chooseFields = () => Promise.resolve({ '/SiteReference': 'mine' });
      await vscode.workspace.fs.writeFile(doc.uri, Buffer.from(doc.getText()));
    } finally {
      s.saves.chooseFields = original;
    }
    const after = (await rest('GET', at)).body;
    assert.strictEqual(after.SiteReference, 'mine', 'mine chosen: mine is stored');
    assert.strictEqual(after.ConcurrencyVersion, server.ConcurrencyVersion + 2);
    await rest('PUT', at, { ...server, ConcurrencyVersion: after.ConcurrencyVersion });
  });

  test('create: New Input Scanner opens a valid template; its first save POSTs it and the editor holds the Key', async () => {
    const before = (await rest('GET', `/api/f/${rootKey}/inputscanners?pageSize=1000`)).body.length;
    const uri: vscode.Uri = await vscode.commands.executeCommand('oms.newObject', {
      connectionId: envConnectionId,
      folderKey: rootKey,
      kind: 'inputScanner',
      name: 'Created in test',
    });
    const doc = await vscode.workspace.openTextDocument(uri);
    const template = JSON.parse(doc.getText());
    assert.strictEqual(template.Key, null);
    assert.strictEqual(template.InputScannerReportingPriorities.length, 8);
    await setText(doc, JSON.stringify({ ...template, Tags: ['from-test'] }, null, 2));
    assert.ok(await explicitSave(doc), 'first save creates');
    const list = (await rest('GET', `/api/f/${rootKey}/inputscanners?pageSize=1000`)).body;
    assert.strictEqual(list.length, before + 1);
    const created = list.find((o: any) => o.CommonName === 'Created in test');
    assert.deepStrictEqual(created.Tags, ['from-test']);
    const tab = await waitFor('a tab at the created Key, named after the object', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputText && parseObjectUri(t.input.uri)?.key === created.Key && t.label === 'Created in test.json'),
    );
    const shownDoc = await vscode.workspace.openTextDocument((tab.input as vscode.TabInputText).uri);
    assert.strictEqual(JSON.parse(shownDoc.getText()).Key, created.Key, 'the editor holds the created Key');
    assert.strictEqual(shownDoc.isDirty, false);

    // Delete round-trip: confirmation skipped by argument, editor closed, server 404.
    assert.strictEqual(await vscode.commands.executeCommand('oms.deleteObject', uri, true), true);
    assert.strictEqual((await rest('GET', `/api/f/${rootKey}/inputscanners/${created.Key}`)).status, 404);
    await waitFor(
      'its editor to close',
      () => !vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => (t.input as any)?.uri?.toString() === uri.toString()),
    );
  });

  test('a collection larger than a page loads with "Load more", and a double click loads a page once', async () => {
    const target = await folderWith('people', 201);
    const people = (await nodeAt(s, 'Sandbox', ...target.names, 'People')) as CollectionNode;
    let children = await childrenOf(people);
    assert.strictEqual(children.length, 101, '100 people and a Load more node');
    assert.strictEqual(label(children[100]), 'Load more…');
    await Promise.all([vscode.commands.executeCommand('oms.loadMore', people), vscode.commands.executeCommand('oms.loadMore', people)]);
    children = await childrenOf(people);
    assert.strictEqual(children.filter((c) => label(c) !== 'Load more…').length, Math.min(200, target.count));
    await vscode.commands.executeCommand('oms.loadAll', people);
    children = await childrenOf(people);
    assert.strictEqual(children.length, target.count, 'all loaded, no Load more node');
    assert.strictEqual(new Set(children.map((c) => c.id)).size, target.count);
  });

  test('an expired token leads to sign-in instead of a crash', async () => {
    const connection = s.connections.get(envConnectionId)!;
    await connection.setTokens({ accessToken: 'expired-token-000' });
    try {
      s.tree.refresh();
      const [root] = await childrenOf(await nodeAt(s, 'Sandbox'));
      assert.strictEqual(label(root), 'Sign in to load this');
      assert.strictEqual(root.getTreeItem().command?.command, 'oms.signIn');
      await vscode.commands.executeCommand('oms.signIn', envConnectionId, { token: sandboxToken });
      s.tree.refresh();
      const [again] = await childrenOf(await nodeAt(s, 'Sandbox'));
      assert.strictEqual(label(again), rootName);
    } finally {
      await connection.setTokens({ accessToken: sandboxToken });
    }
  });

  test('the log records requests with method, path, status and time, and never the token', async () => {
    const logDir = vscode.Uri.joinPath(s.logUri, '..');
    const files = await findFiles(logDir, /Object Management Service\.log$/);
    assert.ok(files.length, `a log file under ${logDir.fsPath}`);
    const text = (await Promise.all(files.map(async (f) => Buffer.from(await vscode.workspace.fs.readFile(f)).toString('utf8')))).join('\n');
    assert.match(text, /GET \/api\/f\/[0-9a-f]{24}\/inputscanners\/[0-9a-f]{24} 200 \d+ms/);
    assert.ok(!text.includes(sandboxToken), 'token absent from the log');
    assert.ok(!text.includes('expired-token-000'));
  });
});

async function openFirst(group: string, collection: string) {
  const folder = await folderWith(collection);
  const node = (await childrenOf(await nodeAt(s, 'Sandbox', ...folder.names, group)))[0] as ObjectNode;
  const key = node.object.Key!;
  const at = `/api/f/${folder.key}/${collection}/${key}`;
  const server = (await rest('GET', at)).body;
  await vscode.commands.executeCommand('oms.openObject', node);
  const doc = await waitFor('the document', () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === node.uri.toString()));
  assert.deepStrictEqual(JSON.parse(doc.getText()), asShown(server));
  return { doc, key, server, at };
}

/**
 * Ctrl+S in an object editor (the oms.save keybinding). With auto-save on, a
 * bare doc.save() can join an auto-save VS Code started a moment earlier and
 * share its refusal; the keybinding's command cannot.
 */
async function explicitSave(doc: vscode.TextDocument): Promise<boolean> {
  return (await vscode.commands.executeCommand<boolean>('oms.save', doc.uri)) === true;
}

function sameTags(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
}

async function findFiles(dir: vscode.Uri, pattern: RegExp, depth = 4): Promise<vscode.Uri[]> {
  const found: vscode.Uri[] = [];
  for (const [name, type] of await vscode.workspace.fs.readDirectory(dir).then(undefined, () => [] as [string, vscode.FileType][])) {
    const uri = vscode.Uri.joinPath(dir, name);
    if (type === vscode.FileType.Directory && depth > 0) found.push(...(await findFiles(uri, pattern, depth - 1)));
    else if (pattern.test(name)) found.push(uri);
  }
  return found;
}
