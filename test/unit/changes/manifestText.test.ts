// The manifest's text patched in place (an apply's few objects) must be the text written whole, at any place in the file.
import test from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  ensureCache,
  journalSync,
  manifestLines,
  manifestName,
  parts,
  readManifest,
  writeManifest,
  writeManifestLines,
  type Manifest,
  type ManifestObject,
} from '../../../src/changes/code/manifest';

/** The manifest as its file holds it (JSON: its objects a record). */
type ManifestFile = Omit<Manifest, 'objects'> & { objects: Record<string, ManifestObject> };
import { manifestText, patchManifestText, pickObjects } from '../../../src/changes/code/manifestText';

const folderKey = 'f0';
const entry = (key: string, version = 1): ManifestObject => ({
  path: `Site/inputscanners/${key}.json`,
  kind: 'inputScanner',
  folderKey,
  version,
  hash: `h${key}`,
});

function manifestOf(keys: string[]): Manifest {
  const objects = new Map(keys.map((key) => [key, entry(key)]));
  return {
    format: 1,
    connection: { label: 'Sandbox', url: 'http://127.0.0.1:1', instanceKey: 'i' },
    scope: { folderKey, recursive: false, kinds: ['inputScanner'] },
    folders: { [folderKey]: 'Site' },
    objects,
  };
}

/** The text patched as the file would be written: its pieces joined. */
function patched(text: string, manifest: Manifest, changed: string[]): string | undefined {
  const pieces = patchManifestText(Buffer.from(text), manifest, changed);
  return pieces && Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))).toString();
}

/** A small generator of repeatable randomness: a failure names its seed. */
function random(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

test('a manifest patched for the objects that changed (updated, removed, new at any place) is the text written whole', () => {
  for (let seed = 1; seed <= 200; seed++) {
    const next = random(seed);
    const size = Math.floor(next() * 40);
    // Keys beyond the first plane and just below its end: their lines sort as text (UTF-16), not as UTF-8 bytes.
    const keys = [...Array.from({ length: size }, (_, i) => `k${String(i * 2).padStart(3, '0')}`), 'k\u{e000}', 'k😀'];
    const before = manifestOf(keys);
    const text = manifestText(before);
    const after = manifestOf(keys);
    const changed: string[] = [];
    for (let n = Math.floor(next() * 6); n > 0; n--) {
      const roll = next();
      const some = keys[Math.floor(next() * keys.length)];
      if (roll < 0.35 && some) {
        after.objects.set(some, entry(some, 7));
        changed.push(some);
      } else if (roll < 0.6 && some) {
        after.objects.delete(some);
        changed.push(some);
      } else {
        // Between two present keys, before the first or after the last (odd numbers sort between even ones).
        const odd = next();
        const key =
          odd < 0.2
            ? next() < 0.5
              ? 'a'
              : 'z'
            : odd < 0.3
              ? next() < 0.5
                ? 'k\u{e000}a'
                : 'k😀a'
              : `k${String(Math.floor(next() * size * 2) | 1).padStart(3, '0')}`;
        after.objects.set(key, entry(key, 2));
        changed.push(key);
      }
    }
    assert.equal(patched(text, after, changed), manifestText(after), `seed ${seed}: ${changed.join(' ')}`);
  }
});

test('the objects picked from a manifest are those asked for, any Key (__proto__ included); an absent one is not made up', () => {
  const keys = ['__proto__', 'a.b', 'a_b', 'constructor', 'k1'];
  const text = manifestText(manifestOf(keys));
  const picked = pickObjects(Buffer.from(text), ['constructor', '__proto__', 'k1', 'missing']) as { objects: Map<string, ManifestObject> };
  assert.deepEqual([...picked.objects.keys()].sort(), ['__proto__', 'constructor', 'k1']);
  assert.deepEqual(picked.objects.get('__proto__'), entry('__proto__'));
});

test('a manifest hand-edited out of order is patched by finding the lines one by one: no object twice, none lost', () => {
  const text = manifestText(manifestOf(['k1', 'k2', 'k3', 'k4']));
  const lines = text.split('\n');
  const [i1, i4] = [lines.findIndex((l) => l.includes('"k1"')), lines.findIndex((l) => l.includes('"k4"'))];
  // k4 first, k1 last: a binary search misses both.
  [lines[i1], lines[i4]] = [lines[i4].replace(/}$/, '},'), lines[i1].replace(/},$/, '}')];
  const after = manifestOf(['k1', 'k2', 'k3', 'k4']);
  after.objects.set('k1', entry('k1', 9));
  after.objects.delete('k4');
  const written = patched(lines.join('\n'), after, ['k1', 'k4'])!;
  const objects = (JSON.parse(written) as ManifestFile).objects;
  assert.deepEqual(Object.keys(objects).sort(), ['k1', 'k2', 'k3']);
  assert.equal(objects.k1.version, 9);
  assert.equal(written.split('"k1"').length, 2, 'k1 once');
});

test("a text not in the manifest's own form (pretty-printed, or a line that is not an object's) is not patched: it is written whole", () => {
  const manifest = manifestOf(['k1', 'k2']);
  assert.equal(patched(JSON.stringify(manifest, null, 2), manifest, ['k1']), undefined);
  // The first object's line without its comma: not a line this form writes.
  assert.equal(pickObjects(Buffer.from(manifestText(manifest).replace('},\n', '}\n')), ['k1']), undefined);
});

test("an apply's manifest, read for a few objects, is written back over an edit made to the file meanwhile, not over the text it read", async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-manifest-'));
  try {
    const file = path.join(root, manifestName);
    await fs.writeFile(file, manifestText(manifestOf(['k1', 'k2', 'k3'])));
    await ensureCache(root);
    const manifest = (await readManifest(root, ['k1']))!;
    // Another hand (a pull in another window, a git checkout) moves k3 on while the apply runs.
    const moved = manifestOf(['k1', 'k2', 'k3']);
    moved.objects.set('k3', entry('k3', 5));
    await fs.writeFile(file, manifestText(moved));
    journalSync(root, manifest, [{ key: 'k1', object: entry('k1', 2) }]);
    await writeManifest(root, manifest);
    const objects = (JSON.parse(await fs.readFile(file, 'utf8')) as ManifestFile).objects;
    assert.equal(objects.k1.version, 2, "the apply's step");
    assert.equal(objects.k3.version, 5, 'the edit made meanwhile');
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
});

test('text written in parts is never cut between the halves of a character outside the first plane', () => {
  const text = 'a😀b𝒜😀😀c' + '😀'.repeat(40);
  for (let size = 2; size < 12; size++) {
    const cut = [...parts(text, size)];
    assert.equal(cut.join(''), text);
    for (const part of cut) {
      assert.ok(part.length <= size && part.length > 0, `size ${size}: ${part.length}`);
      assert.equal(Buffer.from(part).toString(), part, `size ${size}: a part with half a character`);
    }
  }
});

test(
  'an apply of a few objects writes a manifest of over a megabyte, names beyond the first plane and all, ' +
    'as the text written whole; nothing changed, the file is not written',
  async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-manifest-'));
    try {
      const file = path.join(root, manifestName);
      const keys = Array.from({ length: 6000 }, (_, i) => `k${String(i).padStart(4, '0')}`);
      const whole = manifestOf(keys);
      for (const key of keys) whole.objects.set(key, { ...entry(key), path: `Site/inputscanners/${'𝒜😀'.repeat(20)} ${key}.json` });
      await fs.writeFile(file, manifestText(whole));
      await ensureCache(root);
      const changed = ['k0007', 'k3500', 'k5999'];
      assert.ok(manifestText(whole).length > 1 << 20);
      const manifest = (await readManifest(root, changed))!;
      for (const key of changed) journalSync(root, manifest, [{ key, object: { ...manifest.objects.get(key)!, version: 9 } }]);
      await writeManifest(root, manifest);
      for (const key of changed) whole.objects.set(key, { ...whole.objects.get(key)!, version: 9 });
      assert.equal(await fs.readFile(file, 'utf8'), manifestText(whole));
      const before = await fs.stat(file);
      await writeManifest(root, (await readManifest(root, changed))!);
      const after = await fs.stat(file);
      assert.equal(after.ino, before.ino, 'written again with nothing changed');
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  },
);

test("the manifest a pull's thread writes from its lines handed in parts is the file written whole: every Key in order, entries set aside kept", async () => {
  const roots = await Promise.all([0, 1].map(() => fs.mkdtemp(path.join(os.tmpdir(), 'oms-manifest-'))));
  try {
    // More than two parts, in no order; Keys that sort as text (UTF-16) and not as their start ('abc!' before 'abc').
    const next = random(7);
    const keys = Array.from({ length: 4500 }, (_, i) => `k${String(i).padStart(4, '0')}`).sort(() => next() - 0.5);
    const manifest = manifestOf([...keys, '__proto__', 'abc', 'abc!', 'k\u{e000}', 'k😀']);
    // Set aside as read: an object and a folder, written back as they were.
    Object.defineProperty(manifest, 'refused', {
      value: [
        { entry: 'object bad', reason: 'outside', key: 'bad', object: { ...entry('bad'), path: '../bad.json' } },
        { entry: 'folder f9', reason: 'outside', folderKey: 'f9', dir: '../elsewhere' },
      ],
      enumerable: false,
    });
    const [whole, inParts] = roots;
    for (const root of roots) {
      await ensureCache(root);
      journalSync(root, manifest, [{ key: 'k0001', object: entry('k0001', 3) }]);
    }
    await writeManifest(whole, manifest);
    const lines: string[] = [];
    let handed = 0;
    const head = await manifestLines(manifest, (part) => {
      handed++;
      // As a thread receives them: copied, each part sorted as it comes.
      lines.push(...structuredClone(part).sort());
    });
    await writeManifestLines(inParts, structuredClone(head), lines);
    assert.ok(handed > 2, `${handed} parts`);
    const text = await fs.readFile(path.join(inParts, manifestName), 'utf8');
    assert.equal(text, await fs.readFile(path.join(whole, manifestName), 'utf8'));
    const written = JSON.parse(text) as ManifestFile;
    assert.equal(written.objects.k0001.version, 3, "the journal's step");
    assert.equal(written.objects.bad.path, '../bad.json', 'the object set aside, as it was');
    assert.equal(written.folders.f9, '../elsewhere', 'the folder set aside, as it was');
    assert.ok(Object.keys(written.objects).indexOf('abc!') < Object.keys(written.objects).indexOf('abc'));
    await assert.rejects(fs.stat(path.join(inParts, 'oms.journal.jsonl')), 'the journal emptied');
  } finally {
    for (const root of roots) await fs.rm(root, { recursive: true, force: true });
  }
});
