/**
 * Find and follow in the real host: Go to Object reaching folders never
 * expanded, Reveal in Tree, links and hovers in object documents, folded
 * bookkeeping, the outline, notes under objects, Copy as cURL run in a shell.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { execFile } from 'child_process';
import type { TestApi } from '../../src/testApi';
import type { ObjectNode } from '../../src/tree/nodes/objectNode';
import { parseObjectUri } from '../../src/fs/objectUri';
import { asShown, childrenOf, closeAllEditors, envConnectionId, folderWith, label, nodeAt, rest, sandboxToken, services, waitFor } from './helpers';

let s: TestApi;

function activeKey(): Promise<string | undefined> {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return Promise.resolve(uri?.scheme === 'oms' ? parseObjectUri(uri)?.key : undefined);
}

/** A Floor 2 engage site (a folder the tests never expand before this suite). */
async function floor2Site(): Promise<{ folder: { names: string[]; key: string }; site: any }> {
  const root = (await rest('GET', '/api')).body;
  const head = (await rest('GET', `/api/f/${root.Key}/folders`)).body.find((f: any) => f.CommonName === 'Head Office');
  const floor = (await rest('GET', `/api/f/${head.Key}/folders`)).body.find((f: any) => f.CommonName === 'Floor 2');
  const [site] = (await rest('GET', `/api/f/${floor.Key}/engagesites`)).body;
  return { folder: { names: [root.CommonName, 'Head Office', 'Floor 2'], key: floor.Key }, site };
}

suite('find and follow', () => {
  suiteSetup(async () => {
    s = await services();
  });
  teardown(closeAllEditors);

  test('Go to Object: typing part of a name finds an object in a folder never expanded; Enter opens it', async () => {
    const { site } = await floor2Site();
    const run = vscode.commands.executeCommand('oms.goToObject', { connectionId: envConnectionId, query: site.CommonName });
    const index = s.search.of(envConnectionId);
    await waitFor('the site indexed', () => index.entry(site.Key));
    await new Promise((r) => setTimeout(r, 300)); // the list redraws every 50 ms
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await run;
    await waitFor('the site open', async () => (await activeKey()) === site.Key);
    const doc = vscode.window.activeTextEditor!.document;
    assert.ok(doc.uri.path.endsWith(`/${site.CommonName}.json`), doc.uri.path);
    assert.deepStrictEqual(JSON.parse(doc.getText()), asShown(site));
  });

  test("Ctrl+Alt+O's symbol search: the workspace symbols name an object of a folder never expanded, its kind and folders; its location opens it", async () => {
    const { site } = await floor2Site();
    const symbols = await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', site.CommonName);
    const found = symbols.find((x) => x.name === site.CommonName);
    assert.ok(found, `no symbol "${site.CommonName}" among ${symbols.map((x) => x.name).join(', ')}`);
    assert.strictEqual(found.containerName, 'Engage site · Head Office › Floor 2');
    await vscode.window.showTextDocument(found.location.uri);
    await waitFor('the site open', async () => (await activeKey()) === site.Key);
    const doc = vscode.window.activeTextEditor!.document;
    assert.ok(doc.uri.path.endsWith(`/${site.CommonName}.json`), doc.uri.path);
    assert.deepStrictEqual(JSON.parse(doc.getText()), asShown(site));
  });

  test("Ctrl+Alt+O's symbol search: a document VS Code still holds opens at the server's version, changed since it was closed", async () => {
    const { site } = await floor2Site();
    const [found] = (await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', site.CommonName)).filter(
      (x) => x.name === site.CommonName,
    );
    await vscode.window.showTextDocument(found.location.uri);
    await waitFor('the site open', async () => (await activeKey()) === site.Key);
    await closeAllEditors();
    const tag = `held-${Date.now()}`;
    const now = (await rest('GET', site.Href)).body;
    assert.ok((await rest('PUT', site.Href, { ...now, Tags: [...now.Tags, tag] })).status < 300);
    await vscode.commands.executeCommand('workbench.action.quickOpen', `#${site.CommonName}`);
    await new Promise((r) => setTimeout(r, 1_500)); // VS Code asks 200 ms after the last key
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await waitFor('the site open', async () => (await activeKey()) === site.Key);
    const text = vscode.window.activeTextEditor!.document.getText();
    await rest('PUT', site.Href, { ...(await rest('GET', site.Href)).body, Tags: now.Tags });
    assert.ok(text.includes(tag), `the held text, not the server's: ${text.slice(0, 400)}`);
  });

  test('Reveal in Tree selects the open object, expanding the folders on its way', async () => {
    const { folder, site } = await floor2Site();
    await vscode.commands.executeCommand('oms.openObject', {
      connectionId: envConnectionId,
      folderKey: folder.key,
      kind: 'engageSite',
      key: site.Key,
      name: site.CommonName,
    });
    await waitFor('the site open', async () => (await activeKey()) === site.Key);
    const id = await vscode.commands.executeCommand<string>('oms.revealInTree');
    assert.ok(id?.endsWith(`/${site.Key}`), id);
    const selected = await waitFor('a selection', () => s.tree.view?.selection[0]);
    assert.strictEqual(selected.id, id);
    assert.strictEqual(label(selected), site.CommonName);
  });

  test('a group filtered by name shows only matching objects, pages loaded later included', async () => {
    const people = await nodeAt(s, 'Sandbox', (await rest('GET', '/api')).body.CommonName, 'Head Office', 'People');
    const all = (await rest('GET', `/api/f/${(await folderWith('people', 200)).key}/people?pageSize=1000`)).body as any[];
    const surname = all[all.length - 1].Surname as string;
    const expected = all.filter((p) => (p.CommonName as string).toLowerCase().includes(surname.toLowerCase())).length;
    await vscode.commands.executeCommand('oms.filterGroup', people, surname);
    await vscode.commands.executeCommand('oms.loadAll', people);
    const shown = (await childrenOf(people)).map(label);
    assert.strictEqual(shown.length, expected, shown.join(', '));
    for (const name of shown) assert.ok(name.toLowerCase().includes(surname.toLowerCase()), name);
    await vscode.commands.executeCommand('oms.clearGroupFilter', people);
    assert.strictEqual((await childrenOf(people)).length, all.length);
    s.tree.refresh(people); // the group as other suites expect it: one page loaded when expanded
  });

  test('an object document: references are links, hovers name kind and CommonName, Ctrl+click lands on the object', async () => {
    const folder = await folderWith('inputscanners');
    const [scanner] = (await rest('GET', `/api/f/${folder.key}/inputscanners`)).body;
    const { folder: siteFolder, site } = await floor2Site();
    // One ObjectLinks item with an Href, one with a null Href (found by its key).
    scanner.ObjectLinks = [
      ...scanner.ObjectLinks,
      { ...scanner.ObjectLinks[0], Href: site.Href, LinkedObjectKey: site.Key, CommonName: site.CommonName, Relation: 'Site' },
      { ...scanner.ObjectLinks[0], Href: null, LinkedObjectKey: site.Key, CommonName: site.CommonName, Relation: 'SiteByKey' },
    ];
    assert.strictEqual((await rest('PUT', `/api/f/${folder.key}/inputscanners/${scanner.Key}`, scanner)).status < 300, true);
    const saved = (await rest('GET', `/api/f/${folder.key}/inputscanners/${scanner.Key}`)).body;
    assert.strictEqual(saved.ObjectLinks.length, scanner.ObjectLinks.length, 'the sandbox kept the links');

    await vscode.commands.executeCommand('oms.openObject', {
      connectionId: envConnectionId,
      folderKey: folder.key,
      kind: 'inputScanner',
      key: scanner.Key,
      name: scanner.CommonName,
    });
    await waitFor('the scanner open', async () => (await activeKey()) === scanner.Key);
    const doc = vscode.window.activeTextEditor!.document;
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', doc.uri);
    const texts = links.map((l) => doc.getText(l.range));
    for (const wanted of [scanner.Href, scanner.InFolderHref, site.Href, 'notes'])
      assert.ok(texts.includes(wanted), `${wanted} among links ${texts.join(', ')}`);
    const byHref = links.find((l) => doc.getText(l.range) === site.Href)!;
    const byKey = links.filter((l) => doc.getText(l.range) === site.Key).pop()!;
    assert.ok(byKey, 'the LinkedObjectKey of the null-Href item is a link');

    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, byHref.range.start.translate(0, 2));
    // Markdown escapes removed: the text as the user reads it.
    const hoverText = hovers
      .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)))
      .join('\n')
      .replace(/&nbsp;/g, ' ')
      .replace(/\\(.)/g, '$1');
    assert.ok(hoverText.includes('Engage site') && hoverText.includes(site.CommonName), hoverText);

    // Following a link is what Ctrl+click does: it runs the link's target.
    for (const link of [byHref, byKey]) {
      const [command, args] = [link.target!.path, JSON.parse(decodeURIComponent(link.target!.query))];
      await vscode.commands.executeCommand(command, ...args);
      await waitFor('the linked site open', async () => (await activeKey()) === site.Key);
      assert.strictEqual(parseObjectUri(vscode.window.activeTextEditor!.document.uri)?.folderKey, siteFolder.key);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
    // InFolderHref leads to the folder: revealed and selected in the tree.
    const folderLink = links.find((l) => doc.getText(l.range) === scanner.InFolderHref)!;
    await vscode.commands.executeCommand(folderLink.target!.path, ...JSON.parse(decodeURIComponent(folderLink.target!.query)));
    const folderName = (await rest('GET', `/api/f/${folder.key}`)).body.CommonName;
    await waitFor('the folder selected in the tree', () => s.tree.view?.selection[0] && label(s.tree.view.selection[0]) === folderName);
  });

  test("an object opens with Links, ObjectLinks, Metadata and Monikers folded; the text is the server's, unchanged", async () => {
    const folder = await folderWith('inputscanners');
    const [scanner] = (await rest('GET', `/api/f/${folder.key}/inputscanners`)).body;
    await vscode.commands.executeCommand('oms.openObject', {
      connectionId: envConnectionId,
      folderKey: folder.key,
      kind: 'inputScanner',
      key: scanner.Key,
      name: scanner.CommonName,
    });
    const editor = await waitFor('the scanner open', async () => ((await activeKey()) === scanner.Key ? vscode.window.activeTextEditor : undefined));
    const doc = editor.document;
    const lineOf = (text: string) =>
      doc
        .getText()
        .split('\n')
        .findIndex((l) => l.startsWith(`  "${text}"`));
    const linksLine = lineOf('Links');
    // Folded: the lines inside Links are not among the visible ranges.
    const hidden = (line: number) => !editor.visibleRanges.some((r) => r.start.line <= line && line <= r.end.line);
    await waitFor('Links folded', () => hidden(linksLine + 2));
    assert.ok(!hidden(linksLine), 'the Links line itself shows');
    assert.deepStrictEqual(JSON.parse(doc.getText()), asShown(scanner));
    assert.strictEqual(doc.isDirty, false);

    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', doc.uri);
    const flat = (list: vscode.DocumentSymbol[]): vscode.DocumentSymbol[] => list.flatMap((x) => [x, ...flat(x.children ?? [])]);
    const names = flat(symbols).map((x) => x.name);
    const first = scanner.InputScannerReportingPriorities[0].CommonName;
    assert.ok(names.includes(`1. ${first}`), `outline names the first priority "${first}": ${names.slice(0, 40).join(', ')}`);
  });

  test('notes: listed under the object with their author and time; added with a POST and deleted', async () => {
    const folder = await folderWith('engagesites');
    const groups = await nodeAt(s, 'Sandbox', ...folder.names, 'Engage sites');
    const node = (await childrenOf(groups))[0] as ObjectNode;
    const key = node.object.Key!;
    const text = `Checked the door on ${new Date().toISOString()}`;
    const versionBefore = (await rest('GET', `/api/f/${folder.key}/engagesites/${key}`)).body.ConcurrencyVersion;
    const added = await vscode.commands.executeCommand<any>('oms.addNote', {
      connectionId: envConnectionId,
      folderKey: folder.key,
      kind: 'engageSite',
      key,
      text,
    });
    assert.ok(added?.Key, 'the note came back with its key');
    const notes = (await rest('GET', `/api/f/${folder.key}/engagesites/${key}/notes`)).body as any[];
    assert.strictEqual(notes[notes.length - 1].NoteText, text);
    assert.strictEqual((await rest('GET', `/api/f/${folder.key}/engagesites/${key}`)).body.ConcurrencyVersion, versionBefore, 'a note is no PUT');

    const children = await childrenOf(node);
    const shown = children.map((c) => c.getTreeItem());
    assert.strictEqual(shown[shown.length - 1].label, text);
    assert.match(String(shown[shown.length - 1].description), /· \d{4}-\d\d-\d\d \d\d:\d\d$/);

    assert.strictEqual(
      await vscode.commands.executeCommand('oms.deleteNote', {
        connectionId: envConnectionId,
        folderKey: folder.key,
        kind: 'engageSite',
        key,
        noteKey: added.Key,
      }),
      true,
    );
    const after = (await rest('GET', `/api/f/${folder.key}/engagesites/${key}/notes`)).body as any[];
    assert.ok(!after.some((n) => n.Key === added.Key));
    assert.ok(!(await childrenOf(node)).some((c) => c.getTreeItem().label === text));
  });

  test('Copy as cURL of an object, pasted into a shell with TOKEN set, returns the object', async () => {
    const { folder, site } = await floor2Site();
    const command = await vscode.commands.executeCommand<string>('oms.copyAsCurl', {
      connectionId: envConnectionId,
      folderKey: folder.key,
      kind: 'engageSite',
      key: site.Key,
    });
    assert.strictEqual(await vscode.env.clipboard.readText(), command);
    assert.ok(!command.includes(sandboxToken), 'no token in the command');
    const out = await new Promise<string>((resolve, reject) =>
      execFile('bash', ['-c', command], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TOKEN: sandboxToken } }, (e, stdout, stderr) =>
        e ? reject(new Error(`${e.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    assert.deepStrictEqual(JSON.parse(out), (await rest('GET', `/api/f/${folder.key}/engagesites/${site.Key}`)).body);
  });
});
