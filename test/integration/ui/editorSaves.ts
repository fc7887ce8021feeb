// The save entry, as a person sees it: editors follow a save made elsewhere; a refused or
// conflicting save is reported once, in our words, with no raw VS Code error after it.
import type { Page } from 'playwright-core';
import {
  revealedInTree,
  fromMenu,
  get,
  send,
  until,
  notification,
  palette,
  quickEditFirstPriority,
  newSiteDraft,
  floors,
  goToObject,
  cursorAfter,
  typeEdit,
  activeTabDirty,
  revertActive,
  rootSite,
  openSiteEditor,
  statusVersion,
  editorText,
  loggedAt,
  type Env,
  type UiCheckList,
} from './helpers';

/** Opens a site of the root folder from the tree (its group expanded first), the cursor in its editor. */
async function openObject(page: Page, name: string): Promise<void> {
  await page.keyboard.press('Escape');
  const group = page.locator('.part.sidebar .monaco-list-row[aria-level="3"]', { hasText: /^\s*Engage sites/ }).first();
  if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
  await openSiteEditor(page, name);
}

/**
 * Every notification the workbench holds (toasts and the centre), as text; once `shown` is among them, when given
 * (the centre is opened again until it is: one posted while the centre was open was not drawn in it).
 */
async function notificationTexts(page: Page, shown?: RegExp): Promise<string[]> {
  if (shown)
    await notification(page, shown).catch(() => undefined); // not shown: the caller says what is missing
  else await palette(page, 'Notifications: Show Notifications');
  await page.locator('.notifications-center.visible').first().waitFor({ timeout: 5_000 });
  await page.waitForTimeout(500); // the items drawn
  const texts = await page.locator('.notifications-center .notification-list-item').allInnerTexts();
  await page.keyboard.press('Escape');
  return texts.map((t) => t.replace(/\s+/g, ' '));
}

async function clearNotifications(page: Page): Promise<void> {
  await palette(page, 'Notifications: Clear All Notifications');
  await page.waitForTimeout(300);
}

/** A scanner open in the editor (clean), then Edit Scanner Priorities… on it from the tree: the editor shows the new version and text. */
async function quickEditFollowedByEditor(page: Page, env: Env, diag: string): Promise<void> {
  const { floor1 } = await floors(env);
  const [listed] = await get(env, `/api/f/${floor1.Key}/inputscanners`);
  const at = `/api/f/${floor1.Key}/inputscanners/${listed.Key}`;
  const scanner = await get(env, at);
  await goToObject(page, scanner.CommonName);
  await until(`the status bar at v${scanner.ConcurrencyVersion}`, async () => (await statusVersion(page)).includes(`v${scanner.ConcurrencyVersion}`));
  const wanted = scanner.InputScannerReportingPriorities[0].Priority + 37;
  await palette(page, 'OMS: Reveal in Tree');
  const row = await revealedInTree(page, scanner.CommonName);
  // A hover over the row (its tooltip) can take the right click: away first, then the menu.
  await page.mouse.move(900, 500);
  await page.waitForTimeout(300);
  await fromMenu(page, row, 'Edit Scanner Priorities');
  await quickEditFirstPriority(page, wanted);
  const saved = await until('the server to hold the new priority', async () => {
    const now = await get(env, at);
    return now.InputScannerReportingPriorities[0].Priority === wanted && now;
  });
  // The editor of that scanner (clean) follows at once: version and text.
  await page
    .locator('.tabs-container .tab', { hasText: `${scanner.CommonName}.json` })
    .first()
    .click();
  await until(`the status bar at v${saved.ConcurrencyVersion}`, async () => (await statusVersion(page)).includes(`v${saved.ConcurrencyVersion}`));
  await until('the editor to show the new priority', async () => (await editorText(page)).includes(`"Priority": ${wanted}`));
  await page.screenshot({ path: `${diag}/ui-editor-save-follow.png` });
  if (await activeTabDirty(page)) throw new Error('the editor became dirty');
}

/** Invalid JSON, Ctrl+S: our message once; auto-save and focus changes add nothing; nothing is sent. */
async function refusedSaveReportedOnce(page: Page, env: Env, diag: string): Promise<void> {
  const { at, site } = await rootSite(env);
  await clearNotifications(page);
  await openObject(page, site.CommonName);
  await cursorAfter(page, '"Tags": [');
  await typeEdit(page, 'oops');
  // The JSON language features serve object documents (their own language): they flag the syntax error.
  await page
    .locator('.editor-instance .squiggly-error')
    .first()
    .waitFor({ timeout: 15_000 })
    .catch(() => {
      throw new Error('no squiggle from the JSON language under the invalid text');
    });
  await page.keyboard.press('Control+s');
  await page.waitForTimeout(3000); // past the auto-save delay
  await page
    .locator('.part.sidebar')
    .first()
    .click({ position: { x: 50, y: 5 } })
    .catch(() => undefined); // a focus change
  await page.locator('.editor-instance .view-lines').first().click();
  await page.waitForTimeout(2000);
  const texts = await notificationTexts(page);
  await page.screenshot({ path: `${diag}/ui-editor-save-refused.png` });
  const ours = texts.filter((t) => t.includes(`"${site.CommonName}" not saved`));
  if (ours.length !== 1) throw new Error(`our message ${ours.length} times: ${JSON.stringify(texts)}`);
  // The refusal is never repeated as VS Code's raw error, and auto-save adds nothing (it never starts).
  if (texts.length !== 1) throw new Error(`more than our message: ${JSON.stringify(texts)}`);
  if (!(await activeTabDirty(page))) throw new Error('the typed text is no longer marked unsaved');
  if ((await get(env, at)).ConcurrencyVersion !== site.ConcurrencyVersion) throw new Error('something was sent');
  await revertActive(page);
}

/** Types `text` after `after`, Ctrl+S; the save asks about a field changed on the server too; Escape. */
/**
 * The edit typed, then `theirs` sent over REST, then Ctrl+S: typed first, the editor has unsaved edits, which a poll of
 * the live updates (src/live/) never moves on to the server's version, so the save always meets the change.
 */
async function conflictingEditEscaped(page: Page, after: string, text: string, theirs: () => Promise<unknown>): Promise<void> {
  await cursorAfter(page, after);
  await typeEdit(page, text);
  await theirs();
  await page.keyboard.press('Control+s');
  await page.locator('.quick-input-widget', { hasText: 'changed on the server too' }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Escape');
}

/**
 * The same field changed over REST and here, Ctrl+S: one question; Escape: no other message; the edit kept, nothing sent.
 * Live updates may have told of the change before Ctrl+S (a poll between the change and the save): that notice is
 * not one of the save's, but none may come after it.
 */
async function conflictAskedOnce(page: Page, env: Env, diag: string): Promise<void> {
  const { at, site } = await rootSite(env);
  await clearNotifications(page);
  await openObject(page, site.CommonName);
  const told = `"${site.CommonName}" changed on the server (version`;
  let saving = new Date();
  await conflictingEditEscaped(page, '"SiteReference": "', 'mine-', async () => {
    await send(env, 'PUT', at, { ...site, SiteReference: `theirs-${Date.now()}` });
    saving = new Date();
  });
  await page.waitForTimeout(3000);
  const after = loggedAt(env, told).filter((d) => d >= saving);
  if (after.length) throw new Error(`live updates told of the change after the save's question (${after.map((d) => d.toISOString()).join(', ')})`);
  const texts = (await notificationTexts(page)).filter((t) => !t.includes(told));
  await page.screenshot({ path: `${diag}/ui-editor-save-conflict.png` });
  if (texts.length) throw new Error(`more than one question: ${JSON.stringify(texts)}`);
  if (await page.locator('.monaco-dialog-box').count()) throw new Error('a second dialog');
  if (!(await activeTabDirty(page))) throw new Error('the edit is no longer marked unsaved');
  const server = await get(env, at);
  if (String(server.SiteReference).startsWith('mine-')) throw new Error('the conflicting edit was sent');
  await revertActive(page);
}

/** Save All with a valid edit and an invalid new draft: the valid one is saved, ours (with Show Problems) for the other, no raw toast. */
async function saveAllWithInvalidDraft(page: Page, env: Env, diag: string): Promise<void> {
  const { at, site, folderKey } = await rootSite(env);
  await clearNotifications(page);
  const before: any[] = await get(env, `/api/f/${folderKey}/engagesites?pageSize=1000`);
  await openObject(page, site.CommonName);
  await cursorAfter(page, '"Tags": [');
  await typeEdit(page, '"save-all"');
  await newSiteDraft(page);
  await cursorAfter(page, '"Tags": [');
  await typeEdit(page, 'broken');
  await palette(page, 'File: Save All');
  await until('the valid edit saved', async () => JSON.stringify((await get(env, at)).Tags).includes('save-all'));
  await page.waitForTimeout(2000);
  const texts = await notificationTexts(page, /"New engage site" not saved/);
  await page.screenshot({ path: `${diag}/ui-editor-save-save-all.png` });
  // Save All's refusal is ours alone; no auto-save came while the draft was typed.
  const raw = texts.filter((t) => /Failed to save|FileSystemError|Unable to write|oms:\/\//.test(t));
  if (raw.length) throw new Error(`a raw VS Code error: ${JSON.stringify(texts)}`);
  const ours = texts.find((t) => t.includes('"New engage site" not saved'));
  if (!ours) throw new Error(`no message of ours for the draft: ${JSON.stringify(texts)}`);
  if (!ours.includes('Show Problems')) throw new Error(`no Show Problems: ${ours}`);
  if ((await get(env, `/api/f/${folderKey}/engagesites?pageSize=1000`)).length !== before.length) throw new Error('the invalid draft was created');
  await revertActive(page);
  await page.keyboard.press('Control+w');
  await send(env, 'PUT', at, { ...(await get(env, at)), Tags: site.Tags });
}

/** A scanner open in the editor, changed over REST on another field: Ctrl+S merges, says so, both on the server; the same field: asked. */
async function editorSaveMerges(page: Page, env: Env, diag: string): Promise<void> {
  const { floor1 } = await floors(env);
  const [, listed] = await get(env, `/api/f/${floor1.Key}/inputscanners`);
  const at = `/api/f/${floor1.Key}/inputscanners/${listed.Key}`;
  const scanner = await get(env, at);
  await clearNotifications(page);
  await goToObject(page, scanner.CommonName);
  const theirsPriority = scanner.InputScannerReportingPriorities[7].Priority + 11;
  const rows = scanner.InputScannerReportingPriorities.map((p: any, i: number) => (i === 7 ? { ...p, Priority: theirsPriority } : p));
  // Typed before the change over REST: a clean editor may follow the server (a poll of the live updates) and then meet no change.
  await cursorAfter(page, '"Tags": [');
  await typeEdit(page, '"merged-ui"');
  await send(env, 'PUT', at, { ...scanner, InputScannerReportingPriorities: rows });
  await page.keyboard.press('Control+s');
  const both = await until('both edits on the server', async () => {
    const now = await get(env, at);
    return JSON.stringify(now.Tags).includes('merged-ui') && now.InputScannerReportingPriorities[7].Priority === theirsPriority && now;
  });
  await until('the tab to be clean', async () => !(await activeTabDirty(page)));
  const texts = await notificationTexts(page, /merged with the server's changes/);
  await page.screenshot({ path: `${diag}/ui-editor-save-merge.png` });
  if (!texts.some((t) => /merged with the server's changes to: .*InputScannerReportingPriorities/.test(t)))
    throw new Error(`no word of the merge: ${JSON.stringify(texts)}`);

  // The same field changed on both sides: every row's priority on the server, so the row the caret
  // lands in is one of them. The user is asked; Escape sends nothing and keeps the edit.
  const row0 = both.InputScannerReportingPriorities.map((p: any) => ({ ...p, Priority: p.Priority + 500 }));
  await page.keyboard.press('Control+Home'); // the search starts at the top: the first range's priority
  await conflictingEditEscaped(page, '"Priority": ', '9', () => send(env, 'PUT', at, { ...both, InputScannerReportingPriorities: row0 }));
  await page.waitForTimeout(1500);
  if (JSON.stringify((await get(env, at)).InputScannerReportingPriorities) !== JSON.stringify(row0)) throw new Error('the conflicting edit was sent');
  if (!(await activeTabDirty(page))) throw new Error('the edit is no longer marked unsaved');
  await revertActive(page);
}

export const editorSaveChecks: UiCheckList = (page, env, diag) => [
  [
    'ui editor saves: a scanner open in a clean editor follows Edit Scanner Priorities… from the tree (text and status bar version)',
    () => quickEditFollowedByEditor(page, env, diag),
  ],
  [
    'ui editor saves: a refused save is reported once, ours; not repeated as a raw error, nor on a focus change',
    () => refusedSaveReportedOnce(page, env, diag),
  ],
  ['ui editor saves: a version conflict is one question; after Escape no other message, the edit kept', () => conflictAskedOnce(page, env, diag)],
  [
    'ui editor saves: an editor save meets a change on another field: merged, said, both on the server; the same field: asked',
    () => editorSaveMerges(page, env, diag),
  ],
  [
    'ui editor saves: Save All with an invalid draft: ours with Show Problems, no raw toast; the valid edit saved',
    () => saveAllWithInvalidDraft(page, env, diag),
  ],
];
