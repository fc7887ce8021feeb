/**
 * Object documents' Uris: what VS Code shows of them (the tab title, the
 * breadcrumb: the path) names the folder and the object; the keys that
 * address the object ride in the query, so a rename changes what is shown,
 * never which object a document is.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
// First: objectUri imports `vscode` at run time.
import './vscodeShim';
import { Uri } from 'vscode';
import { documentNames, isDirectoryPath, objectUri, parseObjectUri, renamedUri, sameObject, type ObjectAddress } from '../../../src/fs/objectUri';
import { kind } from '../../../src/model/kinds';

const folderKey = '65a1f00a0000000000000001';
const key = '65a1f00d0000000000000002';
const person: ObjectAddress = { connectionId: 'c1', folderKey, kind: kind('person'), key };

test('the path names the folder, the collection and the object; no key shows in it', () => {
  const uri = objectUri(person, 'Zanele Brown', 'Head Office');
  assert.equal(uri.path, '/Head Office/people/Zanele Brown.json');
  assert.ok(!uri.path.includes(folderKey) && !uri.path.includes(key));
  assert.deepEqual(documentNames(uri), { folder: 'Head Office', object: 'Zanele Brown' });
});

test('the keys in the query address the object, also after the Uri went through its text', () => {
  const uri = Uri.parse(objectUri(person, 'Zanele Brown', 'Head Office').toString());
  const address = parseObjectUri(uri);
  assert.ok(address && sameObject(address, person));
  assert.equal(address.kind.id, 'person');
  assert.equal(isDirectoryPath(uri), false);
});

test('two objects of one name in one folder are two documents', () => {
  const other = objectUri({ ...person, key: '65a1f00d0000000000000003' }, 'Zanele Brown', 'Head Office');
  assert.notEqual(other.toString(), objectUri(person, 'Zanele Brown', 'Head Office').toString());
});

test('a renamed object (or folder) is still the same object; the folder name stays on a rename', () => {
  const uri = objectUri(person, 'Zanele Brown', 'Head Office');
  const renamed = renamedUri(uri, person, 'Zanele Dlamini');
  assert.equal(renamed.path, '/Head Office/people/Zanele Dlamini.json');
  assert.ok(sameObject(parseObjectUri(renamed)!, person));
  const folderRenamed = objectUri(person, 'Zanele Brown', 'Cape Town office');
  assert.ok(sameObject(parseObjectUri(folderRenamed)!, parseObjectUri(uri)!));
});

test('names that would split the path are made one segment; an empty name falls back to the key', () => {
  const uri = objectUri(person, 'A/B: "C"', ' ');
  assert.equal(uri.path, `/${folderKey}/people/A_B_ _C_.json`);
  assert.ok(sameObject(parseObjectUri(uri)!, person));
});

test('the earlier form (keys in the path) still addresses its object, as VS Code restores such editors', () => {
  const legacy = Uri.from({ scheme: 'oms', authority: 'c1', path: `/${folderKey}/people/${key}/Zanele Brown.json` });
  assert.ok(sameObject(parseObjectUri(legacy)!, person));
  assert.equal(documentNames(legacy).object, 'Zanele Brown');
});

test('the folder and collection prefixes are directories; an unknown collection is no object', () => {
  assert.ok(isDirectoryPath(Uri.from({ scheme: 'oms', authority: 'c1', path: '/Head Office/people' })));
  assert.ok(isDirectoryPath(Uri.from({ scheme: 'oms', authority: 'c1', path: '/Head Office' })));
  assert.equal(
    parseObjectUri(Uri.from({ scheme: 'oms', authority: 'c1', path: '/Head Office/nothing/X.json', query: `folder=${folderKey}&key=${key}` })),
    undefined,
  );
});
