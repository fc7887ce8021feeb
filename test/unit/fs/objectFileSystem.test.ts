/**
 * The file system provider against a real sandbox: it serves an object as its
 * document text, keeps the version the text is based on (the stat VS Code
 * checks before a write), follows a rebase, and hands every write on once.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
// First: the provider imports `vscode` at run time.
import './vscodeShim';
import { startSandbox, Sandbox } from '../../../src/sandbox/server';
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { kind } from '../../../src/model/kinds';
import type { BaseInfo } from '../../../src/model/types';
import type { ConnectionManager } from '../../../src/connection/connectionManager';
import { ObjectFileSystem } from '../../../src/fs/objectFileSystem';
import { objectUri } from '../../../src/fs/objectUri';
import { documentText } from '../../../src/save/documentForm';

let sb: Sandbox;
let client: OmsClient;
const site = kind('engageSite');
const decode = (b: Uint8Array) => new TextDecoder().decode(b);

before(async () => {
  sb = await startSandbox({ port: 0, seed: 'demo' });
  client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
});
after(() => sb.close());

/** The part of ConnectionManager the provider uses: a live connection, or the one error. */
function connections(live = true): ConnectionManager {
  const require = (id: string) => {
    if (!live) throw new Error(`connection ${id} was removed`);
    return { client };
  };
  return { require, whenRestored: (id: string) => Promise.resolve().then(() => require(id)) } as unknown as ConnectionManager;
}

async function firstSite(): Promise<{ uri: vscode.Uri; object: BaseInfo & { Key: string } }> {
  const [object] = (await client.list(site, sb.instanceKey)).items as Array<BaseInfo & { Key: string }>;
  return { uri: objectUri({ connectionId: 'c1', folderKey: sb.instanceKey, kind: site, key: object.Key }, object.CommonName ?? 'x', 'Instance'), object };
}

test('serves the object as its document text, and stat carries the version the text is based on', async () => {
  const objectFiles = new ObjectFileSystem(connections());
  const { uri, object } = await firstSite();
  const text = decode(await objectFiles.readFile(uri));
  assert.equal(text, documentText(object));
  assert.ok(!text.includes('ConcurrencyVersion'));
  assert.equal(objectFiles.baseOf(uri)?.ConcurrencyVersion, object.ConcurrencyVersion);
  assert.equal((await objectFiles.stat(uri)).mtime, (object.ConcurrencyVersion ?? 0) + 1);
});

test('a change on the server does not move the stat (no "file is newer" from VS Code); a rebase does, and reloads', async () => {
  const objectFiles = new ObjectFileSystem(connections());
  const { uri, object } = await firstSite();
  await objectFiles.readFile(uri);
  await client.update(site, { ...object, SiteReference: `elsewhere-${Date.now()}` });
  const theirs = await client.get(site, sb.instanceKey, object.Key);
  assert.equal((await objectFiles.stat(uri)).mtime, (object.ConcurrencyVersion ?? 0) + 1, 'still the base VS Code read');
  assert.match(await objectFiles.serverText(uri), /elsewhere-/, "Compare shows the server's copy");
  const changed: string[] = [];
  const bases: string[] = [];
  objectFiles.onDidChangeFile((events) => changed.push(...events.map((e) => e.uri.toString())));
  objectFiles.onDidChangeBase((u) => bases.push(u.toString()));
  objectFiles.rebase(uri, theirs, { reload: true });
  assert.deepEqual(changed, [uri.toString()], 'VS Code is told to read it again');
  assert.deepEqual(bases, [uri.toString()], 'the status bar is told');
  assert.equal((await objectFiles.stat(uri)).mtime, (theirs.ConcurrencyVersion ?? 0) + 1);
  assert.equal(decode(await objectFiles.readFile(uri)), documentText(theirs));
});

test('a write is handed to the save entry once, with the text; without one it is refused', async () => {
  const objectFiles = new ObjectFileSystem(connections());
  const { uri } = await firstSite();
  await assert.rejects(Promise.resolve(objectFiles.writeFile(uri, new TextEncoder().encode('{}'))), /Unavailable|oms:/);
  const written: string[] = [];
  objectFiles.writer = (u, text) => (written.push(`${u.toString()} ${text}`), Promise.resolve());
  await objectFiles.writeFile(uri, new TextEncoder().encode('{"a":1}'));
  assert.deepEqual(written, [`${uri.toString()} {"a":1}`]);
});

test('a draft serves its template until created; then it addresses the created object', async () => {
  const objectFiles = new ObjectFileSystem(connections());
  const uri = objectFiles.newDraft({ connectionId: 'c1', folderKey: sb.instanceKey, kind: site }, 'Drafted', 'Instance');
  assert.ok(objectFiles.isUncreatedDraft(uri));
  const template = JSON.parse(decode(await objectFiles.readFile(uri))) as BaseInfo;
  assert.equal(template.CommonName, 'Drafted');
  assert.equal(objectFiles.baseOf(uri), undefined, 'nothing on the server yet');
  const created = await client.create(site, sb.instanceKey, template);
  objectFiles.rebase(uri, created);
  assert.ok(!objectFiles.isUncreatedDraft(uri));
  assert.equal(objectFiles.addressOf(uri)?.key, created.Key);
});

test('a document of a removed connection says so when read', async () => {
  const { uri } = await firstSite();
  await assert.rejects(new ObjectFileSystem(connections(false)).readFile(uri), /was removed/);
});
