/**
 * The ↓ badge of an object changed on the server since it was opened: what
 * the workbench is told when it changes: each Uri the object was drawn under
 * (its tab, its row, a row renamed since, one drawn before it was opened), so
 * the workbench fetches those at once, and nothing else.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
// First: the module imports `vscode` at run time.
import '../fs/vscodeShim';
import type * as vscode from 'vscode';
import { objectUri, type ObjectAddress } from '../../../src/fs/objectUri';
import { kind } from '../../../src/model/kinds';
import { ServerChanges } from '../../../src/live/serverChanges';

const scanner: ObjectAddress = { connectionId: 'c1', folderKey: '65a1f00a0000000000000001', kind: kind('inputScanner'), key: '65a1f00d0000000000000002' };
const other: ObjectAddress = { ...scanner, connectionId: 'c2' };

function watched(changes: ServerChanges): Array<string[] | 'all'> {
  const events: Array<string[] | 'all'> = [];
  changes.onDidChangeFileDecorations((e: vscode.Uri | vscode.Uri[] | undefined) => events.push(e === undefined ? 'all' : [e].flat().map(String)));
  return events;
}

test("a badge once the server moves past the version opened; none after the user's own save", () => {
  const changes = new ServerChanges();
  const doc = objectUri(scanner, 'Door', 'Floor 1');
  changes.seen(scanner, 3, 3, doc);
  assert.equal(changes.provideFileDecoration(doc), undefined);
  changes.seen(scanner, 3, 5, doc);
  const badge = changes.provideFileDecoration(doc);
  assert.equal(badge?.badge, '↓');
  assert.match(String(badge?.tooltip), /version 3 → 5/);
  // A later read with the document moved on keeps the version it was opened at.
  changes.seen(scanner, 5, 6, doc);
  assert.match(String(changes.provideFileDecoration(doc)?.tooltip), /version 3 → 6/);
  changes.own(scanner, 7);
  assert.equal(changes.provideFileDecoration(doc), undefined);
});

test('a change names the document and every Uri the object was drawn under, and nothing else', () => {
  const changes = new ServerChanges();
  const events = watched(changes);
  const doc = objectUri(scanner, 'Door', 'Floor 1');
  const renamedRow = objectUri(scanner, 'Door (renamed)', 'Floor 1');
  changes.seen(scanner, 1, 1, doc);
  assert.deepEqual(events, [[doc.toString()]]);
  changes.provideFileDecoration(renamedRow); // the tree draws its row under the new name
  changes.seen(scanner, 1, 2, doc);
  assert.deepEqual(events.slice(1), [[doc.toString(), renamedRow.toString()]]);
  assert.equal(changes.provideFileDecoration(renamedRow)?.badge, '↓');
  // The same server version again: nothing to redraw.
  changes.seen(scanner, 1, 2, doc);
  assert.equal(events.length, 2);
});

test('a row drawn before its object was opened is named with the first change, and again after its tab closed', () => {
  const changes = new ServerChanges();
  const events = watched(changes);
  const row = objectUri(scanner, 'Door', 'Floor 1 (row)');
  const doc = objectUri(scanner, 'Door', 'Floor 1');
  const elsewhere = objectUri(other, 'Door', 'Floor 1');
  assert.equal(changes.provideFileDecoration(row), undefined); // drawn, not open: no badge
  changes.provideFileDecoration(elsewhere);
  changes.seen(scanner, 1, 2, doc);
  assert.deepEqual(events, [[row.toString(), doc.toString()]]);
  changes.keepOnly([]);
  changes.seen(scanner, 2, 3, doc); // opened again
  assert.deepEqual(events.slice(1), [
    [row.toString(), doc.toString()],
    [row.toString(), doc.toString()],
  ]);
  assert.match(String(changes.provideFileDecoration(row)?.tooltip), /version 2 → 3/);
});

test('closing forgets only what is no longer open, of every connection, and redraws it without the badge', () => {
  const changes = new ServerChanges();
  const doc = objectUri(scanner, 'Door', 'Floor 1');
  const otherDoc = objectUri(other, 'Door', 'Floor 1');
  changes.seen(scanner, 1, 2, doc);
  changes.seen(other, 1, 2, otherDoc);
  const events = watched(changes);
  changes.keepOnly([scanner, other]);
  assert.deepEqual(events, [], 'nothing closed, nothing redrawn');
  changes.keepOnly([scanner]);
  assert.deepEqual(events, [[otherDoc.toString()]]);
  assert.equal(changes.provideFileDecoration(otherDoc), undefined);
  assert.equal(changes.provideFileDecoration(doc)?.badge, '↓');
});
