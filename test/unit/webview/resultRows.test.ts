/** The query results table's row logic (media/resultRows.js, the webview's own script, required here under Node). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import * as path from 'node:path';

type Cell = string | number | null;
interface Row {
  cells: Cell[];
  seq: number;
}
const rows = createRequire(__filename)(path.join(__dirname, '../../../media/resultRows.js')) as {
  compareCells(a: Cell, b: Cell): number;
  rowOrder(column: number, direction: 1 | -1): (a: Row, b: Row) => number;
  mergeSorted<T>(sorted: T[], batch: T[], order: (a: T, b: T) => number): T[];
  rowWindow(scrollTop: number, viewHeight: number, rowHeight: number, total: number, overscan?: number): { first: number; end: number };
  scrollToShow(index: number, scrollTop: number, viewHeight: number, rowHeight: number): number;
};

const table = (cells: Cell[]): Row[] => cells.map((c, seq) => ({ cells: [c], seq }));
const column = (r: Row[]) => r.map((x) => x.cells[0]);

test('a column sorts numbers by value, names as a person reads them, empty cells last in both directions', () => {
  const t = table(['Door 10', 4, null, 'door 9', -1, '', 'Alarm', 30]);
  assert.deepEqual(column(t.slice().sort(rows.rowOrder(0, 1))), [-1, 4, 30, 'Alarm', 'door 9', 'Door 10', null, '']);
  assert.deepEqual(column(t.slice().sort(rows.rowOrder(0, -1))), ['Door 10', 'door 9', 'Alarm', 30, 4, -1, null, '']);
});

test('equal cells keep the order the rows came in, whichever the direction', () => {
  const t = table(['b', 'a', 'b', 'a']);
  const up = t
    .slice()
    .sort(rows.rowOrder(0, 1))
    .map((r) => r.seq);
  const down = t
    .slice()
    .sort(rows.rowOrder(0, -1))
    .map((r) => r.seq);
  assert.deepEqual(up, [1, 3, 0, 2]);
  assert.deepEqual(down, [0, 2, 1, 3]);
});

test('a page of rows merged into sorted rows is what sorting them all gives', () => {
  const order = rows.rowOrder(0, 1);
  let shown: Row[] = [];
  const all: Row[] = [];
  let seq = 0;
  for (let page = 0; page < 20; page++) {
    const batch = Array.from({ length: 50 }, () => ({
      cells: [page % 3 ? Math.floor(Math.random() * 100) : `Door ${Math.floor(Math.random() * 100)}`],
      seq: seq++,
    }));
    all.push(...batch);
    shown = rows.mergeSorted(shown, batch, order);
  }
  assert.deepEqual(shown, all.slice().sort(order));
});

test('only the rows in view (and a few either side) are drawn, at 100,000 rows too', () => {
  const rowHeight = 24;
  assert.deepEqual(rows.rowWindow(0, 480, rowHeight, 100_000, 10), { first: 0, end: 31 });
  // Scrolled to row 50,000: rows 49,990 to 50,030, not 100,000 of them.
  assert.deepEqual(rows.rowWindow(50_000 * rowHeight, 480, rowHeight, 100_000, 10), { first: 49_990, end: 50_031 });
  // The end of the table: no row past the last.
  assert.deepEqual(rows.rowWindow(99_990 * rowHeight, 480, rowHeight, 100_000, 10), { first: 99_980, end: 100_000 });
  assert.deepEqual(rows.rowWindow(0, 480, rowHeight, 0, 10), { first: 0, end: 0 });
});

test('moving to a row scrolls just enough to show it whole', () => {
  const h = 24;
  assert.equal(rows.scrollToShow(5, 0, 240, h), 0, 'in view: no scroll');
  assert.equal(rows.scrollToShow(10, 0, 240, h), 11 * h - 240, 'below: its bottom at the bottom');
  assert.equal(rows.scrollToShow(3, 10 * h, 240, h), 3 * h, 'above: its top at the top');
});
