// Query results table (webview side; the extension's side is src/webview/queryResults.ts). A grid of up to the
// extension's cap of rows where only the rows in view exist (the rest are the scroller's height): aria-rowcount and
// aria-rowindex tell a screen reader the table's size and where a row is. Up and Down (Page Up, Page Down, Home,
// End) move between rows, Enter opens the object, Space selects, Ctrl+A selects all, Escape clears, Ctrl+C copies
// its link; Shift+F10, the menu key or a right click opens the row's menu (Open, Reveal in Tree, Copy Link). A
// header sorts by its column (Enter or a click; again for descending). Row logic: resultRows.js.
// @ts-check
(function () {
  const vscode = acquireVsCodeApi();
  const rowsLib = /** @type {any} */ (window).omsResultRows;
  const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const grid = $('grid');
  const headRow = $('headRow');
  const scroller = $('scroller');
  const sizer = $('sizer');
  const body = $('body');
  const menu = $('menu');
  const strings = JSON.parse(document.body.dataset.l10n || '{}');
  /** @param {string} key @param {...unknown} args */
  const t = (key, ...args) => String(strings[key] || key).replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)]));
  const rowHeight = 24;

  /** @typedef {{ id: string, cells: Array<string | number | null>, badge?: 'new' | 'changed', seq: number }} Row */
  /** @type {string[]} */
  let columns = [];
  /** @type {Map<string, Row>} */
  let byId = new Map();
  /** Rows in the order shown. @type {Row[]} */
  let view = [];
  /** @type {{ column: number, direction: 1 | -1 } | undefined} */
  let sort;
  let seq = 0;
  let active = -1;
  /** @type {Set<string>} */
  let selected = new Set();
  let running = false;

  const post = (message) => vscode.postMessage(message);
  const say = (text) => {
    $('status').textContent = text || '';
  };
  const announce = (text) => {
    $('announce').textContent = '';
    // A new text node is read even when the words are the same as the last.
    setTimeout(() => ($('announce').textContent = text), 50);
  };

  // ---- rows ----------------------------------------------------------------------------------------------------

  function order() {
    return sort ? rowsLib.rowOrder(sort.column, sort.direction) : (a, b) => a.seq - b.seq;
  }

  /** @param {Array<{ id: string, cells: any[], badge?: any }>} rows */
  function addRows(rows) {
    const fresh = [];
    for (const r of rows) {
      const had = byId.get(r.id);
      if (had) {
        had.cells = r.cells;
        had.badge = r.badge || had.badge;
        continue;
      }
      const row = { ...r, seq: seq++ };
      byId.set(r.id, row);
      fresh.push(row);
    }
    const activeId = view[active]?.id;
    view = rowsLib.mergeSorted(view, fresh, order());
    keepActive(activeId);
  }

  /** @param {string[]} ids */
  function removeRows(ids) {
    const gone = new Set(ids.filter((id) => byId.delete(id)));
    if (!gone.size) return;
    const activeId = view[active]?.id;
    view = view.filter((r) => !gone.has(r.id));
    for (const id of gone) selected.delete(id);
    keepActive(activeId, active);
  }

  /** The active row stays the same row; gone, the row now at its place. */
  function keepActive(id, at = active) {
    if (active < 0) return;
    const now = id === undefined ? -1 : view.findIndex((r) => r.id === id);
    active = now >= 0 ? now : Math.min(at, view.length - 1);
  }

  function resort() {
    const activeId = view[active]?.id;
    view = view.slice().sort(order());
    keepActive(activeId);
  }

  // ---- drawing ---------------------------------------------------------------------------------------------------

  function drawHead() {
    headRow.replaceChildren(
      ...columns.map((title, i) => {
        const th = document.createElement('div');
        th.setAttribute('role', 'columnheader');
        th.setAttribute('aria-colindex', String(i + 1));
        th.setAttribute('aria-sort', sort?.column === i ? (sort.direction === 1 ? 'ascending' : 'descending') : 'none');
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = title;
        b.title = t('sortBy', title);
        b.addEventListener('click', () => sortBy(i));
        th.append(b);
        return th;
      }),
    );
    grid.style.setProperty('--columns', columns.map((_, i) => (i === 0 ? 'minmax(10em, 2fr)' : 'minmax(6em, 1fr)')).join(' '));
    grid.setAttribute('aria-colcount', String(columns.length));
  }

  let drawPending = false;
  function draw() {
    if (drawPending) return;
    drawPending = true;
    requestAnimationFrame(() => {
      drawPending = false;
      drawNow();
    });
  }

  function drawNow() {
    grid.setAttribute('aria-rowcount', String(view.length + 1));
    sizer.style.height = `${view.length * rowHeight}px`;
    const { first, end } = rowsLib.rowWindow(scroller.scrollTop, scroller.clientHeight, rowHeight, view.length);
    body.style.transform = `translateY(${first * rowHeight}px)`;
    // Rows drawn anew keep the keyboard only while the page has it: a live update must not take it from a pick
    // or an editor the user went to (the frame remembers its focused row after losing the keyboard).
    const hadFocus = document.hasFocus() && body.contains(document.activeElement);
    const out = [];
    for (let i = first; i < end; i++) out.push(rowElement(view[i], i));
    body.replaceChildren(...out);
    $('empty').hidden = view.length > 0 || running;
    if (hadFocus || focusWanted) focusActive();
    updateButtons();
  }

  /** @param {Row} row @param {number} i */
  function rowElement(row, i) {
    const el = document.createElement('div');
    el.className = i === active ? 'row active' : 'row';
    el.setAttribute('role', 'row');
    el.setAttribute('aria-rowindex', String(i + 2));
    el.setAttribute('aria-selected', selected.has(row.id) ? 'true' : 'false');
    el.tabIndex = i === active || (active < 0 && i === 0) ? 0 : -1;
    el.dataset.index = String(i);
    row.cells.forEach((cell, c) => {
      const td = document.createElement('div');
      td.setAttribute('role', 'gridcell');
      td.setAttribute('aria-colindex', String(c + 1));
      if (typeof cell === 'number') td.className = 'num';
      if (c === 0 && row.badge) {
        const badge = document.createElement('span');
        badge.className = 'badge';
        badge.textContent = t(row.badge);
        td.append(badge);
      }
      td.append(document.createTextNode(cell === null ? '' : String(cell)));
      td.title = cell === null ? '' : String(cell);
      el.append(td);
    });
    return el;
  }

  let focusWanted = false;
  function focusActive() {
    focusWanted = false;
    const el = body.querySelector(`[data-index="${active}"]`);
    if (el instanceof HTMLElement && document.activeElement !== el) el.focus({ preventScroll: true });
  }

  function updateButtons() {
    const n = selected.size;
    $('bulk').textContent = n ? t('bulkSelected', n) : t('bulkAll');
    $('pull').textContent = n ? t('pullSelected', n) : t('pullAll');
    $('exportJson').textContent = n ? t('exportJsonSelected', n) : t('exportJson');
    $('exportCsv').textContent = n ? t('exportCsvSelected', n) : t('exportCsv');
    for (const id of ['bulk', 'pull', 'exportJson', 'exportCsv']) /** @type {HTMLButtonElement} */ ($(id)).disabled = running || byId.size === 0;
    /** @type {HTMLButtonElement} */ ($('cancel')).hidden = !running;
  }

  // ---- moving, sorting, acting ---------------------------------------------------------------------------------

  function moveTo(index) {
    if (!view.length) return;
    active = Math.max(0, Math.min(view.length - 1, index));
    scroller.scrollTop = rowsLib.scrollToShow(active, scroller.scrollTop, scroller.clientHeight, rowHeight);
    focusWanted = true;
    drawNow();
  }

  function sortBy(column) {
    sort = sort?.column === column && sort.direction === 1 ? { column, direction: -1 } : { column, direction: 1 };
    resort();
    drawHead();
    drawNow();
    announce(t(sort.direction === 1 ? 'sortedUp' : 'sortedDown', columns[column]));
  }

  const activeId = () => view[active]?.id;
  /** The selected rows, in the order shown; none selected: undefined (all). */
  const chosen = () => (selected.size ? view.filter((r) => selected.has(r.id)).map((r) => r.id) : undefined);

  function act(type) {
    const id = activeId();
    if (id) post({ type, id });
  }

  function toggle(index) {
    const row = view[index];
    if (!row) return;
    if (selected.has(row.id)) selected.delete(row.id);
    else selected.add(row.id);
    announce(t(selected.has(row.id) ? 'selectedRow' : 'unselectedRow', row.cells[0] ?? '', selected.size));
    drawNow();
  }

  scroller.addEventListener('scroll', draw);
  window.addEventListener('resize', draw);
  body.addEventListener('click', (e) => {
    const el = /** @type {HTMLElement} */ (e.target).closest('[role="row"]');
    if (!(el instanceof HTMLElement)) return;
    if (e.ctrlKey || e.metaKey) toggle(Number(el.dataset.index));
    moveTo(Number(el.dataset.index));
  });
  body.addEventListener('dblclick', () => act('open'));
  body.addEventListener('contextmenu', (e) => {
    const el = /** @type {HTMLElement} */ (e.target).closest('[role="row"]');
    if (!(el instanceof HTMLElement)) return;
    e.preventDefault();
    moveTo(Number(el.dataset.index));
    openMenu();
  });
  body.addEventListener('keydown', (e) => {
    const page = Math.max(1, Math.floor(scroller.clientHeight / rowHeight) - 1);
    const key = e.key;
    const mod = e.ctrlKey || e.metaKey;
    if (key === 'ArrowDown') moveTo(active + 1);
    else if (key === 'ArrowUp') moveTo(active - 1);
    else if (key === 'PageDown') moveTo(active + page);
    else if (key === 'PageUp') moveTo(active - page);
    else if (key === 'Home') moveTo(0);
    else if (key === 'End') moveTo(view.length - 1);
    else if (key === 'Enter') act('open');
    else if (key === ' ') toggle(active);
    else if (mod && key.toLowerCase() === 'a') {
      selected = new Set(view.map((r) => r.id));
      announce(t('selectedAll', selected.size));
      drawNow();
    } else if (key === 'Escape' && selected.size) {
      selected.clear();
      announce(t('selectedNone'));
      drawNow();
    } else if (mod && key.toLowerCase() === 'c') act('copyLink');
    else if (key === 'ContextMenu' || (e.shiftKey && key === 'F10')) openMenu();
    else return;
    e.preventDefault();
    e.stopPropagation();
  });
  body.addEventListener('focusin', (e) => {
    const el = /** @type {HTMLElement} */ (e.target).closest('[role="row"]');
    if (el instanceof HTMLElement && Number(el.dataset.index) !== active) {
      active = Number(el.dataset.index);
      for (const r of body.children) r.classList.toggle('active', r === el);
    }
  });

  // The row's menu: Open, Reveal in Tree, Copy Link; arrows move, Enter acts, Escape goes back to the row.
  const menuItems = () => /** @type {HTMLButtonElement[]} */ ([...menu.querySelectorAll('[role="menuitem"]')]);
  function openMenu() {
    const el = body.querySelector(`[data-index="${active}"]`);
    if (!(el instanceof HTMLElement)) return;
    const box = el.getBoundingClientRect();
    menu.style.top = `${Math.min(box.bottom, window.innerHeight - 100)}px`;
    menu.style.left = `${box.left + 24}px`;
    menu.hidden = false;
    menuItems()[0].focus();
  }
  function closeMenu() {
    menu.hidden = true;
    focusActive();
  }
  menu.addEventListener('keydown', (e) => {
    const items = menuItems();
    const at = items.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    if (e.key === 'ArrowDown') items[(at + 1) % items.length].focus();
    else if (e.key === 'ArrowUp') items[(at - 1 + items.length) % items.length].focus();
    else if (e.key === 'Escape' || e.key === 'Tab') closeMenu();
    else return;
    e.preventDefault();
  });
  menu.addEventListener('click', (e) => {
    const item = /** @type {HTMLElement} */ (e.target).closest('[role="menuitem"]');
    if (!(item instanceof HTMLElement)) return;
    closeMenu();
    act(String(item.dataset.action));
  });
  menu.addEventListener('focusout', (e) => {
    if (!menu.contains(/** @type {Node} */ (e.relatedTarget))) menu.hidden = true;
  });

  $('cancel').addEventListener('click', () => post({ type: 'cancel' }));
  $('bulk').addEventListener('click', () => post({ type: 'bulkEdit', ids: chosen() }));
  $('pull').addEventListener('click', () => post({ type: 'pull', ids: chosen() }));
  $('exportJson').addEventListener('click', () => post({ type: 'export', format: 'json', ids: chosen() }));
  $('exportCsv').addEventListener('click', () => post({ type: 'export', format: 'csv', ids: chosen() }));
  $('columns').addEventListener('click', () => post({ type: 'columns' }));
  $('exportAll').addEventListener('click', () => post({ type: 'export', format: 'csv' }));

  // ---- from the extension ------------------------------------------------------------------------------------------

  window.addEventListener('message', (event) => {
    const m = event.data;
    if (m.type === 'start') {
      $('title').textContent = m.query;
      columns = m.columns;
      byId = new Map();
      view = [];
      selected = new Set();
      sort = undefined;
      active = -1;
      seq = 0;
      running = true;
      $('capped').hidden = true;
      $('live').textContent = '';
      say('');
      drawHead();
      drawNow();
      focusWanted = true;
    } else if (m.type === 'rows') {
      addRows(m.rows);
      if (active < 0 && view.length && (focusWanted || document.activeElement === document.body)) active = 0;
      draw();
    } else if (m.type === 'columns') {
      const sortedBy = sort && columns[sort.column];
      columns = m.columns;
      const at = sortedBy === undefined ? -1 : columns.indexOf(sortedBy);
      sort = at >= 0 && sort ? { column: at, direction: sort.direction } : undefined;
      for (const r of m.rows) {
        const row = byId.get(r.id);
        if (row) row.cells = r.cells;
      }
      resort();
      drawHead();
      drawNow();
    } else if (m.type === 'progress') {
      $('progress').textContent = m.text;
      running = !m.done;
      if (m.done) announce(m.text);
      drawNow();
    } else if (m.type === 'capped') {
      $('cappedText').textContent = m.text;
      $('capped').hidden = false;
    } else if (m.type === 'live') {
      removeRows(m.removed);
      addRows(m.rows);
      // A changed row's cells may belong elsewhere in the order.
      if (sort) resort();
      drawNow();
      if (m.text) announce(m.text);
    } else if (m.type === 'following') {
      $('live').textContent = m.text;
      $('live').classList.toggle('off', !!m.off);
    } else if (m.type === 'say') {
      say(m.text);
      announce(m.text);
    }
  });

  post({ type: 'ready' });
})();
