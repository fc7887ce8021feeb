import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kind } from '../../../src/model/kinds';
import { actionRoutes, collectionActionPath, folderActionPath, itemActionPath, keySegment, notesPath, objectPath } from '../../../src/model/routes';

const folder = 'b'.repeat(24);
const key = 'a'.repeat(24);

test("paths are the interface's: /api/f/{folder}/{collection}/{key}, actions and notes beneath", () => {
  assert.equal(objectPath(kind('engageSite'), folder, key), `/api/f/${folder}/engagesites/${key}`);
  assert.equal(itemActionPath(actionRoutes.invite, kind('engageSite'), folder, key), `/api/f/${folder}/engagesites/${key}/invite`);
  assert.equal(collectionActionPath(actionRoutes.addPeople, kind('person'), folder), `/api/f/${folder}/people/complex`);
  assert.equal(folderActionPath(actionRoutes.pushNotification, folder), `/api/f/${folder}/pushnotifications`);
  assert.equal(actionRoutes.pushNotification.method, 'DELETE');
  assert.equal(notesPath(kind('person'), folder, key, 'c1'), `/api/f/${folder}/people/${key}/notes/c1`);
});

test('a key that could address another object is refused; others are percent-encoded', () => {
  for (const bad of ['', '.', '..', 'a/b', '../x', 'a\\b']) {
    assert.throws(() => objectPath(kind('person'), folder, bad), /Not a valid key/, bad);
    assert.throws(() => objectPath(kind('person'), bad, key), /Not a valid folder key/, bad);
  }
  assert.equal(keySegment('a b?#%'), 'a%20b%3F%23%25');
  assert.equal(keySegment('...'), '...');
});
