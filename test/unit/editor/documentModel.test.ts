/** Links, folded sections and outline of an object document, on objects as the sandbox serves them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seedStore } from '../../../src/sandbox/store/seed';
import { findLinks, foldedSections, linkAt, topLevel } from '../../../src/editor/documentModel';
import { prettyJson } from '../../../src/model/saveChecks';
import { parseHref } from '../../../src/model/routes';
import { applyEdits, checkEdits, rangeText, rowsOf } from '../../../src/model/priorities';
import type { InputScannerInfo } from '../../../src/model/types';

const store = seedStore('demo');
const [warehouse] = store.list(store.instanceKey, 'folder').filter((f) => f.CommonName === 'Warehouse');
const [scanner] = store.list(warehouse.Key!, 'inputScanner');
const text = prettyJson(scanner);
const valueAt = (offset: number, length: number) => text.slice(offset, offset + length);

test('Href, InFolderHref, ObjectLinks (Href or key) and Links anchors are links, spanning their values', () => {
  const links = findLinks(text);
  const by = (field: string) => links.find((l) => l.field === field);
  assert.equal(valueAt(by('Href')!.offset, by('Href')!.length), scanner.Href);
  assert.equal(by('InFolderHref')!.href, scanner.InFolderHref);
  const ol = scanner.ObjectLinks![0];
  assert.equal(by('ObjectLinks/0/LinkedObjectKey')!.key, ol.LinkedObjectKey);
  assert.equal(by('ObjectLinks/0/LinkedObjectKey')!.relation, ol.Relation);
  const notes = links.find((l) => l.relation === 'Notes')!;
  assert.equal(notes.href, `${scanner.Href}/notes`);
  assert.equal(linkAt(text, by('Href')!.offset + 3)?.field, 'Href');
  assert.equal(linkAt(text, text.indexOf('"CommonName"')), undefined);
});

test('a null Href in ObjectLinks leaves the key to find the object by', () => {
  const doc = prettyJson({ ...scanner, ObjectLinks: [{ $type: 'x', Href: null, LinkedObjectKey: 'abc', CommonName: 'Site', Relation: 'InInstance' }] });
  const links = findLinks(doc).filter((l) => l.field.startsWith('ObjectLinks'));
  assert.deepEqual(
    links.map((l) => [l.field, l.href, l.key]),
    [['ObjectLinks/0/LinkedObjectKey', undefined, 'abc']],
  );
});

test("Links, ObjectLinks, Metadata and Monikers fold when not empty; the kind's fields stay open", () => {
  const names = foldedSections(text).map((s) => s.name);
  assert.ok(names.includes('Links'));
  assert.ok(!names.includes('InputScannerReportingPriorities'));
  for (const s of foldedSections(text)) assert.ok(s.end > s.offset);
});

test('the outline names each reporting priority by its CommonName with its range', () => {
  const section = topLevel(text).find((s) => s.name === 'InputScannerReportingPriorities')!;
  const p = (scanner as InputScannerInfo).InputScannerReportingPriorities;
  assert.equal(section.children!.length, p.length);
  assert.equal(section.children![0].name, `1. ${p[0].CommonName}`);
  assert.match(section.children![6].detail!, /open circuit \(-1\)/);
});

test('resistance ranges read as a person would say them', () => {
  assert.equal(rangeText(850, 1150), '850 – 1150');
  assert.equal(rangeText(25000, -1), '25000 – open circuit (-1)');
  assert.equal(rangeText(-4, -3), 'special codes -4 – -3');
  assert.equal(rangeText(-2, 50), '-2 (special) – 50');
});

test('table edits change only the edited rows; bad numbers are refused', () => {
  const s = scanner as InputScannerInfo;
  const edits = rowsOf(s).map((r) => ({ label: r.label, priority: r.priority, statusCode: r.statusCode }));
  edits[2] = { ...edits[2], priority: 7 };
  const edited = applyEdits(s, edits);
  assert.equal(edited.InputScannerReportingPriorities[2].Priority, 7);
  assert.deepEqual({ ...edited, InputScannerReportingPriorities: null }, { ...s, InputScannerReportingPriorities: null });
  assert.equal(edited.InputScannerReportingPriorities[0], s.InputScannerReportingPriorities[0]);
  assert.match(checkEdits([{ ...edits[0], priority: 1.5 }, ...edits.slice(1)], 8)!, /row 1/);
  assert.equal(checkEdits(edits, 8), undefined);
});

test('parseHref reads folders, objects and what is below an object; nothing else', () => {
  assert.deepEqual(parseHref('/api/f/abc'), { folderKey: 'abc' });
  assert.deepEqual(parseHref('/api/f/abc/inputscanners/k1'), { folderKey: 'abc', collection: 'inputscanners', key: 'k1', rest: [] });
  assert.deepEqual(parseHref('/api/f/abc/inputscanners/k1/notes?x=1'), { folderKey: 'abc', collection: 'inputscanners', key: 'k1', rest: ['notes'] });
  assert.equal(parseHref('notes'), undefined);
  assert.equal(parseHref('/api/f/abc/inputscanners'), undefined);
  assert.equal(parseHref('/api/f/%E0%A4%A'), undefined);
});
