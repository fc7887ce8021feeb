// What the UI checks share: reading the sandbox, and moving through the workbench as a person would.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';

export interface UiCheck {
  title: string;
  ok: boolean;
  message?: string;
}

export type Env = Record<string, string>;

export async function get(env: Env, path: string): Promise<any> {
  const res = await fetch(env.OMS_SANDBOX_URL + path, { headers: { Authorization: `Bearer ${env.OMS_SANDBOX_TOKEN}` } });
  return res.json();
}

export async function send(env: Env, method: string, path: string, body?: unknown): Promise<void> {
  const res = await fetch(env.OMS_SANDBOX_URL + path, {
    method,
    headers: { Authorization: `Bearer ${env.OMS_SANDBOX_TOKEN}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`);
}

export const outbox = async (env: Env) => JSON.stringify(await get(env, '/sandbox/outbox'));

/**
 * Chooses an entry of the open context menu as a person would: point at it, and once the menu
 * highlights it, Enter. Enter runs the menu's focused entry, if any: the pointed entry's focus is
 * waited for (a fixed 200 ms pause before, once suspected in a CI run), and the menu's closing after.
 */
export async function menuItem(page: Page, label: string): Promise<void> {
  const item = page.locator('.context-view .action-menu-item', { hasText: label }).first();
  const chosen = page.locator('.context-view .action-item.focused', { hasText: label }).first();
  await item.waitFor({ timeout: 10_000 });
  for (let tries = 1; ; tries++) {
    await item.hover();
    if (
      await chosen.waitFor({ timeout: 2_000 }).then(
        () => true,
        () => false,
      )
    )
      break;
    if (tries === 3) throw new Error(`the menu entry "${label}" was pointed at ${tries} times and not chosen`);
    await page.mouse.move(0, 0);
  }
  await page.keyboard.press('Enter');
  await item.waitFor({ state: 'detached', timeout: 5_000 });
}

/** A row's context menu, opened by a right-click (again if none opened), and its entry chosen (menuItem). */
export async function fromMenu(page: Page, row: Locator, label: string): Promise<void> {
  const menu = page.locator('.context-view .monaco-menu').first();
  for (let tries = 1; ; tries++) {
    await row.click({ button: 'right' });
    if (
      await menu.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      )
    )
      break;
    if (tries === 2) throw new Error(`no menu opened on a right-click, ${tries} times, to choose "${label}"`);
  }
  await menuItem(page, label);
}

export async function until<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  for (const end = Date.now() + ms; ;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function rootSite(env: Env): Promise<{ at: string; site: any; folderKey: string }> {
  const root = await get(env, '/api');
  const [first] = await get(env, `/api/f/${root.Key}/engagesites`);
  const at = `/api/f/${root.Key}/engagesites/${first.Key}`;
  return { at, site: await get(env, at), folderKey: root.Key };
}

/**
 * Opens the site from the tree with a click and puts the cursor in its editor once the open has put
 * the focus there. The open (oms.openObject) reads the object and then shows its editor, focused: a key
 * pressed before, into a palette opened meanwhile, was lost when it closed. Not a double-click: each of
 * its clicks is an open, and the second could land after the first had given the focus.
 */
export async function openSiteEditor(page: Page, name: string): Promise<void> {
  await page.locator('.part.sidebar .monaco-list-row[aria-level="4"]', { hasText: name }).first().click();
  await page.locator('.tabs-container .tab.active', { hasText: `${name}.json` }).waitFor({ timeout: 10_000 });
  await page.locator('.editor-instance .monaco-editor.focused').first().waitFor({ timeout: 10_000 });
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  if (await activeTabDirty(page)) await revertActive(page); // left over from a check that failed
}

/**
 * Puts the cursor right after the first match of `text` in the focused editor
 * (Ctrl+F, Enter, Escape, Right). Each key waits for the find widget to be in
 * the state it expects: a fixed pause lost the text to the tree's own find on a busy machine.
 */
export async function cursorAfter(page: Page, text: string): Promise<void> {
  const widget = page.locator('.editor-widget.find-widget.visible');
  await page.keyboard.press('Control+f');
  await widget.locator('textarea:focus').first().waitFor({ timeout: 5_000 });
  await page.keyboard.press('Control+a');
  await page.keyboard.type(text);
  await widget
    .locator('.matchesCount', { hasText: /\d+ of \d+/ })
    .first()
    .waitFor({ timeout: 5_000 })
    .catch(() => {
      throw new Error(`the editor has no ${text}`);
    });
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  await closeFind(page);
  await page.keyboard.press('ArrowRight');
}

/** Closes the editor's find widget: Escape once it has taken the keys before it; again if the first came too early. */
export async function closeFind(page: Page): Promise<void> {
  const widget = page.locator('.editor-widget.find-widget.visible');
  for (let i = 0; i < 3 && (await widget.count()); i++) {
    await page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden', timeout: 1_000 }).catch(() => undefined);
  }
  await widget.waitFor({ state: 'hidden', timeout: 1_000 });
}

/** Types into the focused editor and waits for its tab to show the edit (dirty), so a check never goes on with a lost keystroke. */
export async function typeEdit(page: Page, text: string): Promise<void> {
  await page.keyboard.type(text);
  await until('the typed edit to mark the tab unsaved', () => activeTabDirty(page));
}

/** The status bar's item of the active object document ("… · v7"), as text. */
export const statusVersion = (page: Page) =>
  page
    .locator('.statusbar-item', { hasText: /· v\d+/ })
    .first()
    .innerText()
    .catch(() => '');
// Monaco draws spaces as no-break spaces.
export const editorText = async (page: Page) => (await page.locator('.editor-instance .view-lines').first().innerText()).replace(/\u00a0/g, ' ');

export const activeTabDirty = (page: Page) =>
  page
    .locator('.tabs-container .tab.active.dirty')
    .count()
    .then((n) => n > 0);

/**
 * A notification, read in the notification centre (a headless window has no focus, so VS Code holds toasts back).
 * The centre is opened again until it shows it: one posted while the centre is open may not be drawn in it.
 */
export async function notification(page: Page, text: RegExp, ms = 10_000) {
  const item = page.locator('.notifications-center .notification-list-item', { hasText: text }).first();
  const end = Date.now() + ms;
  for (;;) {
    // A notification arriving while the palette is open can take its focus (a clean-clone run lost it so): asked again.
    const asked = await palette(page, 'Notifications: Show Notifications').then(
      () => true,
      async (e: Error) => {
        if (!/lost the focus/.test(e.message) || Date.now() > end) throw e;
        await page.keyboard.press('Escape');
        return false;
      },
    );
    if (!asked) continue;
    const shown = await item.waitFor({ timeout: 2_000 }).then(
      () => true,
      () => false,
    );
    if (shown) return item;
    if (Date.now() > end) throw new Error(`no notification says ${text}`);
    // A notification posted meanwhile may have closed the centre (shown as a toast): Hide is then not offered.
    if (await page.locator('.notifications-center.visible').count()) await palette(page, 'Notifications: Hide Notifications');
  }
}

export async function revertActive(page: Page): Promise<void> {
  await palette(page, 'File: Revert File');
  await until('the tab to be clean after Revert', async () => !(await activeTabDirty(page)));
}

export const input = (page: Page) => page.locator('.quick-input-widget input').first();

/** The row of the open quick pick that holds `text`. */
export const pick = (page: Page, text: string | RegExp) => page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();

/** What the open quick input (or its part, e.g. '.quick-input-title') says, spaces folded; '' when none is open. */
export async function quickInputText(page: Page, part = ''): Promise<string> {
  const text = await page
    .locator(`.quick-input-widget ${part}`.trim())
    .first()
    .innerText()
    .catch(() => '');
  return text.replace(/\s+/g, ' ');
}

/** The open quick input's title once it holds `text` (a step's name, a preview's counts). */
export async function waitForTitle(page: Page, text: RegExp | string, ms = 30_000): Promise<string> {
  const title = page.locator('.quick-input-widget .quick-input-title').first();
  return until(
    `a quick input titled ${text}`,
    async () => {
      const t = await title.innerText().catch(() => '');
      return (typeof text === 'string' ? t.includes(text) : text.test(t)) && t;
    },
    ms,
  );
}

/** The quick pick's row holding `text` once it shows; if it never does, the error says what the quick input offers. */
export async function pickShown(page: Page, text: string, ms: number): Promise<Locator> {
  const row = pick(page, text);
  await row.waitFor({ timeout: ms }).catch(async () => {
    throw new Error(`no "${text}": the quick input offers: ${await quickInputText(page)}`);
  });
  return row;
}

export const activeTab = (page: Page) => page.locator('.tabs-container .tab.active').first();

/**
 * The active tab's text, '' when no tab is open (a modal editor has none), read at once: a locator's
 * innerText would wait for a tab to appear.
 */
/** The active editor group's active tab (with two groups, the first group's active tab may be another). */
export const activeTabText = (page: Page) =>
  page.evaluate<string>(`(document.querySelector('.editor-group-container.active .tabs-container .tab.active')?.innerText ?? '')`).catch(() => '');

/** Whether the focused element of the page (not of a webview frame in it) matches `selector`. */
export const hasFocus = (page: Page, selector: string) => page.evaluate<boolean>(`!!document.activeElement?.matches(${JSON.stringify(selector)})`);

/**
 * The row of `name` in the Objects view once a reveal has finished: selected, the tree's focused row, and the tree
 * holding the keyboard (a reveal selects, then focuses). A row selected earlier is not enough: the reveal's focus,
 * landing after the next step opened a quick input, would close that input.
 */
export async function revealedInTree(page: Page, name: string, ms = 15_000): Promise<Locator> {
  const revealed = page.locator('.part.sidebar .monaco-list-row.selected.focused', { hasText: name }).first();
  const treeHasKeys = () => hasFocus(page, '.part.sidebar .monaco-list, .part.sidebar .monaco-list *');
  await until(
    `"${name}" revealed in the tree (selected, the tree holding the keyboard)`,
    async () => (await revealed.count()) > 0 && (await treeHasKeys()),
    ms,
  );
  return page.locator('.part.sidebar .monaco-list-row', { hasText: name }).first();
}

/**
 * F1, wait for the palette's box to hold the focus (never type into an editor; a quick input that
 * loses the focus closes), the command's title, Enter while the box still holds it.
 */
export async function palette(page: Page, title: string): Promise<void> {
  const box = '.quick-input-widget input';
  const opened = () =>
    until('the palette', () => hasFocus(page, box), 3_000).then(
      () => true,
      () => false,
    );
  let open = false;
  for (const keys of ['F1', 'Control+Shift+P', 'F1']) {
    await page.keyboard.press(keys);
    if ((open = await opened())) break;
    await page.keyboard.press('Escape');
  }
  // Keys a webview holds (a walkthrough's picture) never reach the workbench: the search box at the top, by mouse.
  if (!open) {
    await page.locator('.command-center .command-center-center').first().click({ timeout: 5_000 });
    if (!(await opened())) throw new Error(`the command palette did not open for "${title}"`);
  }
  // A notification arriving now can take the focus and close the palette, before its text is filled or after.
  const lost = () => new Error(`the command palette lost the focus before "${title}" was chosen`);
  try {
    await input(page).fill(`>${title}`, { timeout: 5_000 });
    await pick(page, title).waitFor({ timeout: 5_000 });
  } catch (e) {
    throw (await hasFocus(page, box)) ? e : lost();
  }
  if (!(await hasFocus(page, box))) throw lost();
  await page.keyboard.press('Enter');
}

export async function floors(env: Env): Promise<{ floor1: any; floor2: any }> {
  const root = await get(env, '/api');
  const head = (await get(env, `/api/f/${root.Key}/folders`)).find((f: any) => f.CommonName === 'Head Office');
  const all = await get(env, `/api/f/${head.Key}/folders`);
  return { floor1: all.find((f: any) => f.CommonName === 'Floor 1'), floor2: all.find((f: any) => f.CommonName === 'Floor 2') };
}

/**
 * The Go to Object box itself, by its placeholder: typing into whatever quick input is open when the
 * keys come would lose the text once the command's own box replaces it.
 */
const goToObjectInput = (page: Page) => page.locator('.quick-input-widget input[placeholder^="Part of an object"]').first();

/**
 * Ctrl+Alt+O, part of the name typed at once (as a person types, not waiting for the box), the object's
 * row, Enter: the object opens (its folder was never expanded in this window).
 */
export async function goToObject(page: Page, name: string): Promise<void> {
  // Focus on the workbench (not a webview): the title bar's empty right part, clear of the command
  // center in its middle, which opens a quick input of its own when clicked.
  await page
    .locator('.monaco-workbench')
    .click({ position: { x: 1100, y: 5 } })
    .catch(() => undefined);
  await page.locator('.quick-input-widget').first().waitFor({ state: 'hidden', timeout: 10_000 });
  const typed = name.split(' ').slice(-2).join(' ');
  await page.keyboard.press('Control+Alt+O');
  await page.keyboard.type(typed);
  await until(
    `"#${typed}" in the symbol search`,
    async () =>
      (
        await input(page)
          .inputValue()
          .catch(() => '')
      ).replace(/^#/, '') === typed,
    5_000,
  );
  const row = pick(page, name);
  await row.waitFor({ timeout: 15_000 });
  // The wanted one first: arrow down to it as a keyboard user would.
  await page.waitForTimeout(500);
  for (
    let i = 0;
    i < 20 &&
    !(
      await page
        .locator('.quick-input-list .monaco-list-row.focused')
        .first()
        .innerText()
        .catch(() => '')
    ).includes(name);
    i++
  ) {
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
  const opened = async () => (await activeTabText(page)).includes(name);
  // Before VS Code opens it, the symbol's resolve brings a document VS Code still holds up to the server's version.
  await until(`tab "${name}"`, opened, 8_000).catch(async () => {
    // The list was being redrawn as the Enter came: once more, as a person would.
    if (await input(page).isVisible()) await page.keyboard.press('Enter');
    await until(`tab "${name}"`, opened);
  });
  // A person sees the object before going on: its text shown and the caret in it. Keys pressed before
  // that would land wherever the focus ends up once the editor takes it.
  await page.locator('.editor-group-container.active .monaco-editor.focused').first().waitFor({ timeout: 10_000 });
}

/**
 * Go to Object… from the palette (its own picker: progress, recently opened first, Bulk Edit All Results),
 * then `text` typed into the box once it shows, checked to be there. A box closed just before has the
 * same placeholder: it must be gone first.
 */
export async function query(page: Page, text: string): Promise<void> {
  await page.locator('.quick-input-widget').first().waitFor({ state: 'hidden', timeout: 10_000 });
  await palette(page, 'Go to Object…');
  await until('the focus in the Go to Object box', () => hasFocus(page, '.quick-input-widget input[placeholder^="Part of an object"]'));
  await goToObjectInput(page).pressSequentially(text, { timeout: 5_000 });
  await until(`"${text}" in the Go to Object box`, async () => (await goToObjectInput(page).inputValue()) === text, 5_000);
}

/** The UI checks of one area (a file of test/integration/ui/), each a title and what to do; `checks.ts` runs them after its own. */
export type UiCheckList = (page: Page, env: Env, diag: string) => Array<[string, () => Promise<void>]>;

/** Edit Scanner Priorities… is open on a scanner: Enter (the first range), its new priority, Enter, Enter (its status as it is). */
export async function quickEditFirstPriority(page: Page, priority: number): Promise<void> {
  await quickInputStep(page, '1/3', true);
  await page.keyboard.press('Enter');
  await quickInputStep(page, '2/3', false);
  await input(page).fill(String(priority));
  await page.keyboard.press('Enter');
  await quickInputStep(page, '3/3', true);
  await page.keyboard.press('Enter');
}

/**
 * Waits until the quick input shows step `step` ("2/3", in its title) with the focus in its box and,
 * for a pick, an item highlighted: Enter then takes that step (after a fixed pause, a step slower than the pause
 * would have taken it, or the step before).
 */
export async function quickInputStep(page: Page, step: string, pick: boolean): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await widget
    .locator('.quick-input-title', { hasText: `(${step})` })
    .first()
    .waitFor({ timeout: 10_000 })
    .catch(async () => {
      throw new Error(
        `the quick input never showed step ${step}; its title: "${await widget
          .locator('.quick-input-title')
          .first()
          .innerText()
          .catch(() => '')}"`,
      );
    });
  await until(`the focus in step ${step}'s box`, () => hasFocus(page, '.quick-input-widget input'));
  if (pick) await widget.locator('.quick-input-list .monaco-list-row.focused').first().waitFor({ timeout: 10_000 });
}

/** Send Push Notification is open: the first type and content, `message`, nobody in either recipients step; then the summary (step 6). */
export async function pushToSummary(page: Page, message: string): Promise<void> {
  // Each step waited for by its count in the title: a jump in the count is a step never shown.
  const steps: Array<[answer: string, pick: boolean]> = [
    ['', true],
    ['', true],
    [message, false],
    ['', false],
    ['', false],
  ];
  for (const [i, [answer, pick]] of steps.entries()) {
    await quickInputStep(page, `${i + 1}/6`, pick);
    if (answer) await input(page).fill(answer);
    await page.keyboard.press('Enter');
  }
  await quickInputStep(page, '6/6', true);
}

/** Types `text` into the open quick pick and takes the item it filters to, once that item is the highlighted one. */
export async function pickTyped(page: Page, text: string): Promise<void> {
  await input(page).pressSequentially(text);
  await page
    .locator('.quick-input-list .monaco-list-row.focused', { hasText: text })
    .first()
    .waitFor({ timeout: 10_000 })
    .catch(() => {
      throw new Error(`no highlighted item holds "${text}" in the quick pick`);
    });
  await page.keyboard.press('Enter');
}

/** A new engage site from the Engage sites group's + button, the cursor in its editor. */
export async function newSiteDraft(page: Page): Promise<void> {
  const group = page.locator('.part.sidebar .monaco-list-row[aria-level="3"]', { hasText: /^\s*Engage sites/ }).first();
  await group.hover();
  await group.locator('.action-label[aria-label^="New Object"]').click();
  await page.locator('.tabs-container .tab.active', { hasText: 'New engage site.json' }).waitFor({ timeout: 10_000 });
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
}

/** A created copy of a scanner named `name` in `folderKey`, made over REST, as the server answers it. */
export async function createScanner(env: Env, folderKey: string, like: any, name: string): Promise<any> {
  const { Key: _k, Href: _h, ConcurrencyVersion: _v, Notes: _n, Links: _l, InFolderHref: _f, InFolderKey: _fk, ...copy } = like;
  const res = await fetch(`${env.OMS_SANDBOX_URL}/api/f/${folderKey}/inputscanners`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${env.OMS_SANDBOX_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...copy, CommonName: name }),
  });
  if (!res.ok) throw new Error(`creating ${name}: ${res.status}`);
  return res.json();
}

/** Lines of the extension's logs (every extension host of the run) that hold `text`. */
export function loggedLines(env: Env, text: string): number {
  return loggedAt(env, text).length;
}

/** When the extension's log lines holding `text` were written (the log's own clock: this machine's, local time). */
export function loggedAt(env: Env, text: string): Date[] {
  const logs = path.join(env.OMS_UI_DIAG, 'vscode-logs');
  const at: Date[] = [];
  for (const host of fs.readdirSync(logs).filter((d) => d.startsWith('exthost'))) {
    const dir = path.join(logs, host, 'oms-team.oms-explorer');
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir)) {
      for (const l of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) if (l.includes(text)) at.push(new Date(l.slice(0, 23).replace(' ', 'T')));
    }
  }
  return at;
}

/**
 * `text` typed over a cell's value as a person does: click, select all, type. Keys pressed before the
 * webview has taken the focus go to the workbench (Ctrl+A would select elsewhere and the text be added
 * to the old value), so the keys wait for the cell to hold the focus, and the value is read back.
 */
export async function typeOver(page: Page, input: Locator, text: string): Promise<void> {
  await input.click();
  await until('the cell focused', () => input.evaluate((e) => e === e.ownerDocument.activeElement && e.ownerDocument.hasFocus()));
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  const value = await input.inputValue();
  if (value !== text) throw new Error(`typed "${text}" into the cell, which holds "${value}"`);
}
