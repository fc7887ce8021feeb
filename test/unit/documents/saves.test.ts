/**
 * The save entry of every surface (documents/saves.ts) against a real sandbox, wired to the file
 * system provider as the composition root wires it: an editor's save is sent once and moves the
 * document's base and the save history on; auto-save sends nothing; a conflict on other fields is
 * merged and said once; one on the same field asks, and Escape sends nothing.
 */
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type * as vscode from 'vscode';
// First: the modules below import `vscode` at run time.
import { answers, editing, openDocuments, shown, willSaveDocument } from '../fs/vscodeShim';
import { startSandbox, Sandbox } from '../../../src/sandbox/server';
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { kind } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';
import type { BaseInfo } from '../../../src/model/types';
import type { ConnectionManager } from '../../../src/connection/connectionManager';
import { ObjectFileSystem } from '../../../src/fs/objectFileSystem';
import { documentNames, objectUri, type ObjectAddress } from '../../../src/fs/objectUri';
import { ObjectSaves } from '../../../src/documents/saves';
import { mergeServer } from '../../../src/documents/mergeServer';
import type { MergeConflict } from '../../../src/changes/merge3';
import { SaveHistory } from '../../../src/save/history';
import { FollowDocuments } from '../../../src/live/followDocuments';

const site = kind('engageSite');
const manual = 1,
  afterDelay = 2;
let sb: Sandbox;
let client: OmsClient;
let historyDir: string;

before(async () => {
  sb = await startSandbox({ port: 0, seed: 'demo' });
  client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
  historyDir = mkdtempSync(path.join(tmpdir(), 'oms-saves-'));
});
after(async () => {
  await sb.close();
  rmSync(historyDir, { recursive: true, force: true });
});
beforeEach(() => {
  shown.length = 0;
  answers.picks = [];
});

interface Wired {
  objectFiles: ObjectFileSystem;
  saves: ObjectSaves;
  changed: ObjectAddress[];
  /** The conflicts the per-field question was asked about. */
  asked: MergeConflict[][];
}

/** The provider and the save entry as extension.ts wires them; the per-field question answers Escape. */
function wire(): Wired {
  const connection = { client, info: { label: 'Sandbox' } };
  const connections = { require: () => connection, whenRestored: () => Promise.resolve(connection) } as unknown as ConnectionManager;
  const objectFiles = new ObjectFileSystem(connections);
  const asked: MergeConflict[][] = [];
  const saves = new ObjectSaves(
    connections,
    objectFiles,
    new SaveHistory(historyDir),
    () => Promise.resolve('cancel' as never),
    (_name, conflicts) => {
      asked.push(conflicts);
      return Promise.resolve(undefined);
    },
  );
  objectFiles.writer = (uri, text) => saves.writeDocument(uri, text);
  const changed: ObjectAddress[] = [];
  saves.onDidChangeObject((a) => changed.push(a));
  return { objectFiles, saves, changed, asked };
}

/** A fresh site of the sandbox, open as a document (read through the provider). */
async function openSite(objectFiles: ObjectFileSystem): Promise<{ uri: vscode.Uri; object: BaseInfo & { Key: string } }> {
  const created = await client.create(site, sb.instanceKey, { ...newObject(site, `Saves ${Date.now()}-${Math.random()}`), SiteReference: 'ref-0' });
  const object = created as BaseInfo & { Key: string };
  const uri = objectUri({ connectionId: 'c1', folderKey: sb.instanceKey, kind: site, key: object.Key }, object.CommonName ?? 'x', 'Instance');
  await objectFiles.readFile(uri);
  return { uri, object };
}

/** The document's text with `fields` changed, as the user would type it. */
async function edited(objectFiles: ObjectFileSystem, uri: vscode.Uri, fields: Record<string, unknown>): Promise<Uint8Array> {
  const text = JSON.parse(new TextDecoder().decode(await objectFiles.readFile(uri))) as Record<string, unknown>;
  return new TextEncoder().encode(JSON.stringify({ ...text, ...fields }, null, 2));
}

const serverCopy = (key: string) => client.get<BaseInfo & Record<string, unknown>>(site, sb.instanceKey, key);

test("an editor save sends the edit once: the server holds it, the document's base and the save history move on, the tree hears of it", async () => {
  const { objectFiles, saves, changed } = wire();
  const { uri, object } = await openSite(objectFiles);
  const text = await edited(objectFiles, uri, { SiteReference: 'ref-1' });
  willSaveDocument(uri, manual);
  await objectFiles.writeFile(uri, text);
  const now = await serverCopy(object.Key);
  assert.equal(now.SiteReference, 'ref-1');
  assert.equal(now.ConcurrencyVersion, (object.ConcurrencyVersion ?? 0) + 1);
  assert.equal(objectFiles.baseOf(uri)?.ConcurrencyVersion, now.ConcurrencyVersion);
  // The history is written after the save returns (it never holds the save up).
  let history = await saves.history?.list('c1', object.Key);
  for (let i = 0; i < 50 && !history?.length; i++) history = await new Promise((r) => setTimeout(r, 20)).then(() => saves.history?.list('c1', object.Key));
  assert.deepEqual(
    history?.map((h) => h.object.ConcurrencyVersion),
    [object.ConcurrencyVersion],
  );
  assert.deepEqual(
    changed.map((a) => a.key),
    [object.Key],
  );
  assert.ok(
    shown.some((m) => m.kind === 'status' && m.text.includes(object.CommonName ?? '')),
    JSON.stringify(shown),
  );
});

test('auto-save sends nothing: the write is refused with the reason, the server keeps its version', async () => {
  const { objectFiles } = wire();
  const { uri, object } = await openSite(objectFiles);
  const text = await edited(objectFiles, uri, { SiteReference: 'auto' });
  willSaveDocument(uri, afterDelay);
  await assert.rejects(objectFiles.writeFile(uri, text), /auto-save never writes to the service/);
  const now = await serverCopy(object.Key);
  assert.equal(now.SiteReference, 'ref-0');
  assert.equal(now.ConcurrencyVersion, object.ConcurrencyVersion);
});

test('a save that meets a change of another field on the server merges: both changes on the server, the merge said once', async () => {
  const { objectFiles } = wire();
  const { uri, object } = await openSite(objectFiles);
  const text = await edited(objectFiles, uri, { SiteReference: 'mine' });
  await client.update(site, { ...(await serverCopy(object.Key)), CommonName: `${object.CommonName} (renamed)` });
  willSaveDocument(uri, manual);
  await objectFiles.writeFile(uri, text);
  const now = await serverCopy(object.Key);
  assert.equal(now.SiteReference, 'mine');
  assert.equal(now.CommonName, `${object.CommonName} (renamed)`);
  assert.equal(objectFiles.baseOf(uri)?.ConcurrencyVersion, now.ConcurrencyVersion);
  assert.equal(shown.filter((m) => m.kind === 'info' && /CommonName/.test(m.text)).length, 1, JSON.stringify(shown));
});

test('a save meeting a change of the same field asks about it; Escape sends nothing and says nothing more, nor do live updates of that version', async () => {
  const { objectFiles, saves, asked } = wire();
  const { uri, object } = await openSite(objectFiles);
  const text = await edited(objectFiles, uri, { SiteReference: 'mine' });
  await client.update(site, { ...(await serverCopy(object.Key)), SiteReference: 'theirs' });
  const before = await serverCopy(object.Key);
  // While the question is open the save is on its way: a poll then reads the version asked about, and says nothing.
  const question = saves.chooseFields;
  let savingWhileAsked = false;
  saves.chooseFields = (...args) => {
    savingWhileAsked = saves.isSaving(objectFiles.addressOf(uri)!);
    return question(...args);
  };
  willSaveDocument(uri, manual);
  await objectFiles.writeFile(uri, text);
  assert.deepEqual(
    asked.map((conflicts) => conflicts.map((c) => c.pointer)),
    [['/SiteReference']],
  );
  assert.ok(savingWhileAsked, 'the object is saving while its question is open');
  assert.equal(saves.isSaving(objectFiles.addressOf(uri)!), false, 'and no longer once it is answered');
  const now = await serverCopy(object.Key);
  assert.equal(now.SiteReference, 'theirs');
  assert.equal(now.ConcurrencyVersion, before.ConcurrencyVersion);
  assert.deepEqual(
    shown.filter((m) => m.kind !== 'status'),
    [],
  );

  // A poll then reads the version the question was about: nothing more is said; a later change is told once.
  assert.equal(saves.askedAbout(uri), now.ConcurrencyVersion);
  const doc = openDocument(uri, Buffer.from(text).toString());
  const follow = new FollowDocuments(objectFiles, saves);
  const open = { uri, address: objectFiles.addressOf(uri)! };
  follow.follow(open, now);
  assert.deepEqual(
    shown.filter((m) => m.kind !== 'status'),
    [],
  );
  await client.update(site, { ...now, SiteReference: 'later' });
  const later = await serverCopy(object.Key);
  follow.follow(open, later);
  const base = objectFiles.baseOf(uri)!.ConcurrencyVersion;
  const notices = () => shown.filter((m) => /changed on the server/.test(m.text)).map((m) => m.text);
  assert.deepEqual(notices(), [`"${documentNames(uri).object}" changed on the server since version ${base}, which your unsaved edits are based on.`]);
  // A second change on the server: still one notice, and nothing it says went out of date (no server version named).
  await client.update(site, { ...later, SiteReference: 'later still' });
  follow.follow(open, await serverCopy(object.Key));
  assert.equal(notices().length, 1);
  assert.doesNotMatch(notices()[0], new RegExp(`version ${later.ConcurrencyVersion}\\b`));
  openDocuments.splice(openDocuments.indexOf(doc), 1);
});

/** An editor's document with unsaved edits: its text, changed by `workspace.applyEdit` (the shim's `editing`). */
function openDocument(uri: vscode.Uri, text: string) {
  const doc = {
    uri,
    text,
    version: 1,
    isDirty: true,
    isClosed: false,
    getText: () => doc.text,
    positionAt: (offset: number) => offset,
  };
  openDocuments.push(doc);
  editing.apply = (edit) => {
    for (const { range, text: inserted } of edit.replaced as unknown as Array<{ range: { start: number; end: number }; text: string }>) {
      doc.text = doc.text.slice(0, range.start) + inserted + doc.text.slice(range.end);
    }
    doc.version++;
    return true;
  };
  return doc;
}

test("Merge (live updates) takes the server's change into the unsaved text, keeps the edit and VS Code's stat; Ctrl+S then saves, no conflict", async (t) => {
  t.after(() => {
    openDocuments.length = 0;
    editing.apply = undefined;
  });
  const { objectFiles, saves, asked } = wire();
  const { uri, object } = await openSite(objectFiles);
  const mtime = (await objectFiles.stat(uri)).mtime;
  const doc = openDocument(uri, new TextDecoder().decode(await edited(objectFiles, uri, { SiteReference: 'mine' })));
  await client.update(site, { ...(await serverCopy(object.Key)), CommonName: `${object.CommonName} (theirs)` });

  const merged = await mergeServer(uri, objectFiles, saves.chooseFields);
  assert.deepEqual(merged?.tookTheirs, ['/CommonName']);
  const text = JSON.parse(doc.text) as Record<string, unknown>;
  assert.equal(text.SiteReference, 'mine');
  assert.equal(text.CommonName, `${object.CommonName} (theirs)`);
  assert.equal(objectFiles.baseOf(uri)?.ConcurrencyVersion, (object.ConcurrencyVersion ?? 0) + 1);
  assert.equal((await objectFiles.stat(uri)).mtime, mtime, 'the stat VS Code read: its save is not stopped as "the file is newer"');

  willSaveDocument(uri, manual);
  await objectFiles.writeFile(uri, new TextEncoder().encode(doc.text));
  const now = await serverCopy(object.Key);
  assert.equal(now.SiteReference, 'mine');
  assert.equal(now.CommonName, `${object.CommonName} (theirs)`);
  assert.equal(now.ConcurrencyVersion, (object.ConcurrencyVersion ?? 0) + 2);
  assert.deepEqual(asked, []);
  assert.equal((await objectFiles.stat(uri)).mtime, (now.ConcurrencyVersion ?? 0) + 1, 'after the save, the stat follows the base again');
  assert.deepEqual(
    shown.filter((m) => m.kind !== 'status'),
    [],
  );
});

test('Merge never replaces text typed while it ran: a refused edit (the document changed) is merged again from the text as it is', async (t) => {
  t.after(() => {
    openDocuments.length = 0;
    editing.apply = undefined;
  });
  const { objectFiles, saves } = wire();
  const { uri, object } = await openSite(objectFiles);
  const doc = openDocument(uri, new TextDecoder().decode(await edited(objectFiles, uri, { SiteReference: 'mine' })));
  await client.update(site, { ...(await serverCopy(object.Key)), CommonName: `${object.CommonName} (theirs)` });
  const apply = editing.apply!;
  // A keystroke lands first: VS Code refuses an edit made for the version before it.
  editing.apply = () => {
    doc.text = doc.text.replace('"mine"', '"mine, typed"');
    doc.version++;
    editing.apply = apply;
    return false;
  };
  const merged = await mergeServer(uri, objectFiles, saves.chooseFields);
  assert.ok(merged);
  const text = JSON.parse(doc.text) as Record<string, unknown>;
  assert.equal(text.SiteReference, 'mine, typed');
  assert.equal(text.CommonName, `${object.CommonName} (theirs)`);
});

test("an object is saving from the save until its answer (a read meanwhile holds the user's own change), another object never", async () => {
  const { objectFiles, saves } = wire();
  const { object } = await openSite(objectFiles);
  const other = await openSite(objectFiles);
  const address: ObjectAddress = { connectionId: 'c1', folderKey: sb.instanceKey, kind: site, key: object.Key };
  const href = `/api/f/${sb.instanceKey}/engagesites/${object.Key}`;
  // The service handles the PUT at once and answers it late.
  const rule = await fetch(`${sb.url}/sandbox/faults`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sb.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ path: href, method: 'PUT', delayMs: 400, count: 1 }),
  });
  assert.equal(rule.status, 201);
  assert.equal(saves.isSaving(address), false);
  const saving = saves.save({ address, edit: { ...object, SiteReference: 'ref-late' }, base: object.ConcurrencyVersion ?? null });
  await new Promise((r) => setTimeout(r, 200));
  assert.equal((await client.get(site, sb.instanceKey, object.Key)).SiteReference, 'ref-late', 'a read meanwhile holds the saved object');
  assert.equal(saves.isSaving(address), true);
  assert.equal(saves.isSaving({ ...address, key: other.object.Key }), false);
  assert.equal((await saving).status, 'saved');
  assert.equal(saves.isSaving(address), false);
});
