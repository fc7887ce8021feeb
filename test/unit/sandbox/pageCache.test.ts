import { test } from 'node:test';
import assert from 'node:assert/strict';
import { digestOf, PageCache } from '../../../src/sandbox/store/pageCache';

/** A page builder that counts its calls. */
function builder(fill: string) {
  const made = { count: 0 };
  const build = () => {
    made.count++;
    return Buffer.alloc(4 * 1024 * 1024, fill);
  };
  return { made, build };
}

test('a pass over more pages than the byte cap still knows every digest: asked again, none is built', () => {
  const cache = new PageCache();
  const pages = Array.from({ length: 12 }, (_, i) => ({ id: `${i * 1000}/1000`, ...builder(String.fromCharCode(97 + i)) }));
  const digests = pages.map((p) => cache.digest('f/inputScanner', p.id, p.build));
  assert.deepEqual(
    pages.map((p) => p.made.count),
    pages.map(() => 1),
  );
  assert.deepEqual(
    pages.map((p) => cache.digest('f/inputScanner', p.id, p.build)),
    digests,
  );
  assert.deepEqual(
    pages.map((p) => p.made.count),
    pages.map(() => 1),
    'a digest asked again builds nothing (48 MB of pages, a cap of 32 MB)',
  );
  assert.equal(digests[0], digestOf(Buffer.alloc(4 * 1024 * 1024, 'a')));
  // The bytes of the first pages went to make room; they are built again when a body is wanted.
  const first = pages[0];
  assert.equal(cache.bytes('f/inputScanner', first.id, first.build).length, 4 * 1024 * 1024);
  assert.equal(first.made.count, 2);
});

test('a changed group is built again; other groups keep their pages', () => {
  const cache = new PageCache();
  const a = builder('a');
  const b = builder('b');
  cache.bytes('f/inputScanner', '0/1000', a.build);
  cache.bytes('f/person', '0/1000', b.build);
  cache.drop('f/inputScanner');
  cache.digest('f/inputScanner', '0/1000', a.build);
  cache.digest('f/person', '0/1000', b.build);
  assert.equal(a.made.count, 2);
  assert.equal(b.made.count, 1);
});
