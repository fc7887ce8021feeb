// Live updates where a person sees them: the live interval set to 2 s in the user settings, the window
// focused; a group expanded while an object is renamed, created and deleted over REST; a scanner open
// while its priority changes over REST, clean and then with an edit typed (one quiet notice, Merge,
// Ctrl+S); a priorities table and a planned entry following a change; the window unfocused, then the
// view hidden, while the sandbox's request log is read.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { objectsView, planChangesOf, planPane, planRow } from './plan';
import { openTable, saveThenTypeAnother, settingsFile, userSettings } from './workbench';
import {
  get,
  send,
  until,
  floors,
  goToObject,
  cursorAfter,
  typeEdit,
  activeTabDirty,
  activeTabText,
  editorText,
  statusVersion,
  notification,
  palette,
  loggedLines,
  type Env,
  type UiCheckList,
} from './helpers';

const intervalSeconds = 2;
/** One interval, a poll, and the workbench drawing it. */
const withinOneInterval = intervalSeconds * 1000 + 4_000;
const rows = (page: Page) => page.locator('.part.sidebar .monaco-list-row');
const row = (page: Page, level: number, text: string | RegExp) =>
  rows(page)
    .and(page.locator(`[aria-level="${level}"]`))
    .filter({ hasText: text })
    .first();
const expanded = async (page: Page, level: number, text: string | RegExp) => (await row(page, level, text).getAttribute('aria-expanded')) === 'true';

/** The interval set in the user settings (Preferences: Open User Settings (JSON)), the other settings kept. */
export async function setInterval(page: Page, value: number): Promise<void> {
  const current = JSON.parse(fs.readFileSync(settingsFile(page), 'utf8')) as Record<string, unknown>;
  if (current['oms.live.interval'] === value) return;
  await userSettings(page, JSON.stringify({ ...current, 'oms.live.interval': value }));
}

/** One DevTools session per page, kept: the focus emulation lasts as long as the session that set it. */
const sessions = new WeakMap<Page, Promise<CDPSession>>();

/**
 * The window focused or not, as a person's window is. The workbench asks document.hasFocus() when its
 * focus tracker fires: here it answers as told (a headless page's own answer changes with the DevTools
 * sessions attached), with Chromium's focus emulation on so that focus events reach the page's elements.
 * The tracker fires only on a change of its own state, which any element's focus sets: so first the
 * opposite event, then the wanted one (its blur waits a tick).
 */
export async function focusWindow(page: Page, on: boolean): Promise<void> {
  if (!sessions.has(page)) {
    sessions.set(
      page,
      page
        .context()
        .newCDPSession(page)
        .then(async (cdp) => {
          await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: true });
          return cdp;
        }),
    );
  }
  await sessions.get(page);
  const answer = async (focused: boolean) => {
    await page.evaluate(`document.hasFocus = () => ${focused}; window.dispatchEvent(new Event(${JSON.stringify(focused ? 'focus' : 'blur')}))`);
    await page.waitForTimeout(200);
  };
  await answer(!on);
  await answer(on);
}

/** Floor 1 and its Input scanners expanded from the instance's row, by clicks. */
async function floor1Scanners(page: Page): Promise<void> {
  for (const [label, level] of [
    ['Head Office', 3],
    ['Floor 1', 4],
    [/^\s*Input scanners/, 5],
  ] as const) {
    await row(page, level, label).waitFor({ timeout: 15_000 });
    await until(`${String(label)} expanded`, async () => {
      if (await expanded(page, level, label)) return true;
      await row(page, level, label).click();
      await page.waitForTimeout(400);
      return expanded(page, level, label);
    });
  }
}

/** The sandbox's request log lines (the run starts it with --verbose) written after `since`. */
function requestsSince(diag: string, since: Date): string[] {
  const lines = fs.readFileSync(`${diag}/sandbox.log`, 'utf8').split('\n');
  return lines.filter((l) => /^\d{4}-\d\d-\d\dT/.test(l) && new Date(l.slice(0, 24)) > since);
}

async function treeFollows(page: Page, env: Env): Promise<void> {
  await setInterval(page, intervalSeconds);
  await focusWindow(page, true);
  try {
    const { floor1 } = await floors(env);
    const at = `/api/f/${floor1.Key}/inputscanners`;
    await floor1Scanners(page);
    const [renamed, deleted] = await get(env, at);
    await row(page, 6, deleted.CommonName).waitFor({ timeout: 10_000 });
    const newName = `${renamed.CommonName} (renamed live)`;
    await send(env, 'PUT', renamed.Href, { ...renamed, CommonName: newName });
    await send(env, 'DELETE', deleted.Href);
    const { Key: _k, Href: _h, ConcurrencyVersion: _v, Notes: _n, Links: _l, InFolderKey: _f, InFolderHref: _fh, ...body } = renamed;
    await send(env, 'POST', at, { ...body, CommonName: 'Live scanner' });
    const started = Date.now();
    await until(
      'the rename, the new scanner and the deletion in the tree',
      async () =>
        (await row(page, 6, newName).isVisible()) && (await row(page, 6, 'Live scanner').isVisible()) && !(await row(page, 6, deleted.CommonName).isVisible()),
      withinOneInterval,
    );
    const took = Date.now() - started;
    if (!(await expanded(page, 4, 'Floor 1')) || !(await expanded(page, 5, /^\s*Input scanners/))) throw new Error('the group or its folder collapsed');
    await page.screenshot({ path: `${env.OMS_UI_DIAG}/ui-live-tree.png` });
    console.log(`live: the tree showed a rename, a creation and a deletion ${took} ms after them (interval ${intervalSeconds} s)`);
  } finally {
    await focusWindow(page, false);
  }
}

/** A priority (1 to 8) none of the scanner's reporting priorities has: its text in the editor is new. */
const unusedPriority = (scanner: any, ...not: number[]): number =>
  [8, 7, 6, 5, 4, 3, 2, 1].find((v) => !not.includes(v) && !scanner.InputScannerReportingPriorities.some((p: any) => p.Priority === v))!;
const withFirstPriority = (scanner: any, priority: number) => ({
  ...scanner,
  InputScannerReportingPriorities: scanner.InputScannerReportingPriorities.map((p: any, i: number) => (i === 0 ? { ...p, Priority: priority } : p)),
});
/** What a file decoration adds after a tree row's label (its badge), as the workbench draws it. */
const badgeOf = (page: Page, name: string) =>
  row(page, 6, name)
    .locator('.monaco-icon-label')
    .first()
    .evaluate((el) => String((globalThis as any).getComputedStyle(el, '::after').content))
    .catch(() => '');

async function editorFollows(page: Page, env: Env): Promise<void> {
  await setInterval(page, intervalSeconds);
  await focusWindow(page, true);
  try {
    const { floor1 } = await floors(env);
    // The notice is then the centre's only row (with earlier ones, it may sit in a part of the list not drawn).
    await palette(page, 'Notifications: Clear All Notifications');
    await floor1Scanners(page);
    const scanners = await get(env, `/api/f/${floor1.Key}/inputscanners`);
    const scanner = scanners[scanners.length - 1];
    await row(page, 6, scanner.CommonName).click();
    await until(`tab "${scanner.CommonName}"`, async () => (await activeTabText(page)).includes(scanner.CommonName));
    await page.locator('.editor-group-container.active .monaco-editor.focused').first().waitFor({ timeout: 10_000 });

    // Clean: the editor shows the server's new priority and version, no dialog, the focus where it was.
    const priority = unusedPriority(scanner);
    await send(env, 'PUT', scanner.Href, withFirstPriority(scanner, priority));
    const version = scanner.ConcurrencyVersion + 1;
    await until(
      `v${version} and "Priority": ${priority} in the clean editor`,
      async () => (await statusVersion(page)).includes(`v${version}`) && (await editorText(page)).includes(`"Priority": ${priority}`),
      withinOneInterval,
    );
    if (await page.locator('.monaco-dialog-box').count()) throw new Error('a dialog opened');
    if (await activeTabDirty(page)) throw new Error('the editor is marked unsaved after following the server');
    if (!(await page.locator('.editor-group-container.active .monaco-editor.focused').count())) throw new Error('the editor lost the focus');
    // The decoration comes a round trip after the text (the workbench asks for it once told it changed).
    await until("the ↓ badge on the scanner's row", async () => (await badgeOf(page, scanner.CommonName)).includes('↓'), 5_000);
    await page.screenshot({ path: `${env.OMS_UI_DIAG}/ui-live-clean.png` });

    // With an edit typed in another field: one quiet notice; Merge keeps both; Ctrl+S saves with no conflict.
    // A priority whose name no other has: the find lands on it (Enter in the find widget goes on to a second match).
    const names: string[] = scanner.InputScannerReportingPriorities.map((p: any) => p.CommonName);
    const at = names.findIndex((n, i) => i > 0 && names.indexOf(n) === names.lastIndexOf(n));
    if (at < 0) throw new Error(`no priority after the first has a name of its own: ${names.join(' | ')}`);
    const second = names[at];
    await cursorAfter(page, `"CommonName": "${second}`);
    await typeEdit(page, ' typed live');
    const server = await get(env, scanner.Href);
    const next = unusedPriority(server, priority);
    await send(env, 'PUT', scanner.Href, withFirstPriority(server, next));
    await until(
      'the notice',
      async () => {
        const item = await notification(page, /changed on the server/).catch(() => undefined);
        await page.keyboard.press('Escape');
        return item;
      },
      withinOneInterval + 10_000,
    );
    await page.waitForTimeout(intervalSeconds * 2_000); // two more polls: still one notice
    const item = await notification(page, /changed on the server/);
    await page.screenshot({ path: `${env.OMS_UI_DIAG}/ui-live-notice.png` });
    // Counted in the extension's log, where each notice is written as it is shown: the workbench folds a repeated
    // message into one, and the centre, opened again and again, may draw a row twice.
    const notice = `"${scanner.CommonName}" changed on the server since version ${server.ConcurrencyVersion},`;
    await until("the notice in the extension's log", () => Promise.resolve(loggedLines(env, notice) > 0), 5_000);
    const count = loggedLines(env, notice);
    if (count !== 1) throw new Error(`${count} notices in the extension's log`);
    if (await page.locator('.monaco-dialog-box').count()) throw new Error('a dialog opened');
    await item.click();
    await item.locator('.monaco-button', { hasText: 'Merge' }).first().click();
    // The editor draws only the lines it shows: the edit where the cursor is, then the first priority at the top.
    await until('the edit kept in the editor', async () => (await editorText(page)).includes(`${second} typed live`));
    await until(`v${server.ConcurrencyVersion + 1} in the status bar after the merge`, async () =>
      (await statusVersion(page)).includes(`v${server.ConcurrencyVersion + 1}`),
    );
    await page.keyboard.press('Control+Home');
    await until(`the server's "Priority": ${next} merged in`, async () => (await editorText(page)).includes(`"Priority": ${next}`));
    if (!(await activeTabDirty(page))) throw new Error('the merge left the editor marked saved');
    await page.screenshot({ path: `${env.OMS_UI_DIAG}/ui-live-merged.png` });
    await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+s');
    await until('the tab saved', async () => !(await activeTabDirty(page)));
    const saved = await get(env, scanner.Href);
    const [first] = saved.InputScannerReportingPriorities;
    const edited = saved.InputScannerReportingPriorities[at];
    if (edited.CommonName !== `${second} typed live` || first.Priority !== next || saved.ConcurrencyVersion !== server.ConcurrencyVersion + 2) {
      throw new Error(`the server holds ${JSON.stringify({ name: edited.CommonName, priority: first.Priority, v: saved.ConcurrencyVersion })}`);
    }
    if (await page.locator('.monaco-dialog-box').count()) throw new Error('a conflict question after the merge');
  } finally {
    await focusWindow(page, false);
  }
}

/** A file under `dir` whose name ends with `.<key>.json` (pulled files are named `<name>.<key>.json`). */
function fileOfKey(dir: string, key: string): string {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const at = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== '.oms') {
      const found = fileOfKey(at, key);
      if (found) return found;
    } else if (e.name.endsWith(`.${key}.json`)) {
      return at;
    }
  }
  return '';
}

/**
 * A scanner open in its priorities table and planned (edited in a pulled folder) while it changes over REST:
 * the table shows the server's priority and the Object Changes view moves the entry to Stale, within one interval.
 */
async function tableAndPlanFollow(page: Page, env: Env): Promise<void> {
  await setInterval(page, intervalSeconds);
  await focusWindow(page, true);
  try {
    const { floor2 } = await floors(env);
    // Pulled by the command line, which writes what Pull as Files… writes (the token in its environment only).
    const root = path.join(env.OMS_WORKSPACE, 'oms', 'live');
    fs.rmSync(root, { recursive: true, force: true });
    execFileSync(
      process.execPath,
      [
        path.resolve(__dirname, '..', '..', '..', 'dist', 'oms.cjs'),
        'pull',
        root,
        '--url',
        env.OMS_SANDBOX_URL,
        '--folder',
        floor2.Key,
        '--kinds',
        'inputscanners',
      ],
      { env: { ...process.env, OMS_TOKEN: env.OMS_SANDBOX_TOKEN } },
    );
    const { frame, scanner } = await openTable(page, env);
    const file = fileOfKey(root, scanner.Key);
    if (!file) throw new Error(`no pulled file of ${scanner.CommonName}`);
    const edited = JSON.parse(fs.readFileSync(file, 'utf8'));
    edited.NonSettlingErrorPriority = (scanner.NonSettlingErrorPriority % 9) + 1;
    fs.writeFileSync(file, JSON.stringify(edited, null, 2) + '\n');
    await planChangesOf(page, 'oms/live');
    await planRow(page, 'Update (1)').waitFor({ timeout: 20_000 });
    await objectsView(page, true);

    const priority = unusedPriority(scanner);
    await send(env, 'PUT', scanner.Href, withFirstPriority(scanner, priority));
    const cell = frame.locator('#rows tr').first().locator('input.priority');
    await until(`the table's first priority ${priority}`, async () => (await cell.inputValue()) === String(priority), withinOneInterval);
    await until('the entry moved to Stale', async () => planRow(page, /^\s*Stale/).isVisible(), withinOneInterval + 5_000).catch(async () => {
      throw new Error(`the view says: ${(await planPane(page).innerText()).replace(/\s+/g, ' ')}`);
    });
    await page.screenshot({ path: `${env.OMS_UI_DIAG}/ui-live-table-plan.png` });
  } finally {
    await palette(page, 'View: Close All Editors');
    await focusWindow(page, false);
  }
}

/**
 * Saves the service answers late (handled at once, answered 7 s later) while polls read the object: each poll
 * finds the saved version before the save's answer. The table keeps the priority typed meanwhile and says nothing
 * of a change on the server; an editor saving the same way gets no notice either: the change is the user's own.
 */
async function ownSlowSaves(page: Page, env: Env): Promise<void> {
  const late = 3 * intervalSeconds * 1000 + 1_000;
  const { frame, scanner } = await openTable(page, env);
  await setInterval(page, intervalSeconds);
  await focusWindow(page, true);
  try {
    const cell = (i: number) => frame.locator('#rows tr').nth(i).locator('input.priority');
    const [, , third, fourth] = scanner.InputScannerReportingPriorities.map((p: any) => p.Priority as number);
    const saved = (third + 1) % 10,
      typed = (fourth + 1) % 10;
    // Every status the table shows, kept: a message may be replaced by the save's before it is looked at.
    await frame.evaluate(`window.statuses = []; new MutationObserver(() => window.statuses.push(document.getElementById('status').textContent))
      .observe(document.getElementById('status'), { childList: true, characterData: true, subtree: true })`);
    await send(env, 'POST', '/sandbox/faults', { path: scanner.Href, method: 'PUT', delayMs: late, count: 1 });
    const sent = new Date();
    await saveThenTypeAnother(page, frame, saved, typed);
    await frame.locator('#status', { hasText: /^Saved/ }).waitFor({ timeout: late + 10_000 });
    const reads = requestsSince(env.OMS_UI_DIAG, sent).filter((l) => l.includes(`GET ${scanner.Href}`));
    if (!reads.length) throw new Error("no poll read the scanner while the save's answer was on its way");
    const values = [await cell(2).inputValue(), await cell(3).inputValue()];
    if (values[0] !== String(saved) || values[1] !== String(typed))
      throw new Error(`after the save the table shows ${values.join(', ')}, not ${saved}, ${typed}`);
    if (await frame.locator('#save').isDisabled()) throw new Error('the priority typed during the save is not marked unsaved');
    const said = await frame.evaluate<string[]>('window.statuses');
    if (said.some((t) => /changed on the server/.test(t))) throw new Error(`the table said: ${said.join(' | ')}`);
    await frame.locator('#revert').click();
    await palette(page, 'View: Close All Editors');

    // An editor's save, answered as late: a tag added to none (earlier checks may have left some).
    await send(env, 'PUT', scanner.Href, { ...(await get(env, scanner.Href)), Tags: [] });
    const server = await get(env, scanner.Href);
    await goToObject(page, scanner.CommonName);
    await page.locator('.editor-group-container.active .monaco-editor.focused').first().waitFor({ timeout: 10_000 });
    // Not its name: a save that renames reopens the editor under the new name, which takes the focus.
    await cursorAfter(page, '"Tags": [');
    await typeEdit(page, '"saved-late"');
    await send(env, 'POST', '/sandbox/faults', { path: scanner.Href, method: 'PUT', delayMs: late, count: 1 });
    const saving = new Date();
    await page.keyboard.press('Control+s');
    await until('the tab saved', async () => !(await activeTabDirty(page)), late + 10_000);
    if (!requestsSince(env.OMS_UI_DIAG, saving).some((l) => l.includes(`GET ${scanner.Href}`)))
      throw new Error("no poll read the scanner during the editor's save");
    const notice = `"${server.CommonName}" changed on the server since version ${server.ConcurrencyVersion},`;
    const told = loggedLines(env, notice);
    if (told) throw new Error(`${told} notices of the editor's own save: ${notice}`);
    if ((await activeTabText(page)).includes('↓')) throw new Error(`the tab says the server is ahead: ${await activeTabText(page)}`);
  } finally {
    await send(env, 'DELETE', '/sandbox/faults');
    await palette(page, 'View: Close All Editors');
    await focusWindow(page, false);
  }
  // Its tags back for the checks after this one, with no editor open to follow them.
  await send(env, 'PUT', scanner.Href, { ...(await get(env, scanner.Href)), Tags: scanner.Tags });
}

async function hiddenReadsNothing(page: Page, env: Env): Promise<void> {
  await setInterval(page, intervalSeconds);
  await focusWindow(page, true);
  try {
    await floor1Scanners(page);
    const listReads = (since: Date) =>
      requestsSince(env.OMS_UI_DIAG, since).filter((l) => /GET \/api\/f\/[^ ]+\/inputscanners /.test(l) || /GET \S+\?page=/.test(l));
    /** No list read for three intervals, counted from a second on. */
    const readsNone = async (state: string) => {
      await page.waitForTimeout(1_000);
      const since = new Date();
      await page.waitForTimeout(3 * intervalSeconds * 1000);
      const read = listReads(since);
      if (read.length) throw new Error(`read while ${state}: ${read.join(' | ')}`);
    };
    const visible = new Date();
    await until('a list read while the view shows', () => Promise.resolve(listReads(visible).length > 0), withinOneInterval);
    await focusWindow(page, false);
    await readsNone('the window was unfocused');
    await focusWindow(page, true);
    const focused = new Date();
    await until('a list read once the window is focused again', () => Promise.resolve(listReads(focused).length > 0), withinOneInterval);
    await page.keyboard.press('Control+Shift+E'); // the Explorer in front: the Objects view hidden
    try {
      await readsNone('the view was hidden');
    } finally {
      await page.locator('.part.activitybar .action-item a[aria-label^="OMS"], .part.activitybar .action-item[aria-label^="OMS"]').first().click();
    }
  } finally {
    await setInterval(page, 30);
    await focusWindow(page, false);
  }
}

/** Pulled by the command line into oms/<name> (what Pull as Files… writes; the token in its environment only), one file edited: planned. */
async function plannedFloor2(page: Page, env: Env, name: string): Promise<{ scanners: any[]; edited: any }> {
  const { floor2 } = await floors(env);
  const root = path.join(env.OMS_WORKSPACE, 'oms', name);
  fs.rmSync(root, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [
      path.resolve(__dirname, '..', '..', '..', 'dist', 'oms.cjs'),
      'pull',
      root,
      '--url',
      env.OMS_SANDBOX_URL,
      '--folder',
      floor2.Key,
      '--kinds',
      'inputscanners',
    ],
    { env: { ...process.env, OMS_TOKEN: env.OMS_SANDBOX_TOKEN } },
  );
  const scanners = await get(env, `/api/f/${floor2.Key}/inputscanners`);
  const [edited] = scanners;
  const file = fileOfKey(root, edited.Key);
  const text = JSON.parse(fs.readFileSync(file, 'utf8'));
  text.NonSettlingErrorPriority = (edited.NonSettlingErrorPriority % 9) + 1;
  fs.writeFileSync(file, JSON.stringify(text, null, 2) + '\n');
  await planChangesOf(page, `oms/${name}`);
  await planRow(page, 'Update (1)').waitFor({ timeout: 20_000 });
  return { scanners, edited };
}

/**
 * Object Changes shown with the Objects view collapsed (to make room), no editor open: an unchanged planned
 * scanner renamed over REST moves to Behind within one interval, the edited entry still ticked; with live
 * updates off, the view's title says it does not follow the server.
 */
async function planFollowsAlone(page: Page, env: Env): Promise<void> {
  await setInterval(page, intervalSeconds);
  await focusWindow(page, true);
  try {
    await palette(page, 'View: Close All Editors');
    const { scanners } = await plannedFloor2(page, env, 'live-plan');
    await objectsView(page, false);
    const unchanged = scanners[scanners.length - 1];
    await send(env, 'PUT', unchanged.Href, { ...unchanged, CommonName: `${unchanged.CommonName} (renamed on the server)` });
    const started = Date.now();
    await until('the renamed scanner under Behind', async () => planRow(page, /^\s*Behind/).isVisible(), withinOneInterval + 5_000).catch(async () => {
      throw new Error(`the view says: ${(await planPane(page).innerText()).replace(/\s+/g, ' ')}`);
    });
    await planRow(page, `${unchanged.CommonName} (renamed on the server)`).waitFor({ timeout: 5_000 });
    const took = Date.now() - started;
    // The view's message comes apart from its rows: looked for until it shows the new counts.
    const said = async () => (await planPane(page).innerText()).replace(/\s+/g, ' ');
    await until('the summary counting it behind, the edit still ticked', async () => /1 ticked to send · 0 stale · 1 behind/.test(await said())).catch(
      async () => {
        throw new Error(`the view says: ${await said()}`);
      },
    );
    await page.screenshot({ path: `${env.OMS_UI_DIAG}/ui-live-plan-behind.png` });
    console.log(`live: Object Changes moved a renamed unchanged scanner to Behind ${took} ms after the rename, the Objects view collapsed`);

    await setInterval(page, 0);
    const header = planPane(page).locator('.pane-header');
    await until('the view saying it does not follow the server', async () => /not following the server: live updates are off/.test(await header.innerText()));
    await page.screenshot({ path: `${env.OMS_UI_DIAG}/ui-live-plan-not-following.png` });
    await setInterval(page, intervalSeconds);
    await until('the view following again', async () => !/not following the server/.test(await header.innerText()));
  } finally {
    await objectsView(page, true);
    await focusWindow(page, false);
  }
}

/**
 * A scanner open in an editor, renamed over REST: the tab takes the new name within one interval, clean,
 * the caret in it. Then, with an edit typed, two changes on the server: one notice, which says what stays
 * true (the version the edits are based on), and none more after the second change.
 */
async function editorFollowsRename(page: Page, env: Env): Promise<void> {
  await setInterval(page, intervalSeconds);
  await focusWindow(page, true);
  try {
    await palette(page, 'Notifications: Clear All Notifications');
    const { floor2 } = await floors(env);
    const scanners = await get(env, `/api/f/${floor2.Key}/inputscanners`);
    const scanner = scanners[1];
    await goToObject(page, scanner.CommonName);
    const newName = `${scanner.CommonName} renamed live`;
    await send(env, 'PUT', scanner.Href, { ...scanner, CommonName: newName, Tags: [] });
    const started = Date.now();
    await until(`the tab named "${newName}"`, async () => (await activeTabText(page)).includes(newName), withinOneInterval);
    const took = Date.now() - started;
    if (await activeTabDirty(page)) throw new Error('the renamed tab is marked unsaved');
    // The new tab opens before the old one closes (as after the user's own rename): the old one gone a moment later.
    await until(
      'the tab of the old name closed',
      async () => (await page.locator('.tabs-container .tab', { hasText: scanner.CommonName }).count()) === 1,
      5_000,
    );
    await page.locator('.editor-group-container.active .monaco-editor.focused').first().waitFor({ timeout: 10_000 });
    await page.screenshot({ path: `${env.OMS_UI_DIAG}/ui-live-renamed-tab.png` });
    console.log(`live: an open editor's tab took the server's new name ${took} ms after the rename`);

    await cursorAfter(page, '"Tags": [');
    await typeEdit(page, '"typed-live"');
    const base = (await get(env, scanner.Href)).ConcurrencyVersion;
    const notice = `"${newName}" changed on the server since version ${base},`;
    let second = new Date();
    for (const change of [1, 2]) {
      const now = await get(env, scanner.Href);
      second = new Date();
      await send(env, 'PUT', scanner.Href, withFirstPriority(now, unusedPriority(now)));
      if (change === 1) await until("the notice in the extension's log", () => Promise.resolve(loggedLines(env, notice) > 0), withinOneInterval + 5_000);
    }
    // A poll read the second change (the sandbox's log); two more intervals: still one notice.
    await until(
      'a poll reading the scanner after its second change',
      () => Promise.resolve(requestsSince(env.OMS_UI_DIAG, second).some((l) => l.includes(`GET /api/f/${floor2.Key}/inputscanners`))),
      withinOneInterval,
    );
    await page.waitForTimeout(intervalSeconds * 2_000 + 1_000);
    const told = loggedLines(env, 'changed on the server since version');
    const item = await notification(page, /changed on the server/);
    const text = (await item.innerText()).replace(/\s+/g, ' ');
    await page.screenshot({ path: `${env.OMS_UI_DIAG}/ui-live-notice-current.png` });
    if (!text.includes(`since version ${base}, which your unsaved edits are based on`)) throw new Error(`the notice says: ${text}`);
    if (loggedLines(env, notice) !== 1) throw new Error(`${loggedLines(env, notice)} notices of the edits on version ${base} (${told} in all)`);
    if (!(await activeTabDirty(page))) throw new Error('the edit was lost');
    await page.keyboard.press('Escape');
  } finally {
    await palette(page, 'File: Revert File').catch(() => undefined);
    await palette(page, 'View: Close All Editors');
    await focusWindow(page, false);
  }
}

export const liveChecks: UiCheckList = (page, env) => [
  [
    'ui: live updates: an expanded group shows a rename, a creation and a deletion made over REST within one interval, still expanded',
    () => treeFollows(page, env),
  ],
  [
    "ui: live updates: a clean editor shows the server's new priority and version, no dialog; with an edit, one quiet notice, Merge keeps both, Ctrl+S saves",
    () => editorFollows(page, env),
  ],
  [
    "ui: live updates: the priorities table and the Object Changes view follow a change made over REST (the table's priority; the planned entry now Stale)",
    () => tableAndPlanFollow(page, env),
  ],
  [
    'ui: live updates: saves answered late while polls read the object: the table keeps the priority typed meanwhile; ' +
      'neither it nor an editor calls its own save a change on the server',
    () => ownSlowSaves(page, env),
  ],
  [
    'ui: live updates: Object Changes with the Objects view collapsed moves an unchanged planned scanner renamed over REST to Behind within one interval; ' +
      'with live updates off it says it does not follow the server',
    () => planFollowsAlone(page, env),
  ],
  [
    "ui: live updates: an open editor's tab takes a rename made over REST; with an edit typed, two changes on the server give one notice that stays true",
    () => editorFollowsRename(page, env),
  ],
  ['ui: live updates: the window unfocused, then the Objects view hidden, the sandbox logs no list reads', () => hiddenReadsNothing(page, env)],
];
