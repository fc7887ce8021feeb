// The query results table's row logic (webview side, and required by its unit test under Node): the order of
// cells, a sorted batch merged into sorted rows, and which rows a scroll position shows.
// @ts-check
(function (root) {
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

  /**
   * Two cells in ascending order: numbers by value, text as a person reads it (`Door 9` before `Door 10`), a number
   * before text, and an empty cell last.
   * @param {string | number | null | undefined} a @param {string | number | null | undefined} b
   */
  function compareCells(a, b) {
    const emptyA = a === null || a === undefined || a === '';
    const emptyB = b === null || b === undefined || b === '';
    if (emptyA || emptyB) return emptyA === emptyB ? 0 : emptyA ? 1 : -1;
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    if (typeof a === 'number') return -1;
    if (typeof b === 'number') return 1;
    return collator.compare(String(a), String(b));
  }

  /**
   * How rows compare when sorted by `column` (`direction` 1 ascending, -1 descending); equal cells keep the order
   * the rows came in (`seq`), whichever the direction, so a sort is stable and the same rows stay in the same place.
   * @param {number} column @param {1 | -1} direction
   * @returns {(a: {cells: any[], seq: number}, b: {cells: any[], seq: number}) => number}
   */
  function rowOrder(column, direction) {
    return (a, b) => {
      const byCell = compareCells(a.cells[column], b.cells[column]);
      // Empty cells stay last in both directions: they hold nothing to sort by.
      const empty = a.cells[column] === null || a.cells[column] === '' || b.cells[column] === null || b.cells[column] === '';
      return (empty ? byCell : byCell * direction) || a.seq - b.seq;
    };
  }

  /**
   * `sorted` and `batch` in one sorted array (`batch` sorted here): a page of rows joins a sorted table in one
   * pass over it, not a sort of everything again.
   * @template T @param {T[]} sorted @param {T[]} batch @param {(a: T, b: T) => number} order @returns {T[]}
   */
  function mergeSorted(sorted, batch, order) {
    const b = batch.slice().sort(order);
    const out = new Array(sorted.length + b.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < sorted.length && j < b.length) out[k++] = order(sorted[i], b[j]) <= 0 ? sorted[i++] : b[j++];
    while (i < sorted.length) out[k++] = sorted[i++];
    while (j < b.length) out[k++] = b[j++];
    return out;
  }

  /**
   * The rows a scroll position shows, with `overscan` rows either side: `first` inclusive, `end` exclusive.
   * @param {number} scrollTop @param {number} viewHeight @param {number} rowHeight @param {number} total @param {number} [overscan]
   */
  function rowWindow(scrollTop, viewHeight, rowHeight, total, overscan = 10) {
    const top = Math.floor(Math.max(0, scrollTop) / rowHeight);
    const first = Math.max(0, Math.min(top, total) - overscan);
    const end = Math.min(total, top + Math.ceil(Math.max(0, viewHeight) / rowHeight) + 1 + overscan);
    return { first, end };
  }

  /**
   * The scroll position that shows row `index` whole, moving as little as possible.
   * @param {number} index @param {number} scrollTop @param {number} viewHeight @param {number} rowHeight
   */
  function scrollToShow(index, scrollTop, viewHeight, rowHeight) {
    const top = index * rowHeight;
    if (top < scrollTop) return top;
    if (top + rowHeight > scrollTop + viewHeight) return top + rowHeight - viewHeight;
    return scrollTop;
  }

  const api = { compareCells, rowOrder, mergeSorted, rowWindow, scrollToShow };
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.omsResultRows = api;
})(this);
