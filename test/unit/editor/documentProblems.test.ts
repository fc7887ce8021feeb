/** What the save refuses is shown as an error while typing, a missing CommonName included. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentProblems } from '../../../src/editor/documentProblems';
import { kind } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';
import { documentText } from '../../../src/save/documentForm';

test('a required CommonName taken out is a problem of the document (the save refuses it), marked at the object', () => {
  const person = { ...newObject(kind('person'), 'Zanele Brown'), Key: '65a1f00d953b7c8226915604', ConcurrencyVersion: 1 };
  const text = documentText(person).replace(/\n\s*"CommonName": "Zanele Brown",/, '');
  assert.ok(!text.includes('CommonName'));
  const problems = documentProblems(person, text, kind('person').schema);
  assert.deepEqual(problems, [{ pointer: '', message: "must have required property 'CommonName'", offset: 0, length: 1 }]);
  assert.deepEqual(documentProblems(person, documentText(person), kind('person').schema), [], 'none for the object as it is');
});
