import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changedImmutableFields, sameJson } from '../../../src/model/saveChecks';
import { makeType, namingOf, parseType } from '../../../src/model/typeName';
import { kinds } from '../../../src/model/kinds';
import type { BaseInfo } from '../../../src/model/types';

const stored: BaseInfo = {
  $type: makeType('EngageSiteInfo'),
  Key: 'a'.repeat(24),
  Href: `/api/f/${'b'.repeat(24)}/engagesites/${'a'.repeat(24)}`,
  InFolderKey: 'b'.repeat(24),
  InFolderHref: `/api/f/${'b'.repeat(24)}`,
  CommonName: 'Site',
  ConcurrencyVersion: 3,
};

test('immutable fields: an edit of $type, Key, Href or folder is caught, other edits are not', () => {
  assert.deepEqual(changedImmutableFields(stored, { ...stored, CommonName: 'Renamed' }), []);
  assert.deepEqual(changedImmutableFields(stored, { ...stored, Key: 'c'.repeat(24), InFolderKey: null }), ['Key', 'InFolderKey']);
  assert.deepEqual(changedImmutableFields(stored, { ...stored, $type: makeType('InputScannerInfo') }), ['$type']);
});

test('sameJson compares deeply and ignores key order', () => {
  assert.equal(sameJson({ a: [1, { b: 2 }], c: null }, { c: null, a: [1, { b: 2 }] }), true);
  assert.equal(sameJson({ a: [1, 2] }, { a: [2, 1] }), false);
  assert.equal(sameJson({ a: 1 }, { a: 1, b: undefined }), false);
});

test('$type: parsed without a fixed namespace, made with a learnt one', () => {
  assert.deepEqual(parseType('Acme.Model.PersonInfo, Acme.Model'), { namespace: 'Acme.Model', typeName: 'PersonInfo', assembly: 'Acme.Model' });
  assert.equal(parseType('PersonInfo'), undefined);
  const naming = namingOf({ $type: 'Acme.Model.PersonInfo, Acme.Model' });
  assert.equal(makeType('EngageSiteInfo', naming), 'Acme.Model.EngageSiteInfo, Acme.Model');
});

test('the registry has one entry per kind with distinct collections and schemas', () => {
  const list = [...kinds.values()];
  assert.equal(new Set(list.map((k) => k.collection)).size, list.length);
  assert.equal(new Set(list.map((k) => k.schema)).size, list.length);
  assert.ok(!kinds.get('serviceContainer')!.operations.includes('delete'), 'the spec gives containers update only');
});
