// UI checks of the extension at home in the workbench: the priorities table for screen readers (axe-core,
// announced edits), the tree, the production colour and the table in the high-contrast themes.
import * as fs from 'fs';
import * as path from 'path';
import type { Frame, Page } from 'playwright-core';
import { pseudoLocale } from '../host/l10n';
import {
  pick,
  fromMenu,
  activeTab,
  activeTabText,
  cursorAfter,
  floors,
  get,
  goToObject,
  hasFocus,
  input,
  menuItem,
  palette,
  revertActive,
  statusVersion,
  typeEdit,
  typeOver,
  until,
  type Env,
  type UiCheckList,
} from './helpers';

/** axe-core's own bundle, evaluated in the table's frame (DevTools evaluation is not held back by the page's CSP). */
const axeSource = () => fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeIssue {
  id: string;
  impact?: string | null;
  help: string;
  nodes: Array<{ target: unknown; failureSummary?: string }>;
}

/** Runs axe-core on the table; writes what it found to the diagnostics; fails on a serious or critical issue. */
async function audit(frame: Frame, diag: string, name: string): Promise<void> {
  if (!(await frame.evaluate('typeof axe === "object"'))) await frame.evaluate(`${axeSource()}\n;0`);
  // Written as page code (this file is compiled without the DOM's types).
  const violations = await frame.evaluate<AxeIssue[]>(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
  })))`);
  fs.writeFileSync(`${diag}/axe-${name}.json`, JSON.stringify(violations, null, 2));
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length)
    throw new Error(`axe-core (${name}): ${bad.map((v) => `${v.impact} ${v.id}: ${v.help} at ${JSON.stringify(v.nodes[0]?.target)}`).join('; ')}`);
}

/** The scanner's table frame: Go to Object, then Open Priorities Table from the palette. */
export async function openTable(page: Page, env: Env): Promise<{ frame: Frame; scanner: any }> {
  const { floor2 } = await floors(env);
  const [scanner] = await get(env, `/api/f/${floor2.Key}/inputscanners`);
  await goToObject(page, scanner.CommonName);
  await palette(page, 'OMS: Open Priorities Table');
  let frame: Frame | undefined;
  await until(
    'the table',
    async () => {
      for (const f of page.frames())
        if (
          (await f
            .locator('#rows tr')
            .count()
            .catch(() => 0)) === 8
        )
          frame = f;
      return !!frame;
    },
    15_000,
  );
  return { frame: frame!, scanner };
}

/** In the priorities table, row 3's priority typed and saved with Ctrl+S, then row 4's typed while the save is on its way. */
export async function saveThenTypeAnother(page: Page, frame: Frame, saved: number, typed: number): Promise<void> {
  for (const [row, value] of [
    [2, saved],
    [3, typed],
  ]) {
    await typeOver(page, frame.locator('#rows tr').nth(row).locator('input.priority'), String(value));
    if (row === 2) await page.keyboard.press('Control+S');
  }
}

/**
 * Sets the colour theme as a user would in Preferences: Open User Settings (JSON): the whole text
 * replaced, Ctrl+S, the editor closed. (The Color Theme picker, offline, shows only the Marketplace's
 * search error.) The settings file is read from the profile the runner made beside the workspace.
 */
export async function userSettings(page: Page, text: string, profile: 'checks' | 'fresh' = 'checks'): Promise<void> {
  await palette(page, 'Preferences: Open User Settings (JSON)');
  // VS Code shows it in a modal editor above the window (workbench.editor.useModal, "some" by default;
  // no tab then), else in a tab.
  // Whether the modal shows, from its box on the page (Playwright's isVisible answered false for a modal on the screen).
  const modalShown = () =>
    page.evaluate<boolean>(
      `[...document.querySelectorAll('.modal-editor-part')].some((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; })`,
    );
  // Slow while extensions still activate (the first check of a run).
  await until('settings.json open', async () => (await modalShown()) || (await activeTabText(page)).includes('settings.json'), 30_000);
  const inModal = await modalShown();
  // A click in its text, where the pointer is (Playwright's own click waited in vain for the modal's
  // editor to take it on the driverless server).
  const editorAt = inModal ? '.modal-editor-part .monaco-editor' : '.editor-group-container.active .monaco-editor';
  // Its editor laid out (the modal shows a moment before).
  const editor = await until("settings.json's editor laid out", () =>
    page.evaluate<{ x: number; y: number; width: number; height: number } | null>(
      `(() => {
        const e = document.querySelector(${JSON.stringify(editorAt)});
        const r = e?.getBoundingClientRect();
        return r && r.width ? r.toJSON() : null;
      })()`,
    ),
  ).catch(() => undefined);
  if (!editor) throw new Error('settings.json shows no editor');
  await page.mouse.click(editor.x + editor.width / 2, editor.y + 30);
  await page.keyboard.press('Control+A');
  // One input; the brackets and quotes the editor closes by itself as it goes end up after the
  // caret: removed (Ctrl+Shift+End, Delete).
  await page.keyboard.insertText(JSON.stringify(JSON.parse(text)));
  await page.keyboard.press('Control+Shift+End');
  await page.keyboard.press('Delete');
  await page.keyboard.press('Control+S');
  const saved = () => {
    try {
      return JSON.stringify(JSON.parse(fs.readFileSync(settingsFile(page, profile), 'utf8'))) === JSON.stringify(JSON.parse(text));
    } catch {
      return false; // being written
    }
  };
  await until('settings.json saved', () => Promise.resolve(saved()), 10_000);
  if (inModal) {
    await page.keyboard.press('Escape');
    // Else its close button (the focus may have left it).
    const closed = () =>
      until('the modal closed', async () => !(await modalShown()), 3_000).then(
        () => true,
        () => false,
      );
    if (!(await closed())) {
      const close = await page.locator('.modal-editor-part .codicon-close').first().boundingBox();
      if (close) await page.mouse.click(close.x + close.width / 2, close.y + close.height / 2);
      if (!(await closed())) throw new Error("settings.json's modal editor stayed open");
    }
  } else {
    await page.keyboard.press('Control+W');
  }
}

export function settingsFile(page: Page, profile: 'checks' | 'fresh' = 'checks'): string {
  // The runner's profiles (test/integration/host/chromium.ts): <tmp>/profiles/<name> beside <tmp>/workspace.
  const folder = new URL(page.url()).searchParams.get('folder')!;
  return path.join(path.dirname(folder), 'profiles', profile, 'user', 'User', 'settings.json');
}

async function connectionMenu(page: Page, entry: string): Promise<void> {
  await fromMenu(page, page.locator('.part.sidebar .monaco-list-row[aria-level="1"]').first(), entry).catch((e: Error) => {
    throw new Error(`"${entry}" in the connection's menu: ${e.message}`);
  });
}

/** The table in the default theme, then in both high-contrast themes, with the tree beside it and the connection marked production. */
async function tableForEveryone(page: Page, env: Env, diag: string): Promise<void> {
  const { frame } = await openTable(page, env);
  await audit(frame, diag, 'default-theme');
  await connectionMenu(page, 'Mark as Production');
  const connection = page.locator('.part.sidebar .monaco-list-row[aria-level="1"]').first();
  try {
    await connection.filter({ hasText: 'PRODUCTION' }).waitFor({ timeout: 10_000 });
    const before = fs.readFileSync(settingsFile(page), 'utf8');
    try {
      for (const [theme, file, workbench] of [
        ['Default High Contrast', 'hc-dark', 'hc-black'],
        ['Default High Contrast Light', 'hc-light', 'hc-light'],
      ] as const) {
        await userSettings(page, JSON.stringify({ ...JSON.parse(before), 'workbench.colorTheme': theme }, null, 2));
        await page.locator(`.monaco-workbench.${workbench}`).waitFor({ timeout: 10_000 });
        await activeTab(page).filter({ hasText: 'Priorities' }).waitFor({ timeout: 10_000 });
        await page.waitForTimeout(1_000);
        await audit(frame, diag, file);
        await page.screenshot({ path: `${diag}/${file}.png` });
      }
    } finally {
      await userSettings(page, before);
    }
  } finally {
    await connectionMenu(page, 'Unmark as Production');
  }
}

/** A priority typed into the grid, Tab: the live region says what changed and that it is not saved; Revert takes it back. */
async function editAnnounced(page: Page, env: Env): Promise<void> {
  const { frame, scanner } = await openTable(page, env);
  const was = scanner.InputScannerReportingPriorities[2].Priority;
  const wanted = (was + 4) % 10;
  const cell = frame.locator('#rows tr').nth(2).locator('input.priority');
  if ((await frame.locator('table[role="grid"] tr[role="row"] td[role="gridcell"]').count()) !== 40)
    throw new Error('the table is not a grid of 8 rows of 5 cells');
  await cell.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(String(wanted));
  await page.keyboard.press('Tab');
  const said = await until('the edit announced', async () => (await frame.locator('#announce').innerText()).trim() || undefined, 5_000);
  if (!said.startsWith('Priority of row 3') || !said.includes(`${wanted}, was ${was}, not saved yet`)) throw new Error(`announced "${said}"`);
  await frame.locator('#revert').click();
  await until('the tab clean again', async () => !(await activeTabText(page)).includes('●'));
  await page.keyboard.press('Control+W');
}

/** The .vsix under test, as the runner finds it. */
function vsixPath(): string {
  if (process.env.OMS_VSIX) return path.resolve(process.env.OMS_VSIX);
  const repo = path.resolve(__dirname, '..', '..', '..');
  const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { name: string; version: string };
  return path.join(repo, `${pkg.name}-${pkg.version}.vsix`);
}

/** The fill the step's picture paints its background with (the svg is drawn in a webview frame with the theme's colours). */
async function pictureBackground(page: Page): Promise<string> {
  return until(
    "the step's picture",
    async () => {
      for (const f of page.frames()) {
        const fill = await f
          .evaluate<string | undefined>(`(() => { const e = document.querySelector('svg rect.bg'); return e ? getComputedStyle(e).fill : undefined; })()`)
          .catch(() => undefined);
        if (fill) return fill;
      }
      return undefined;
    },
    15_000,
  );
}

/**
 * A fresh profile: a new browser context (the web build keeps the profile in the browser) on a
 * server with no extension installed (the runner starts it). The user installs the .vsix (Extensions:
 * Install from VSIX…, the path typed into VS Code's file dialog): the walkthrough opens by itself. Its
 * pictures take the theme's colours (light, then dark). Ctrl+Alt+O ticks its Go to Object step and
 * no other; a scanner opened ticks Open an input scanner; the Try the Local Sandbox button its step;
 * a priority saved in that scanner's table its step (the server holds it); Pull as Files… from the
 * palette, into the workspace, its step (the files on disk).
 * Once: after Close All Editors and Developer: Reload Window it does not open again (Help: Welcome's
 * More… still lists it, its progress kept).
 *
 * Keys go where the focus is, and in this window the focus moves by itself: the walkthrough focuses a
 * step 250 ms after it is selected, the Chat view its input as it loads, the extension its Objects
 * view once it has connected to the sandbox the window is handed and when Try the Local Sandbox ends.
 * A quick input that loses the focus closes. So each key waits for the element that must have it
 * (see `focused`), and what moved the focus is written to walkthrough-focus.log on a failure.
 */
async function walkthroughOnInstall(page: Page, env: Env, diag: string): Promise<void> {
  const context = await page
    .context()
    .browser()!
    .newContext({ viewport: { width: 1440, height: 900 } });
  // Where the focus went and when, in every page of the context (the reload's too).
  await context.addInitScript(focusTrace);
  let fresh: Page | undefined;
  try {
    fresh = await context.newPage();
    // OMS_UI_THROTTLE=n (development): this window's CPU n times slower, as on a busy machine, to bring races out.
    if (process.env.OMS_UI_THROTTLE)
      await (await context.newCDPSession(fresh)).send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.OMS_UI_THROTTLE) });
    await walkthroughSteps(fresh, env, diag);
  } catch (e) {
    if (fresh) {
      await fresh.screenshot({ path: `${diag}/walkthrough-failed.png` }).catch(() => undefined);
      const trace = await fresh.evaluate<string[]>('window.__omsFocus ?? []').catch(() => [] as string[]);
      fs.writeFileSync(`${diag}/walkthrough-focus.log`, `${trace.join('\n')}\n`);
    }
    throw e;
  } finally {
    await context.close();
    // The folder the walkthrough pulled into, out of the workspace the other checks share.
    if (env.OMS_WORKSPACE) fs.rmSync(path.join(env.OMS_WORKSPACE, 'oms', 'local-sandbox'), { recursive: true, force: true });
    // The test window, which the other checks go on in, after the install elsewhere.
    await page.screenshot({ path: `${diag}/walkthrough-test-window.png` });
  }
}

/**
 * Page code: logs each element that takes the focus (and the window's blur) in `window.__omsFocus`,
 * the walkthrough steps focused in `window.__omsStepFocus`.
 */
const focusTrace = `(() => {
  if (window.top !== window) return;
  const log = (window.__omsFocus = []);
  const t0 = Date.now();
  const name = (e) => {
    if (!e || !e.tagName) return String(e);
    const classes = typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\\s+/).slice(0, 3).join('.') : '';
    const label = e.getAttribute('aria-label') ? ' "' + e.getAttribute('aria-label').slice(0, 50) + '"' : '';
    return e.tagName.toLowerCase() + classes + label;
  };
  document.addEventListener('focusin', (ev) => log.push((Date.now() - t0) + ' ms focus ' + name(ev.target)), true);
  // The walkthrough focuses a step it selects 250 ms later (a timer): a focus() of an element already
  // focused moves nothing, so the calls are counted to know the timer has fired.
  const steps = (window.__omsStepFocus = []);
  const focus = HTMLElement.prototype.focus;
  HTMLElement.prototype.focus = function (...args) {
    if (this.hasAttribute('data-step-id')) steps.push(this.getAttribute('data-step-id'));
    return focus.apply(this, args);
  };
  window.addEventListener('blur', () => log.push((Date.now() - t0) + ' ms window blur, active ' + name(document.activeElement)));
})()`;

/** Marks a step of the check in the focus trace. */
const mark = (page: Page, what: string) => page.evaluate(`window.__omsFocus?.push(${JSON.stringify(`-- ${what}`)})`).catch(() => undefined);

/** Waits until `selector` (an element of the workbench's own document) holds the keyboard focus. */
async function focused(page: Page, selector: string, what: string, ms = 10_000): Promise<void> {
  await until(`the focus in ${what}`, () => hasFocus(page, selector), ms);
}

async function walkthroughSteps(fresh: Page, env: Env, diag: string): Promise<void> {
  // A server of its own with nothing installed (the runner starts it): a first start.
  const url = new URL(env.OMS_FRESH_WINDOW);
  await fresh.goto(url.toString());
  const failed = (what: string) => (e: Error) => {
    // Playwright says which element took a click meant for another.
    const intercepted = e.message
      .split('\n')
      .find((l) => l.includes('intercepts pointer events'))
      ?.trim();
    throw new Error(`${what} (walkthrough-failed.png, walkthrough-focus.log): ${e.message.split('\n')[0]}${intercepted ? ` (${intercepted})` : ''}`);
  };
  await fresh
    .locator('.monaco-workbench')
    .waitFor({ timeout: 60_000 })
    .catch(failed(`the fresh window (${url.origin}) showed no workbench`));
  // As after a first start: the Welcome page VS Code opens closed, the Chat view beside it too (its
  // input takes the focus when it has loaded), the Explorer in front.
  const welcome = fresh.locator('.gettingStartedContainer').first();
  await welcome.waitFor({ timeout: 30_000 }).catch(failed('the Welcome page of a first start'));
  await closeAllEditors(fresh).catch(failed('the Welcome page closed before the install'));
  if (await fresh.locator('.part.auxiliarybar').isVisible()) await fresh.keyboard.press('Control+Alt+B');
  await fresh.locator('.part.auxiliarybar').waitFor({ state: 'hidden', timeout: 5_000 }).catch(failed('the secondary side bar hidden'));
  await fresh.keyboard.press('Control+Shift+E');
  await focused(fresh, '.part.sidebar *', 'the Explorer').catch(failed('the Explorer'));
  await mark(fresh, 'install');
  await palette(fresh, 'Extensions: Install from VSIX...').catch(failed('Install from VSIX in the palette'));
  const box = input(fresh);
  await focused(fresh, '.quick-input-widget input', 'the file dialog').catch(failed('the file dialog'));
  // The dialog puts its start folder in the box once it has read it (typing before that is lost);
  // a path typed, it lists that folder and may write the box again as it does: the path is typed
  // (again) until the box holds it with the .vsix listed, then Enter.
  await until("the file dialog's start folder", async () => (await box.inputValue()).startsWith('/'), 10_000).catch(failed("the file dialog's start folder"));
  const vsixRow = pick(fresh, path.basename(vsixPath()));
  // The box must still hold it a moment later: a listing that ends after the fill writes its folder again.
  await until(
    'the .vsix in the file dialog',
    async () => {
      if ((await box.inputValue()) !== vsixPath()) await box.fill(vsixPath(), { timeout: 5_000 });
      if ((await box.inputValue()) !== vsixPath() || !(await vsixRow.isVisible())) return false;
      await fresh.waitForTimeout(600);
      return (await box.inputValue()) === vsixPath();
    },
    20_000,
  ).catch(failed('the path in the file dialog'));
  await focused(fresh, '.quick-input-widget input', 'the file dialog, before Enter').catch(failed('the file dialog'));
  await fresh.keyboard.press('Enter');
  await fresh
    .locator('.quick-input-widget')
    .first()
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(async (e: Error) => {
      const said = await fresh
        .locator('.quick-input-widget .quick-input-message')
        .first()
        .innerText()
        .catch(() => '');
      return failed(`the file dialog took ${vsixPath()} (it says "${said}"; it holds "${await box.inputValue().catch(() => '')}")`)(e);
    });
  await mark(fresh, 'installed');
  const step = (id: string) => fresh.locator(`[data-done-step-id="oms-team.oms-explorer#getStarted#${id}"]`).first();
  const ours = fresh.locator('[data-done-step-id^="oms-team.oms-explorer#getStarted#"]');
  // VS Code opens it by itself (the editor area was empty before the install).
  await step('goToObject')
    .waitFor({ timeout: 60_000 })
    .catch(failed(`the walkthrough after installing ${path.basename(vsixPath())}`));
  await fresh.screenshot({ path: `${diag}/walkthrough-opened.png` });
  if ((await step('goToObject').getAttribute('aria-checked')) !== 'false') throw new Error('Go to Object was ticked before it was done');
  // The window was handed the test's sandbox (as `npm start` does): once connected, the extension
  // shows its Objects view, which takes the focus. Keys wait for that.
  await fresh
    .locator('.part.sidebar .monaco-list[aria-label="Objects"] .monaco-list-row')
    .first()
    .waitFor({ timeout: 30_000 })
    .catch(failed('the Objects view with the sandbox the window was handed'));
  // Room for the picture beside the steps (VS Code leaves it out of a narrow page): the side bar
  // hidden (Ctrl+B); the Go to Object step selected (it takes the focus), its picture shown.
  if (await fresh.locator('.part.sidebar').isVisible()) await fresh.keyboard.press('Control+B');
  await fresh.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: 5_000 }).catch(failed('the side bar hidden'));
  // A step clicked: selected, and focused by the walkthrough's timer (until then a key may go to a
  // quick input that this focus then closes).
  const selectStep = async (id: string) => {
    await mark(fresh, `select ${id}`);
    const calls = await fresh.evaluate<number>('window.__omsStepFocus.length');
    await fresh
      .locator('.getting-started-step', { has: step(id) })
      .first()
      .click();
    await until(`the ${id} step focused by the walkthrough`, () =>
      fresh.evaluate<boolean>(`window.__omsStepFocus.slice(${calls}).some((s) => s.endsWith('#${id}'))`),
    ).catch(failed(`the ${id} step selected`));
  };
  await selectStep('goToObject');
  const before = fs.readFileSync(settingsFile(fresh, 'fresh'), 'utf8');
  let themeFailed = false;
  try {
    const light = await pictureBackground(fresh);
    await fresh.screenshot({ path: `${diag}/walkthrough.png` });
    await mark(fresh, 'dark theme');
    await userSettings(fresh, JSON.stringify({ ...JSON.parse(before), 'workbench.colorTheme': 'Default Dark Modern' }, null, 2), 'fresh');
    await fresh.locator('.monaco-workbench.vs-dark').waitFor({ timeout: 10_000 });
    await until(
      'the picture in the dark theme',
      async () => {
        const fill = await pictureBackground(fresh);
        return fill !== light ? fill : undefined;
      },
      10_000,
    ).catch(failed(`the step's picture kept its background ${light} in the dark theme`));
    await fresh.screenshot({ path: `${diag}/walkthrough-dark.png` });
  } catch (e) {
    themeFailed = true;
    throw e;
  } finally {
    await mark(fresh, 'theme back');
    // Its own failure only when it is the first.
    await userSettings(fresh, before, 'fresh').catch((e: Error) => {
      if (!themeFailed) throw e;
    });
  }
  const ticked = async (done: string[]) => {
    for (const id of ['trySandbox', 'openScanner', 'editPriorities', 'goToObject', 'pullAsFiles']) {
      const want = done.includes(id) ? 'true' : 'false';
      await until(`the ${id} step ${done.includes(id) ? '' : 'not '}ticked`, async () => (await step(id).getAttribute('aria-checked')) === want, 10_000);
    }
  };
  // Go to Object: Ctrl+Alt+O and part of a name tick it, and no other step.
  await mark(fresh, 'Ctrl+Alt+O');
  await fresh.keyboard.press('Control+Alt+O');
  await focused(fresh, '.quick-input-widget input', 'the Go to Object box').catch(failed('Ctrl+Alt+O'));
  await fresh.keyboard.type('floor');
  await fresh
    .locator('.quick-input-list .monaco-list-row', { hasText: 'Floor' })
    .first()
    .waitFor({ timeout: 15_000 })
    .catch(failed('objects for "floor" after Ctrl+Alt+O'));
  await fresh.keyboard.press('Escape');
  await ticked(['goToObject']).catch(failed('after Ctrl+Alt+O'));
  await fresh.screenshot({ path: `${diag}/walkthrough-ticked.png` });
  // Open an input scanner (of the connection the window was handed): one found with Go to Object.
  const { floor1 } = await floors(env);
  const [scanner] = await get(env, `/api/f/${floor1.Key}/inputscanners`);
  await mark(fresh, 'Go to Object');
  await goToObject(fresh, scanner.CommonName).catch(failed(`Go to Object "${scanner.CommonName}"`));
  await fresh.locator('.tabs-container .tab', { hasText: 'Welcome' }).first().click();
  await ticked(['goToObject', 'openScanner']).catch(failed('after opening a scanner'));
  // Try the local sandbox: the step's own button.
  await selectStep('trySandbox');
  await fresh
    .getByRole('button', { name: /Try the Local Sandbox/ })
    .first()
    .click({ timeout: 10_000 })
    .catch(failed("the step's Try the Local Sandbox button"));
  await ticked(['goToObject', 'openScanner', 'trySandbox']).catch(failed('after Try the Local Sandbox'));
  // The step ticks as the command starts; it ends by showing the local sandbox in the Objects view
  // (which takes the focus).
  await fresh
    .locator('.part.sidebar .monaco-list[aria-label="Objects"] .monaco-list-row', { hasText: 'Local sandbox' })
    .first()
    .waitFor({ timeout: 30_000 })
    .catch(failed('the local sandbox in the Objects view'));
  await focused(fresh, '.part.sidebar .monaco-list[aria-label="Objects"]', 'the Objects view').catch(
    failed('the Objects view focused by Try the Local Sandbox'),
  );
  await fresh.screenshot({ path: `${diag}/walkthrough-ticked-3.png` });
  // Edit its priorities in the table: the scanner's tab again, the table from its title bar, one
  // priority typed, Ctrl+S; the server holds it.
  await mark(fresh, 'priorities table');
  await savePriorityInTable(fresh, env, `/api/f/${floor1.Key}/inputscanners/${scanner.Key}`).catch(failed('the priorities table'));
  await fresh.locator('.tabs-container .tab', { hasText: 'Welcome' }).first().click();
  await ticked(['goToObject', 'openScanner', 'trySandbox', 'editPriorities']).catch(failed('after saving in the priorities table'));
  // Pull a folder as files: Pull as Files… from the palette, its questions answered by keyboard.
  await mark(fresh, 'pull as files');
  await pullFolderAsFiles(fresh, env, scanner.CommonName).catch(failed('Pull as Files…'));
  await fresh.locator('.tabs-container .tab', { hasText: 'Welcome' }).first().click();
  const all = ['goToObject', 'openScanner', 'trySandbox', 'editPriorities', 'pullAsFiles'];
  await ticked(all).catch(failed('after Pull as Files…'));
  await fresh.screenshot({ path: `${diag}/walkthrough-all-steps.png` });

  // Once: every editor closed, the window reloaded (Developer: Reload Window, which stores the
  // window's state as it shuts down, as closing VS Code does).
  await mark(fresh, 'close all, reload');
  await closeAllEditors(fresh).catch(failed('Close All Editors'));
  const reloaded = fresh.waitForEvent('load', { timeout: 30_000 });
  await palette(fresh, 'Developer: Reload Window').catch(failed('Reload Window'));
  await reloaded.catch(failed('the window reloaded'));
  // VS Code decides whether to open a walkthrough as it registers the extensions' walkthroughs, before
  // it activates them: once the extension has activated and shown the sandbox the window was handed
  // (its Objects view), that decision is made.
  await fresh
    .locator('.part.sidebar .monaco-list[aria-label="Objects"] .monaco-list-row')
    .first()
    .waitFor({ timeout: 60_000 })
    .catch(failed('the Objects view after the reload'));
  await fresh.screenshot({ path: `${diag}/walkthrough-after-reload.png` });
  const tabs = (await fresh.locator('.tabs-container .tab').allInnerTexts()).map((t) => t.trim());
  if (await ours.first().isVisible()) throw new Error(`the walkthrough opened again after the reload (tabs: ${tabs.join(', ')}; walkthrough-after-reload.png)`);
  if (tabs.length) throw new Error(`editors came back after Close All Editors and the reload: ${tabs.join(', ')} (walkthrough-after-reload.png)`);
  // Still there when asked for, its progress kept: Help: Welcome, More… (the page's list leaves out a
  // walkthrough once its last step ticks: VS Code hides it then), ours picked.
  await palette(fresh, 'Help: Welcome').catch(failed('Help: Welcome'));
  await fresh
    .locator('.gettingStartedContainer .see-all-walkthroughs')
    .first()
    .click({ timeout: 15_000 })
    .catch(failed('More… in the Welcome page after the reload'));
  await fresh
    .locator('.quick-input-list .monaco-list-row', { hasText: 'Get Started with OMS' })
    .first()
    .click({ timeout: 10_000 })
    .catch(failed('the walkthrough among those More… lists after the reload'));
  await ticked(all).catch(failed('the walkthrough opened from the Welcome page after the reload'));
  await fresh.screenshot({ path: `${diag}/walkthrough-after-reload-opened.png` });
}

/**
 * The scanner's tab (opened before), the table from the editor's title bar, the third row's priority
 * typed (each key once the cell holds the focus), Ctrl+S: the table says it saved and the server
 * holds the priority, one version on; the scanner's editor shows that version.
 */
async function savePriorityInTable(page: Page, env: Env, at: string): Promise<void> {
  const scanner = await get(env, at);
  await page.locator('.tabs-container .tab', { hasText: scanner.CommonName }).first().click();
  await page.locator('.editor-group-container.active .monaco-editor.focused').first().waitFor({ timeout: 10_000 });
  await page.locator('.editor-group-container.active .editor-actions .action-label[aria-label*="Open Priorities Table"]').first().click({ timeout: 10_000 });
  const frame = await until(
    'the table',
    async () => {
      for (const f of page.frames())
        if (
          (await f
            .locator('#rows tr')
            .count()
            .catch(() => 0)) === 8
        )
          return f;
      return undefined;
    },
    15_000,
  );
  const was = scanner.InputScannerReportingPriorities[2].Priority;
  const wanted = (was + 4) % 10;
  const cell = frame.locator('#rows tr').nth(2).locator('input.priority');
  await until("the table showing the server's priority", async () => (await cell.inputValue()) === String(was), 10_000);
  await cell.click();
  const cellFocused = () => frame.evaluate<boolean>('!!document.activeElement?.matches("#rows tr:nth-child(3) input.priority")');
  await until("the focus in row 3's priority", cellFocused, 5_000);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(String(wanted));
  await until(
    `${wanted} in row 3's priority, marked changed`,
    async () => (await cell.inputValue()) === String(wanted) && !!(await cell.getAttribute('class'))?.split(/\s+/).includes('changed'),
    5_000,
  );
  if (!(await cellFocused())) throw new Error("row 3's priority lost the focus before Ctrl+S");
  await page.keyboard.press('Control+S');
  const saved = `Saved "${scanner.CommonName}" (version ${scanner.ConcurrencyVersion + 1})`;
  await frame
    .locator('#status', { hasText: saved })
    .waitFor({ timeout: 15_000 })
    .catch(async (e: Error) => {
      throw new Error(
        `the table says "${await frame
          .locator('#status')
          .innerText()
          .catch(() => '')}", not ${saved}: ${e.message.split('\n')[0]}`,
      );
    });
  const now = await get(env, at);
  if (now.InputScannerReportingPriorities[2].Priority !== wanted || now.ConcurrencyVersion !== scanner.ConcurrencyVersion + 1) {
    const held = now.InputScannerReportingPriorities[2].Priority;
    throw new Error(`the server holds priority ${held} at version ${now.ConcurrencyVersion}, not ${wanted} at ${scanner.ConcurrencyVersion + 1}`);
  }
  // The scanner's editor (no edits) follows the table's save: the new version in its status bar.
  await page
    .locator('.tabs-container .tab', { hasText: `${scanner.CommonName}.json` })
    .first()
    .click();
  await until(`the scanner's editor at v${now.ConcurrencyVersion}`, async () => (await statusVersion(page)).includes(`v${now.ConcurrencyVersion}`), 10_000);
}

/**
 * The focused quick input of the running command, by its prompt: `filter` typed, Enter once the
 * focused row holds `row` (the command may show its next question only after reading the service).
 */
async function answer(page: Page, prompt: string, row?: string, filter?: string): Promise<void> {
  const box = `.quick-input-widget input[placeholder=${JSON.stringify(prompt)}]`;
  await page.locator(box).waitFor({ timeout: 15_000 });
  // A box the command shows as the palette closes may lose the focus to what the palette gives it
  // back to (it stays open: ignoreFocusOut): clicked, as a person would, to type into it.
  await until(
    `the focus in the "${prompt}" box`,
    async () => {
      if (await hasFocus(page, box)) return true;
      await mark(page, `click the "${prompt}" box`);
      await page
        .locator(box)
        .click({ timeout: 2_000 })
        .catch(() => undefined);
      return hasFocus(page, box);
    },
    10_000,
  );
  if (filter) await page.locator(box).fill(filter, { timeout: 5_000 });
  if (row) {
    await until(
      `"${row}" focused in the "${prompt}" box`,
      async () =>
        (
          await page
            .locator('.quick-input-list .monaco-list-row.focused')
            .first()
            .innerText()
            .catch(() => '')
        ).includes(row),
      5_000,
    );
  }
  if (!(await hasFocus(page, box))) throw new Error(`the "${prompt}" box lost the focus before Enter`);
  await page.keyboard.press('Enter');
}

/**
 * Pull as Files… from the palette: the local sandbox, Head Office, Floor 1, every kind, this folder
 * only, into the workspace's suggested folder. The pull's message counts what it wrote, and the
 * files are on disk: one per object of the manifest, each a Floor 1 object.
 */
async function pullFolderAsFiles(page: Page, env: Env, scannerName: string): Promise<void> {
  // From the scanner's editor (the walkthrough focuses its step again as its tab is shown).
  await page.locator('.tabs-container .tab', { hasText: scannerName }).first().click();
  await page.locator('.editor-group-container.active .monaco-editor.focused').first().waitFor({ timeout: 10_000 });
  await palette(page, 'OMS: Pull as Files');
  await answer(page, 'Connection', 'Local sandbox', 'Local sandbox');
  await answer(page, 'Folder (in root folder)', 'Head Office', 'Head Office');
  await answer(page, 'Folder (in Head Office)', 'Floor 1', 'Floor 1');
  await answer(page, 'Kinds of objects to pull');
  await answer(page, 'Which folders?', 'This folder only');
  const into = 'oms/local-sandbox';
  await answer(page, 'Pull into which folder? (files meant for git)', into);
  const pulled = /Pulled (\d+) objects into oms\/local-sandbox: (\d+) files written/;
  await palette(page, 'Notifications: Show Notifications');
  const message = page.locator('.notifications-center .notification-list-item-message', { hasText: pulled }).first();
  await message.waitFor({ timeout: 30_000 }).catch((e: Error) => {
    throw new Error(`no "Pulled … objects into ${into}" message: ${e.message.split('\n')[0]}`);
  });
  const [, objects, written] = pulled.exec(await message.innerText())!;
  await palette(page, 'Notifications: Hide Notifications');
  const root = path.join(env.OMS_WORKSPACE, into);
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'oms.manifest.json'), 'utf8')) as { objects: Record<string, { path: string }> };
  const files = Object.values(manifest.objects).map((o) => path.join(root, o.path));
  if (!files.length || files.length !== Number(objects) || files.length !== Number(written)) {
    throw new Error(`the pull says ${objects} objects, ${written} files written; its manifest lists ${files.length}`);
  }
  for (const f of files) {
    const name = fs.existsSync(f) ? (JSON.parse(fs.readFileSync(f, 'utf8')) as { CommonName?: string }).CommonName : undefined;
    if (!name?.startsWith('Floor 1 ')) throw new Error(`${path.relative(root, f)}: ${name === undefined ? 'not on disk' : `"${name}", not a Floor 1 object`}`);
  }
}

/** View: Close All Editors, then the tab strip empty. */
async function closeAllEditors(page: Page): Promise<void> {
  await palette(page, 'View: Close All Editors');
  await until('no editor open', async () => !(await page.locator('.tabs-container .tab').count()), 10_000);
}

export const workbenchChecks: UiCheckList = (page, env, diag) =>
  pseudoLocale
    ? [
        [
          "ui (workbench, pseudo-localized): no English in the tree, an object's menu, the Add Note box, " +
            'its notification, the Delete Note question, a schema problem in the Problems view and its save refusal',
          () => pseudoLocalized(page, env, diag),
        ],
      ]
    : [
        ['ui (workbench): the priorities table is a grid whose edits are announced to screen readers', () => editAnnounced(page, env)],
        [
          'ui (workbench): axe-core finds no serious or critical issue in the priorities table, ' +
            'in the default and both high-contrast themes (screenshots hc-dark.png, hc-light.png)',
          () => tableForEveryone(page, env, diag),
        ],
        [
          'ui (workbench): on a fresh profile, installing the .vsix opens the Get Started walkthrough; its pictures follow the theme; ' +
            'all five steps tick by doing them (Go to Object, opening a scanner, Try the Local Sandbox, a priority saved in the table, Pull as Files…), ' +
            'each its own and no other; closed and the window reloaded, it does not open again, its five ticks kept',
          () => walkthroughOnInstall(page, env, diag),
        ],
      ];

/** The unpacked extension under test: the runner keeps it beside the workspace (`<tmp>/vsix/extension`). */
function extensionDir(page: Page): string {
  return path.join(path.dirname(new URL(page.url()).searchParams.get('folder')!), 'vsix', 'extension');
}

/**
 * With OMS_IT_LOCALE=qps-ploc (l10n-dev's pseudo bundles, VS Code started with --locale and a pseudo
 * language pack: see l10n.ts): the tree, an object's menu, the Add Note box, its notification and the
 * Delete Note question hold no English word of ours. Words of the service's data (folder and object
 * names, the connection's name, the notes' author) are not the extension's, nor are VS Code's own
 * (the input box's hint, the Cancel button).
 */
async function pseudoLocalized(page: Page, env: Env, diag: string): Promise<void> {
  const nls = JSON.parse(fs.readFileSync(path.join(extensionDir(page), 'package.nls.qps-ploc.json'), 'utf8')) as Record<string, string>;
  const root = await get(env, '/api');
  const { floor1, floor2 } = await floors(env);
  const head = (await get(env, `/api/f/${root.Key}/folders`)) as any[];
  const [scanner] = await get(env, `/api/f/${floor1.Key}/inputscanners`);
  // The notes' author is the sandbox's user (`<instance>\\admin`).
  const data = [root, floor1, floor2, ...head, scanner, { CommonName: 'Sandbox' }, { CommonName: 'admin' }].map((o) => o.CommonName as string).join(' ');
  const ours = new Set(data.match(/[A-Za-z]{3,}/g));
  const english: string[] = [];
  const check = (where: string, text: string) => {
    const words = (text.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => !ours.has(w));
    if (words.length) english.push(`${where}: "${text.replace(/\s+/g, ' ').trim()}" (${words.join(', ')})`);
  };

  await page
    .locator('.monaco-workbench')
    .click({ position: { x: 1100, y: 5 }, timeout: 3_000 })
    .catch(() => undefined);
  const rows = page.locator('.part.sidebar .monaco-list-row');
  const row = (level: number, name: string) => page.locator(`.part.sidebar .monaco-list-row[aria-level="${level}"]`, { hasText: name }).first();
  const expand = async (r: ReturnType<typeof row>, what: string) => {
    await r.waitFor({ timeout: 10_000 }).catch((e: Error) => {
      throw new Error(`${what} not in the tree: ${e.message.split('\n')[0]}`);
    });
    // The twistie (a click on an object's label opens it instead); else the keyboard on the focused row.
    // The mouse leaves the tree first: the hover of the row it rests on (longer in the pseudo language)
    // covers the rows below it.
    await page.mouse.move(720, 880);
    await page.waitForTimeout(300);
    if ((await r.getAttribute('aria-expanded')) === 'false') {
      await r
        .locator('.monaco-tl-twistie')
        .first()
        .click({ timeout: 5_000 })
        .catch(async () => {
          await r.click({ button: 'right', timeout: 10_000 });
          await page.keyboard.press('Escape');
          await page.keyboard.press('ArrowRight');
        });
    }
    await until(`${what} expanded`, async () => (await r.getAttribute('aria-expanded')) === 'true');
  };
  const headOffice = head.find((f) => f.CommonName === 'Head Office');
  await expand(row(3, headOffice.CommonName), headOffice.CommonName);
  await expand(row(4, floor1.CommonName), floor1.CommonName);
  await until('the tree loaded', async () => (await rows.count()) > 8);
  for (const text of await rows.allInnerTexts()) check('tree', text);
  check('view title', await page.locator('.part.sidebar .composite.title').first().innerText());

  // The scanner's menu, then Add Note from it: the box, the note, the notification.
  // Floor 1's input scanners: its group with the scanners' icon.
  await expand(page.locator('.part.sidebar .monaco-list-row[aria-level="5"]:has(.codicon-pulse)').first(), `${floor1.CommonName}'s input scanners`);
  const object = row(6, scanner.CommonName);
  await object.waitFor({ timeout: 10_000 });
  await page.mouse.move(720, 880);
  await object.click({ button: 'right', timeout: 10_000 });
  const items = page.locator('.context-view .action-menu-item');
  await items.first().waitFor({ timeout: 10_000 });
  for (const text of await items.allInnerTexts()) check('object menu', text);
  await menuItem(page, nls['command.addNote.title']).catch((e: Error) => {
    throw new Error(`Add Note in the scanner's menu: ${e.message.split('\n')[0]}`);
  });
  const box = page.locator('.quick-input-widget');
  await input(page).waitFor({ timeout: 10_000 });
  // VS Code's own hint, appended to our prompt, is VS Code's words (left English: l10n.ts).
  const vscodeHint = "(Press 'Enter' to confirm or 'Escape' to cancel)";
  check(
    'Add Note box',
    await box
      .locator('.quick-input-title, .quick-input-message')
      .allInnerTexts()
      .then((t) => t.join(' ').replace(vscodeHint, '')),
  );
  const note = `ŋøŧḗ ${Date.now()}`;
  await input(page).fill(note);
  await page.keyboard.press('Enter');
  const added = page.locator('.notifications-toasts .notification-list-item, .notifications-center .notification-list-item').first();
  await added.waitFor({ timeout: 10_000 }).catch(async () => palette(page, 'Notifications: Show Notifications'));
  await added.waitFor({ timeout: 10_000 });
  check('notification', await added.locator('.notification-list-item-message').innerText());
  await page.screenshot({ path: `${diag}/pseudo-localized.png` });
  await page.keyboard.press('Escape');

  // The note in the tree, Delete Note from its menu: the question.
  await expand(object, scanner.CommonName);
  const noteRow = row(7, note.split(' ')[0]);
  await noteRow.waitFor({ timeout: 10_000 });
  await page.mouse.move(720, 880);
  await fromMenu(page, noteRow, nls['command.deleteNote.title']);
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ timeout: 10_000 });
  // Its Cancel button is VS Code's.
  check(
    'Delete Note question',
    (await dialog.locator('.dialog-message-text, .dialog-message-detail, .monaco-button').allInnerTexts()).filter((t) => t !== 'Cancel').join(' | '),
  );
  await page.screenshot({ path: `${diag}/pseudo-localized-dialog.png` });
  await dialog
    .locator('.monaco-button', { hasText: nls['command.deleteNote.title'].split(' ')[0] })
    .first()
    .click({ timeout: 10_000 })
    .catch((e: Error) => {
      throw new Error(`the Delete button of the question: ${e.message.split('\n')[0]}`);
    });
  await until('the note gone', async () => !(await noteRow.isVisible()));

  // A schema problem: a StatusCode typed out of its range (0 becomes 90). Our diagnostics in the
  // Problems view (source "oms"; the JSON language's own rows are VS Code's words) and the refusal of
  // Ctrl+S. The field names and values in them are the service's, not words of ours.
  for (const w of ['InputScannerReportingPriorities', 'StatusCode']) ours.add(w);
  await object.click({ timeout: 10_000 });
  await activeTab(page).filter({ hasText: scanner.CommonName }).waitFor({ timeout: 10_000 });
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
  await cursorAfter(page, '"StatusCode": ');
  await typeEdit(page, '9');
  await page.keyboard.press('Control+Shift+M');
  const problems = page.locator('.markers-panel .monaco-list-row').filter({ has: page.locator('.marker-source', { hasText: /^\W*oms\W*$/ }) });
  await problems
    .first()
    .waitFor({ timeout: 15_000 })
    .catch((e: Error) => {
      throw new Error(`no problem of ours in the Problems view: ${e.message.split('\n')[0]}`);
    });
  for (const text of await problems.locator('.marker-message').allInnerTexts()) check('Problems view', text);
  await page.screenshot({ path: `${diag}/pseudo-localized-problems.png` });
  await palette(page, 'Notifications: Clear All Notifications');
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+S');
  const refused = page.locator('.notifications-toasts .notification-list-item, .notifications-center .notification-list-item').first();
  await refused.waitFor({ timeout: 10_000 }).catch(async () => palette(page, 'Notifications: Show Notifications'));
  await refused.waitFor({ timeout: 10_000 });
  check('save refusal', await refused.locator('.notification-list-item-message').innerText());
  check("save refusal's button", (await refused.locator('.notification-list-item-buttons-container .monaco-button').allInnerTexts()).join(' | '));
  await page.screenshot({ path: `${diag}/pseudo-localized-refusal.png` });
  await page.keyboard.press('Escape');
  await revertActive(page);
  await page.keyboard.press('Control+W');
  if (english.length) throw new Error(`not localized: ${english.join('; ')}`);
}
