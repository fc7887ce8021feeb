/**
 * Fields named as the outline names them (model/fieldNames.ts), never by JSON pointer: the per-field
 * question of a save, the message of a save merged with the server's changes (never "none"), and the
 * Object Changes rows, against a real sandbox through the save entry as extension.ts wires it.
 */
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
// First: the modules below import `vscode` at run time.
import { answers, shown, willSaveDocument } from '../fs/vscodeShim';
import { startSandbox, Sandbox } from '../../../src/sandbox/server';
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { kind } from '../../../src/model/kinds';
import type { InputScannerInfo } from '../../../src/model/types';
import type { ConnectionManager } from '../../../src/connection/connectionManager';
import { ObjectFileSystem } from '../../../src/fs/objectFileSystem';
import { objectUri } from '../../../src/fs/objectUri';
import { ObjectSaves } from '../../../src/documents/saves';
import { askPerField } from '../../../src/documents/conflictQuestions';
import { SaveHistory } from '../../../src/save/history';
import { topLevel } from '../../../src/editor/documentModel';
import { fieldLabel } from '../../../src/model/fieldNames';

const scannerKind = kind('inputScanner');
const manual = 1;
let sb: Sandbox;
let client: OmsClient;
let historyDir: string;

before(async () => {
  sb = await startSandbox({ port: 0, seed: 'demo' });
  client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
  historyDir = mkdtempSync(path.join(tmpdir(), 'oms-fields-'));
});
after(async () => {
  await sb.close();
  rmSync(historyDir, { recursive: true, force: true });
});
beforeEach(() => {
  shown.length = 0;
  answers.picks = [];
});

/** A scanner of the demo data open as a document, with the save entry and the real per-field question. */
async function openScanner() {
  const connection = { client, info: { label: 'Sandbox' } };
  const connections = { require: () => connection, whenRestored: () => Promise.resolve(connection) } as unknown as ConnectionManager;
  const objectFiles = new ObjectFileSystem(connections);
  const saves = new ObjectSaves(connections, objectFiles, new SaveHistory(historyDir), () => Promise.resolve('cancel' as never), askPerField);
  objectFiles.writer = (uri, text) => saves.writeDocument(uri, text);
  const { items: folders } = await client.list(kind('folder'), sb.instanceKey);
  const warehouse = folders.find((f) => f.CommonName === 'Warehouse')!;
  const {
    items: [listed],
  } = await client.list<InputScannerInfo>(scannerKind, warehouse.Key!);
  const scanner = await client.get<InputScannerInfo>(scannerKind, warehouse.Key!, listed.Key!);
  const uri = objectUri({ connectionId: 'c1', folderKey: warehouse.Key!, kind: scannerKind, key: scanner.Key! }, scanner.CommonName ?? 'x', 'Warehouse');
  const text = new TextDecoder().decode(await objectFiles.readFile(uri));
  return { objectFiles, uri, scanner, text, folderKey: warehouse.Key! };
}

/** The outline's name of the scanner's fifth reporting priority, without its number. */
function outlineNameOfFifth(text: string): string {
  const section = topLevel(text).find((s) => s.name === 'InputScannerReportingPriorities');
  const name = section?.children?.[4]?.name;
  assert.ok(name, 'the outline lists the fifth priority');
  return name.replace(/^5\. /, '');
}

test('the per-field question names the field as the outline does ("Reporting priority 5 (…) › Priority"), not by JSON pointer', async () => {
  const { objectFiles, uri, scanner, text, folderKey } = await openScanner();
  const mine = JSON.parse(text) as InputScannerInfo;
  const rows = mine.InputScannerReportingPriorities;
  rows[4] = { ...rows[4], Priority: (rows[4].Priority + 1) % 10 };
  const server = await client.get<InputScannerInfo>(scannerKind, folderKey, scanner.Key!);
  const theirs = structuredClone(server.InputScannerReportingPriorities);
  theirs[4] = { ...theirs[4], Priority: (theirs[4].Priority + 2) % 10 };
  await client.update(scannerKind, { ...server, InputScannerReportingPriorities: theirs });
  willSaveDocument(uri, manual);
  await objectFiles.writeFile(uri, new TextEncoder().encode(JSON.stringify(mine, null, 2))).catch(() => undefined);
  const question = shown.find((m) => m.kind === 'quickPick');
  assert.ok(question, JSON.stringify(shown));
  assert.equal(question.text, `Reporting priority 5 (${outlineNameOfFifth(text)}) › Priority: changed by you and on the server`);
});

test('a save merged with the server\'s changes names them as the outline does, and never says "none" when it took in nothing', async () => {
  const { objectFiles, uri, scanner, text, folderKey } = await openScanner();
  // Theirs: the fifth priority's Priority; mine: the first priority's name. The save merges, and says what it took in.
  const server = await client.get<InputScannerInfo>(scannerKind, folderKey, scanner.Key!);
  const theirs = structuredClone(server.InputScannerReportingPriorities);
  theirs[4] = { ...theirs[4], Priority: (theirs[4].Priority + 3) % 10 };
  await client.update(scannerKind, { ...server, InputScannerReportingPriorities: theirs });
  willSaveDocument(uri, manual);
  const mine = JSON.parse(text) as InputScannerInfo;
  mine.InputScannerReportingPriorities[0] = { ...mine.InputScannerReportingPriorities[0], CommonName: 'Mine first' };
  await objectFiles.writeFile(uri, new TextEncoder().encode(JSON.stringify(mine, null, 2)));
  const merged = shown.find((m) => m.kind === 'status')?.text ?? '';
  assert.match(merged, new RegExp(`merged with the server's changes to: Reporting priority 5 \\(${escape(outlineNameOfFifth(text))}\\) › Priority$`));

  // The server made the same change as the user: the save merges and takes in nothing.
  shown.length = 0;
  const now = await client.get<InputScannerInfo>(scannerKind, folderKey, scanner.Key!);
  const reread = new TextDecoder().decode(await objectFiles.readFile(uri));
  await client.update(scannerKind, { ...now, Description: 'same on both sides' });
  willSaveDocument(uri, manual);
  await objectFiles.writeFile(uri, new TextEncoder().encode(JSON.stringify({ ...JSON.parse(reread), Description: 'same on both sides' }, null, 2)));
  const said = shown.map((m) => m.text).join('\n');
  assert.match(said, /held no change your edit lacked/);
  assert.doesNotMatch(said, /\bnone\b|\(none\)/);
});

test('Object Changes rows (no object at hand) name a priority by its number from 1; every field label is free of JSON pointers', () => {
  assert.equal(fieldLabel('/InputScannerReportingPriorities/4/Priority'), 'Reporting priority 5 › Priority');
  assert.equal(fieldLabel('/CommonName'), 'CommonName');
  assert.equal(fieldLabel('/ObjectLinks/0/Href', { ObjectLinks: [{ Relation: 'Site', Href: '/x' }] }), 'ObjectLinks 1 (Site) › Href');
  assert.equal(fieldLabel('/a~1b'), 'a/b');
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
