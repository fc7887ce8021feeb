// Scanner priorities table (webview side). Native inputs and selects: Tab
// moves between cells, Up/Down between rows in the same column (also in the
// Status column: a closed select would change its value on an arrow, so a
// keyboard user would edit alarm data by moving; there Enter, Space or Alt+Down
// open the list and typing picks a status, as in VS Code's own tables),
// Ctrl+S or Cmd+S saves. Nothing is sent until Save; the extension does the saving. A scanner deleted
// on the server keeps its rows here: Save as New Scanner, Export as JSON or Close replace Save and Reload.
// @ts-check
(function () {
  const vscode = acquireVsCodeApi();
  const rows = /** @type {HTMLTableSectionElement} */ (document.getElementById('rows'));
  const title = /** @type {HTMLElement} */ (document.getElementById('title'));
  const version = /** @type {HTMLElement} */ (document.getElementById('version'));
  const status = /** @type {HTMLElement} */ (document.getElementById('status'));
  const save = /** @type {HTMLButtonElement} */ (document.getElementById('save'));
  const revert = /** @type {HTMLButtonElement} */ (document.getElementById('revert'));
  const reload = /** @type {HTMLButtonElement} */ (document.getElementById('reload'));
  const actions = /** @type {HTMLElement} */ (document.getElementById('actions'));
  const goneBox = /** @type {HTMLElement} */ (document.getElementById('gone'));
  const goneText = /** @type {HTMLElement} */ (document.getElementById('goneText'));
  const hint = /** @type {HTMLElement} */ (document.getElementById('hint'));
  const saveAsNew = /** @type {HTMLButtonElement} */ (document.getElementById('saveAsNew'));
  const exportRows = /** @type {HTMLButtonElement} */ (document.getElementById('export'));
  const close = /** @type {HTMLButtonElement} */ (document.getElementById('close'));
  /** The scanner was deleted on the server: nothing can be saved to it any more. */
  let gone = false;
  // Read out by screen readers after each edit (the grid's cells do not say on their own that they changed).
  const announce = /** @type {HTMLElement} */ (document.getElementById('announce'));
  /** @type {any} */
  let shown;
  /** The extension's strings in the user's language (prioritiesTable.ts), `{0}`… filled in by `t`. */
  const strings = JSON.parse(document.body.dataset.l10n || '{}');
  /** @param {string} key @param {...unknown} args */
  const t = (key, ...args) => String(strings[key] || key).replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)]));

  function say(message) {
    status.textContent = message ? message.text : '';
    status.className = message && message.level === 'error' ? 'error' : '';
    delete status.dataset.bad;
  }

  function cell(tr, child, className) {
    const td = document.createElement('td');
    td.setAttribute('role', 'gridcell');
    td.setAttribute('aria-colindex', String(tr.children.length + 1));
    if (typeof child === 'string') td.setAttribute('aria-readonly', 'true');
    if (className) td.className = className;
    if (typeof child === 'string') td.textContent = child;
    else td.appendChild(child);
    tr.appendChild(td);
  }

  function render() {
    title.textContent = shown.name;
    version.textContent = t('version', shown.version ?? '?');
    rows.textContent = '';
    shown.rows.forEach((row, i) => {
      const tr = document.createElement('tr');
      tr.setAttribute('role', 'row');
      tr.setAttribute('aria-rowindex', String(i + 2));
      const what = t('row', i + 1, row.range);
      cell(tr, String(i + 1), 'num');
      const label = document.createElement('input');
      label.className = 'label';
      label.value = row.label;
      label.dataset.col = 'label';
      label.setAttribute('aria-label', t('labelOf', what));
      cell(tr, label);
      cell(tr, row.range, 'range');
      const priority = document.createElement('input');
      priority.className = 'priority';
      priority.inputMode = 'numeric';
      priority.value = String(row.priority);
      priority.dataset.col = 'priority';
      priority.setAttribute('aria-label', t('priorityOf', what));
      cell(tr, priority);
      const select = document.createElement('select');
      select.dataset.col = 'status';
      select.setAttribute('aria-label', t('statusOf', what));
      for (const s of shown.statuses) {
        const option = document.createElement('option');
        option.value = String(s.code);
        option.textContent = `${s.code}: ${s.label}`;
        option.selected = s.code === row.statusCode;
        select.appendChild(option);
      }
      cell(tr, select);
      rows.appendChild(tr);
    });
    update();
  }

  /** The rows as edited; `bad` lists the cells that are not whole numbers. */
  function edits() {
    const bad = [];
    const list = [...rows.querySelectorAll('tr')].map((tr, i) => {
      const [label, priority] = tr.querySelectorAll('input');
      const select = tr.querySelector('select');
      const text = priority.value.trim();
      const ok = /^-?\d+$/.test(text);
      priority.setAttribute('aria-invalid', String(!ok));
      if (!ok) bad.push(i + 1);
      return { label: label.value, priority: ok ? Number(text) : NaN, statusCode: Number(select && select.value) };
    });
    return { list, bad };
  }

  function update() {
    const { list, bad } = edits();
    let dirty = false;
    [...rows.querySelectorAll('tr')].forEach((tr, i) => {
      const row = shown.rows[i];
      const [label, priority] = tr.querySelectorAll('input');
      const select = tr.querySelector('select');
      const changed = [label.value !== row.label, list[i].priority !== row.priority, list[i].statusCode !== row.statusCode];
      tr.classList.toggle('changed-row', changed.some(Boolean));
      label.classList.toggle('changed', changed[0]);
      priority.classList.toggle('changed', changed[1]);
      if (select) select.classList.toggle('changed', changed[2]);
      dirty = dirty || changed.some(Boolean);
    });
    save.disabled = gone || !dirty || bad.length > 0;
    saveAsNew.disabled = bad.length > 0;
    revert.disabled = !dirty;
    // The extension marks the tab and warns if the table is closed with these.
    vscode.postMessage({ type: 'edits', version: shown.version, edits: dirty ? list : undefined });
    if (bad.length) {
      say({ level: 'error', text: t('notWhole', bad.join(', ')) });
      status.dataset.bad = 'true';
    } else if (status.dataset.bad) say(undefined);
    return dirty && bad.length === 0;
  }

  /** Each row's cells as typed: label, priority, status. */
  const cellsOf = () => [...rows.querySelectorAll('tr')].map((tr) => [...tr.querySelectorAll('input, select')].map((c) => c.value));
  /** The cells when Save was pressed, until its answer: what is typed meanwhile outlives the saved object's drawing. */
  let sentCells;

  function send() {
    if (gone) {
      // Ctrl+S in a deleted scanner's table: there is nothing to save to; the choices say what there is.
      say({ level: 'error', text: goneText.textContent });
      return;
    }
    if (!shown || !update()) return;
    sentCells = cellsOf();
    save.disabled = true;
    say({ level: 'info', text: t('saving') });
    vscode.postMessage({ type: 'save', version: shown.version, edits: edits().list });
  }

  rows.addEventListener('input', update);
  rows.addEventListener('change', (e) => {
    update();
    announceEdit(/** @type {HTMLInputElement | HTMLSelectElement} */ (e.target));
  });

  /** "Priority of row 2 (…): 5, was 3", or "…: back to the server's value". */
  function announceEdit(control) {
    const tr = control.closest('tr');
    const i = tr ? [...rows.children].indexOf(tr) : -1;
    const row = shown && shown.rows[i];
    if (!row) return;
    const col = control.dataset.col;
    const was = col === 'label' ? row.label : col === 'priority' ? String(row.priority) : String(row.statusCode);
    const now = control instanceof HTMLSelectElement ? control.options[control.selectedIndex].text : control.value;
    const before = control instanceof HTMLSelectElement ? ([...control.options].find((o) => o.value === was)?.text ?? was) : was;
    const name = control.getAttribute('aria-label');
    announce.textContent = control.value === was ? t('back', name, now) : t('changed', name, now, before);
  }
  /** The cell the keyboard was in last (row and column): a save's question or a reload takes focus away and the rows are drawn anew. */
  let lastCell;
  rows.addEventListener('focusin', (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    const tr = target.closest('tr');
    if (tr && target.dataset.col) lastCell = { at: [...rows.children].indexOf(tr), col: target.dataset.col };
  });

  /** Back to the cell the user left, unless the keyboard went somewhere else of the table (a button). */
  function backToCell() {
    const here = document.activeElement;
    if (here && here !== document.body && !rows.contains(here) && document.contains(here)) return;
    const to = lastCell && rows.children[lastCell.at] && rows.children[lastCell.at].querySelector(`[data-col="${lastCell.col}"]`);
    if (to instanceof HTMLElement && to !== here) to.focus();
  }
  // The webview gets the keyboard back (the production question closed) with nothing focused inside it.
  window.addEventListener('focus', () => backToCell());

  rows.addEventListener('keydown', (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    const col = target.dataset.col;
    if (!col || (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    // An arrow never changes a value, even where there is no row to move to.
    if (target.tagName === 'SELECT') e.preventDefault();
    const tr = target.closest('tr');
    const next = e.key === 'ArrowDown' ? tr && tr.nextElementSibling : tr && tr.previousElementSibling;
    const to = next && next.querySelector(`[data-col="${col}"]`);
    if (to instanceof HTMLElement) {
      e.preventDefault();
      to.focus();
      if (to instanceof HTMLInputElement) to.select();
    }
  });
  rows.addEventListener('keydown', (e) => {
    // Ctrl+A in a cell: the browser selects the cell's text. Kept from VS Code, whose own Select All for a
    // webview comes back a moment later and would select again what was typed meanwhile (its first key lost).
    if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'a' && e.target instanceof HTMLInputElement) e.stopPropagation();
  });
  document.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
      e.preventDefault();
      send();
    }
  });
  save.addEventListener('click', send);
  revert.addEventListener('click', () => {
    render();
    say(undefined);
  });
  saveAsNew.addEventListener('click', () => {
    if (!shown || edits().bad.length) return;
    say({ level: 'info', text: t('saving') });
    vscode.postMessage({ type: 'saveAsNew', edits: edits().list });
  });
  exportRows.addEventListener('click', () => vscode.postMessage({ type: 'export', edits: edits().list }));
  close.addEventListener('click', () => vscode.postMessage({ type: 'close' }));
  reload.addEventListener('click', () => {
    say({ level: 'info', text: t('reloading') });
    vscode.postMessage({ type: 'reload' });
  });

  window.addEventListener('message', (event) => {
    const m = event.data;
    if (m.type === 'show') {
      // A focused cell is drawn anew: the keyboard goes back to it, not to the page. Only while the page has the
      // keyboard: a read of the server's change must not take it from a pick or an editor the user went to.
      const inRows = document.hasFocus() && rows.contains(document.activeElement);
      const typedSince = sentCells && cellsOf();
      shown = m;
      render();
      if (m.restore) {
        [...rows.querySelectorAll('tr')].forEach((tr, i) => {
          const e = m.restore[i];
          if (!e) return;
          const [label, priority] = tr.querySelectorAll('input');
          const select = tr.querySelector('select');
          label.value = e.label;
          priority.value = Number.isFinite(e.priority) ? String(e.priority) : '';
          if (select) select.value = String(e.statusCode);
        });
        update();
      }
      if (typedSince) {
        [...rows.querySelectorAll('tr')].forEach((tr, i) =>
          [...tr.querySelectorAll('input, select')].forEach((c, j) => {
            if (typedSince[i] && typedSince[i][j] !== sentCells[i][j]) c.value = typedSince[i][j];
          }),
        );
        update();
      }
      sentCells = undefined;
      say(m.message);
      if (inRows || (document.hasFocus() && document.activeElement === document.body)) backToCell();
    } else if (m.type === 'gone') {
      gone = true;
      sentCells = undefined;
      goneText.textContent = m.text;
      goneBox.hidden = false;
      actions.hidden = true;
      // With no rows (deleted before the table could read it) there is nothing to save or export.
      saveAsNew.hidden = exportRows.hidden = !shown;
      version.textContent = t('deleted');
      // Ctrl+S no longer saves: the hint (the grid's description) says so.
      hint.textContent = t('goneHint');
      say(undefined);
      if (shown) update();
    } else if (m.type === 'message') {
      sentCells = undefined;
      say(m.message);
      update();
      backToCell();
    }
  });
  vscode.postMessage({ type: 'ready' });
})();
