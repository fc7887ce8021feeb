import { test } from 'node:test';
import assert from 'node:assert/strict';

import { kind, objectKinds } from '../../../../src/model/kinds';
import { namedBy } from '../../../../src/commands/framework/namedBy';

// The fields each tree node carries (src/tree/nodes/*.ts), and the args objects scripts pass.
const site = { Key: 'k1', CommonName: 'Lobby' };

test('a connection is named by an id, a connection node, or connectionId on other nodes and args', () => {
  assert.equal(namedBy('c1').connectionId, 'c1');
  assert.equal(namedBy({ connection: { id: 'c2' } }).connectionId, 'c2');
  assert.equal(namedBy({ connectionId: 'c3', folderKey: 'f' }).connectionId, 'c3');
  assert.equal(namedBy('').connectionId, undefined);
  assert.deepEqual(namedBy(undefined), {});
  assert.deepEqual(namedBy(42), {});
});

test('an object node and an args object name the same object', () => {
  const node = { connectionId: 'c', folderKey: 'f', kind: kind('engageSite'), object: site };
  const args = { connectionId: 'c', folderKey: 'f', kind: 'engageSite', key: 'k1', name: 'Lobby' };
  assert.deepEqual(namedBy(node), namedBy(args));
  assert.deepEqual(namedBy(node), { connectionId: 'c', folderKey: 'f', kind: kind('engageSite'), key: 'k1', name: 'Lobby' });
});

test("a command's own key field (siteKey) is read; the node's object wins over it", () => {
  assert.equal(namedBy({ connectionId: 'c', siteKey: 's1' }, 'siteKey').key, 's1');
  assert.equal(namedBy({ connectionId: 'c', key: 'k' }, 'siteKey').key, 'k');
  assert.equal(namedBy({ object: site, siteKey: 's1' }, 'siteKey').key, 'k1');
});

test('a group node names its kind by the registry entry, args by id; an unknown id is refused', () => {
  for (const k of objectKinds) {
    assert.equal(namedBy({ connectionId: 'c', folderKey: 'f', kind: k }).kind, k);
    assert.equal(namedBy({ kind: k.id }).kind, k);
  }
  assert.throws(() => namedBy({ kind: 'gadget' }), /Unknown kind gadget/);
});
