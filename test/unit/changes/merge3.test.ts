/** The three-way merge: table cases a user would meet, then generated cases (seeded) for its laws. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { merge3 } from '../../../src/changes/merge3';
import { kind } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';
import type { BaseInfo, InputScannerInfo, ObjectLinkItem } from '../../../src/model/types';

const scannerKind = kind('inputScanner');
const personKind = kind('person');

function scanner(): InputScannerInfo {
  return { ...newObject(scannerKind, 'Door 1'), Key: 'k1', InFolderKey: 'f1', Href: '/api/f/f1/inputscanners/k1', ConcurrencyVersion: 3 } as InputScannerInfo;
}
const copy = <T>(v: T): T => structuredClone(v);
const link = (relation: string, key: string, name: string): ObjectLinkItem => ({
  $type: 'ObjectLinkItem',
  Href: null,
  LinkedObjectKey: key,
  CommonName: name,
  Relation: relation,
});

test('edits on different rows of the priorities merge without a conflict, and the server change taken in is named', () => {
  const base = scanner();
  const mine = copy(base);
  mine.InputScannerReportingPriorities[1].Priority = 7;
  const theirs = copy(base);
  theirs.InputScannerReportingPriorities[4].StatusCode = 5;
  theirs.ConcurrencyVersion = 4;
  const { merged, conflicts, tookTheirs } = merge3(scannerKind, base, mine, theirs);
  assert.deepEqual(conflicts, []);
  const rows = (merged as InputScannerInfo).InputScannerReportingPriorities;
  assert.equal(rows[1].Priority, 7);
  assert.equal(rows[4].StatusCode, 5);
  assert.equal(merged.ConcurrencyVersion, 4, "the version is the server's, so the merge can be saved");
  assert.deepEqual(tookTheirs, ['/InputScannerReportingPriorities/4/StatusCode']);
});

test('the same field changed differently on both sides is one conflict with its three values; a choice settles it', () => {
  const base = scanner();
  const mine = copy(base);
  mine.InputScannerReportingPriorities[1].Priority = 7;
  mine.NonSettlingErrorPriority = 9;
  const theirs = copy(base);
  theirs.InputScannerReportingPriorities[1].Priority = 8;
  const result = merge3(scannerKind, base, mine, theirs);
  assert.deepEqual(result.conflicts, [{ pointer: '/InputScannerReportingPriorities/1/Priority', base: 1, mine: 7, theirs: 8 }]);
  assert.equal((result.merged as InputScannerInfo).InputScannerReportingPriorities[1].Priority, 7, 'until the user chooses, the merge holds their own edit');

  const chosen = merge3(scannerKind, base, mine, theirs, { '/InputScannerReportingPriorities/1/Priority': 'theirs' });
  assert.deepEqual(chosen.conflicts, []);
  assert.equal((chosen.merged as InputScannerInfo).InputScannerReportingPriorities[1].Priority, 8);
  assert.equal((chosen.merged as InputScannerInfo).NonSettlingErrorPriority, 9, 'the rest of the edit stays');
  assert.deepEqual(merge3(scannerKind, base, mine, theirs, { '/InputScannerReportingPriorities/1/Priority': 'mine' }).conflicts, []);
});

test('server-owned fields come from the server, whatever the edit holds, and are not reported as taken in', () => {
  const base = scanner();
  const mine = { ...copy(base), Notes: [{ $type: 'NoteInfo', Key: null, Href: null, NoteText: 'typed into the editor' }], ConcurrencyVersion: 1 };
  const theirs = { ...copy(base), Notes: [{ $type: 'NoteInfo', Key: 'n1', Href: null, NoteText: 'added by POST' }], ConcurrencyVersion: 4, Links: [] };
  const { merged, conflicts, tookTheirs } = merge3(scannerKind, base, mine, theirs);
  assert.deepEqual(conflicts, []);
  assert.deepEqual(merged.Notes, theirs.Notes);
  assert.equal(merged.ConcurrencyVersion, 4);
  assert.deepEqual(tookTheirs, []);
});

test("object links are matched by Relation and LinkedObjectKey, not position: an insert on the server does not shift the user's edit", () => {
  const base = { ...scanner(), ObjectLinks: [link('Site', 'a', 'Site A'), link('Zone', 'b', 'Zone B')] };
  const mine = copy(base);
  mine.ObjectLinks[1].CommonName = 'Zone B (renamed)';
  const theirs = copy(base);
  theirs.ObjectLinks.unshift(link('Camera', 'c', 'Cam C'));
  const { merged, conflicts } = merge3(scannerKind, base, mine, theirs);
  assert.deepEqual(conflicts, []);
  assert.deepEqual(
    merged.ObjectLinks?.map((l) => l.CommonName),
    ['Cam C', 'Site A', 'Zone B (renamed)'],
  );
});

test('a link removed on one side and changed on the other is a conflict; removed on both or on one unchanged side is gone', () => {
  const base = { ...scanner(), ObjectLinks: [link('Site', 'a', 'Site A'), link('Zone', 'b', 'Zone B')] };
  const mine = copy(base);
  mine.ObjectLinks = [mine.ObjectLinks[0]];
  const theirs = copy(base);
  theirs.ObjectLinks[1].CommonName = 'Zone B2';
  const result = merge3(scannerKind, base, mine, theirs);
  assert.equal(result.conflicts.length, 1);
  assert.equal(result.conflicts[0].mine, undefined, 'mine removed it');
  assert.equal((result.conflicts[0].theirs as ObjectLinkItem).CommonName, 'Zone B2');
  assert.deepEqual(
    result.merged.ObjectLinks?.map((l) => l.LinkedObjectKey),
    ['a'],
    "the merge holds the user's removal until they choose",
  );
  const taken = merge3(scannerKind, base, mine, theirs, { [result.conflicts[0].pointer]: 'theirs' });
  assert.deepEqual(
    taken.merged.ObjectLinks?.map((l) => l.CommonName),
    ['Site A', 'Zone B2'],
  );

  const alsoTheirs = copy(base);
  alsoTheirs.ObjectLinks = [alsoTheirs.ObjectLinks[0]];
  alsoTheirs.CommonName = 'Renamed on the server';
  const both = merge3(scannerKind, base, mine, alsoTheirs);
  assert.deepEqual(both.conflicts, []);
  assert.deepEqual(
    both.merged.ObjectLinks?.map((l) => l.LinkedObjectKey),
    ['a'],
  );
});

test('addresses are matched by Key: a new address of the user and a server edit of another both land', () => {
  const phone = (key: string | null, number: string) => ({ $type: 'PhoneInfo', Key: key, Href: null, IsPrivate: false, Type: 'Work', Number: number });
  const base = { ...newObject(personKind, 'Ann Lee'), Key: 'p1', Addresses: [phone('a1', '111'), phone('a2', '222')] } as BaseInfo;
  const mine = copy(base);
  (mine.Addresses as unknown[]).push(phone(null, '333'));
  const theirs = copy(base);
  theirs.Addresses = [phone('a2', '222-changed'), phone('a1', '111')];
  const { merged, conflicts } = merge3(personKind, base, mine, theirs);
  assert.deepEqual(conflicts, []);
  assert.deepEqual((merged.Addresses as Array<{ Number: string }>).map((a) => a.Number).sort(), ['111', '222-changed', '333']);
});

test("tags merge as a set: the server's additions, the user's additions and removals", () => {
  const base = { ...scanner(), Tags: ['door', 'north'] };
  const mine = { ...copy(base), Tags: ['north', 'alarm'] };
  const theirs = { ...copy(base), Tags: ['door', 'north', 'audited'] };
  const { merged, conflicts, tookTheirs } = merge3(scannerKind, base, mine, theirs);
  assert.deepEqual(conflicts, []);
  assert.deepEqual([...(merged.Tags ?? [])].sort(), ['alarm', 'audited', 'north']);
  assert.deepEqual(tookTheirs, ['/Tags']);
});

test('priorities of different lengths cannot be matched row by row: the list is one conflict', () => {
  const base = scanner();
  const mine = copy(base);
  mine.InputScannerReportingPriorities.pop();
  const theirs = copy(base);
  theirs.InputScannerReportingPriorities[0].Priority = 4;
  const { conflicts } = merge3(scannerKind, base, mine, theirs);
  assert.deepEqual(
    conflicts.map((c) => c.pointer),
    ['/InputScannerReportingPriorities'],
  );
});

test('a field removed on one side and changed on the other conflicts; odd field names stay data and pointers escape them', () => {
  const base = { ...scanner(), Extra: 1, 'a/b~c': 1, constructor: 'x' } as BaseInfo;
  const mine: Record<string, unknown> = copy(base);
  delete mine.Extra;
  mine['a/b~c'] = 2;
  mine['constructor'] = 'mine';
  const theirs = { ...copy(base), Extra: 2, 'a/b~c': 3 };
  const { merged, conflicts } = merge3(scannerKind, base, mine as BaseInfo, theirs);
  assert.deepEqual(conflicts.map((c) => c.pointer).sort(), ['/Extra', '/a~1b~0c']);
  assert.equal('Extra' in merged, false);
  assert.equal((merged as Record<string, unknown>)['constructor'], 'mine');
});

test('a list null in the base and filled on both sides merges the additions', () => {
  const base = { ...scanner(), ObjectLinks: null };
  const mine = { ...copy(base), ObjectLinks: [link('Site', 'a', 'A')] };
  const theirs = { ...copy(base), ObjectLinks: [link('Zone', 'b', 'B')] };
  const { merged, conflicts } = merge3(scannerKind, base, mine, theirs);
  assert.deepEqual(conflicts, []);
  assert.deepEqual(merged.ObjectLinks?.map((l) => l.LinkedObjectKey).sort(), ['a', 'b']);
});

// ---- Generated cases: random scanners and random edits, from a fixed seed so a failure repeats.

function rng(seed: number): () => number {
  // mulberry32
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every way the generator edits a scanner; each edit touches exactly the fields its name says. */
const edits: Array<(s: InputScannerInfo, r: () => number) => void> = [
  (s, r) => {
    s.CommonName = `Door ${Math.floor(r() * 100)}`;
  },
  (s, r) => {
    s.NonSettlingErrorPriority = Math.floor(r() * 10);
  },
  (s, r) => {
    s.NonSettlingErrorStatus = Math.floor(r() * 7);
  },
  (s, r) => {
    s.InputScannerReportingPriorities[Math.floor(r() * 8)].Priority = Math.floor(r() * 10);
  },
  (s, r) => {
    s.InputScannerReportingPriorities[Math.floor(r() * 8)].StatusCode = Math.floor(r() * 7);
  },
  (s, r) => {
    s.Tags = [...(s.Tags ?? []), `t${Math.floor(r() * 6)}`];
  },
  (s, r) => {
    s.Tags = (s.Tags ?? []).filter((_, i) => i !== Math.floor(r() * 3));
  },
  (s, r) => {
    s.ObjectLinks = [...(s.ObjectLinks ?? []), link('Zone', `z${Math.floor(r() * 50)}`, 'New zone')];
  },
  (s, r) => {
    const l = s.ObjectLinks?.[Math.floor(r() * 3)];
    if (l) l.CommonName = `Renamed ${Math.floor(r() * 9)}`;
  },
  (s, r) => {
    s.ObjectLinks = (s.ObjectLinks ?? []).filter((_, i) => i !== Math.floor(r() * 3));
  },
  (s, r) => {
    s.IsGlobal = r() < 0.5;
  },
];

function randomScanner(r: () => number): InputScannerInfo {
  const s = scanner();
  s.Tags = ['a', 'b', 'c'].filter(() => r() < 0.6);
  s.ObjectLinks = [0, 1, 2].filter(() => r() < 0.7).map((i) => link(i % 2 ? 'Zone' : 'Site', `k${i}`, `Linked ${i}`));
  for (const row of s.InputScannerReportingPriorities) row.Priority = Math.floor(r() * 4);
  return s;
}

function edited(base: InputScannerInfo, r: () => number, count = 1 + Math.floor(r() * 4)): InputScannerInfo {
  const s = copy(base);
  for (let i = 0; i < count; i++) edits[Math.floor(r() * edits.length)](s, r);
  return s;
}

const cases = 500;

test(`generated: merging with an unchanged side gives the other side (${cases} seeded cases)`, () => {
  const r = rng(22);
  for (let i = 0; i < cases; i++) {
    const base = randomScanner(r);
    const changed = edited(base, r);
    const serverSide = merge3(scannerKind, base, copy(base), changed);
    assert.deepEqual(serverSide.conflicts, [], `case ${i}`);
    assert.deepEqual(serverSide.merged, changed, `case ${i}: only the server changed it`);
    const userSide = merge3(scannerKind, base, changed, copy(base));
    assert.deepEqual(userSide.conflicts, [], `case ${i}`);
    assert.deepEqual(userSide.merged, changed, `case ${i}: only the user changed it`);
    assert.deepEqual(userSide.tookTheirs, [], `case ${i}`);
  }
});

test(`generated: both sides equal gives that value (${cases} seeded cases)`, () => {
  const r = rng(7);
  for (let i = 0; i < cases; i++) {
    const base = randomScanner(r);
    const both = edited(base, r);
    const { merged, conflicts } = merge3(scannerKind, base, copy(both), copy(both));
    assert.deepEqual(conflicts, [], `case ${i}`);
    assert.deepEqual(merged, both, `case ${i}`);
  }
});

test(`generated: edits of different fields merge cleanly and keep both; conflicts are the same seen from either side (${cases} seeded cases)`, () => {
  const r = rng(1234);
  const scalarFields = [
    'CommonName',
    'NonSettlingErrorPriority',
    'NonSettlingErrorStatus',
    ...[0, 1, 2, 3, 4, 5, 6, 7].flatMap((i) => [`${i}/Priority`, `${i}/StatusCode`]),
  ];
  const read = (s: InputScannerInfo, f: string) =>
    f.includes('/') ? (s.InputScannerReportingPriorities[Number(f.split('/')[0])] as never)[f.split('/')[1]] : s[f];
  const write = (s: InputScannerInfo, f: string, v: number | string) => {
    if (f.includes('/')) (s.InputScannerReportingPriorities[Number(f.split('/')[0])] as unknown as Record<string, unknown>)[f.split('/')[1]] = v;
    else s[f] = v;
  };
  for (let i = 0; i < cases; i++) {
    const base = randomScanner(r);
    const shuffled = [...scalarFields].sort(() => r() - 0.5);
    const mineFields = shuffled.slice(0, 1 + Math.floor(r() * 4));
    const theirFields = shuffled.slice(4, 5 + Math.floor(r() * 4));
    const mine = copy(base),
      theirs = copy(base);
    for (const f of mineFields) write(mine, f, f === 'CommonName' ? 'Mine' : 100 + Math.floor(r() * 100));
    for (const f of theirFields) write(theirs, f, f === 'CommonName' ? 'Theirs' : 300 + Math.floor(r() * 100));
    const { merged, conflicts } = merge3(scannerKind, base, mine, theirs);
    assert.deepEqual(conflicts, [], `case ${i}`);
    for (const f of mineFields) assert.equal(read(merged as InputScannerInfo, f), read(mine, f), `case ${i}: ${f} is mine`);
    for (const f of theirFields) assert.equal(read(merged as InputScannerInfo, f), read(theirs, f), `case ${i}: ${f} is theirs`);

    const a = edited(base, r),
      b = edited(base, r);
    const pointers = (x: InputScannerInfo, y: InputScannerInfo) => merge3(scannerKind, base, x, y).conflicts.length;
    assert.equal(pointers(a, b), pointers(b, a), `case ${i}: as many conflicts either way`);
  }
});
