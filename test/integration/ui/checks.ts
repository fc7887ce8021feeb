// Checks made as a person would, in the page after the Mocha run: mouse and
// keyboard only, the result read from the sandbox. Each one counts as a test.
import { stripVTControlCharacters } from 'util';
import type { Page } from 'playwright-core';
import {
  revealedInTree,
  pick,
  fromMenu,
  quickEditFirstPriority,
  pushToSummary,
  get,
  send,
  outbox,
  newSiteDraft,
  until,
  rootSite,
  openSiteEditor,
  cursorAfter,
  typeEdit,
  activeTabDirty,
  notification,
  revertActive,
  input,
  activeTabText,
  palette,
  floors,
  goToObject,
  query,
  type Env,
  type UiCheck,
  type UiCheckList,
} from './helpers';
import { workbenchChecks } from './workbench';

import { bulkChecks } from './bulk';
import { clientChecks } from './client';
import { collapseAll, commandFlowChecks, treeFromTop } from './commandFlows';
import { editorSaveChecks } from './editorSaves';
import { planChecks } from './plan';
import { planKeyboardChecks } from './planKeyboard';
import { reopenChecks } from './reopen';
import { runChecks } from './runs';
import { cliRunChecks } from './cliRuns';
import { wordsChecks } from './words';
import { liveChecks } from './live';
import { tableGoneChecks } from './tableGone';
import { untrustedChecks } from './untrusted';
import { pullScopeChecks } from './pullScopes';
import { fleetChecks } from './fleet';
import { queryChecks } from './query';
import { queryResultsChecks } from './queryResults';
import { resultsScrollChecks } from './resultsScroll';
import { queryFileChecks } from './queryFiles';

/** Each area's own checks (a file of this folder): one import and one entry here. */
const areas: UiCheckList[] = [
  // The run shell's check works in the folder the plan checks pulled, before the others edit it.
  editorSaveChecks,
  clientChecks,
  planChecks,
  runChecks,
  cliRunChecks,
  bulkChecks,
  workbenchChecks,
  commandFlowChecks,
  planKeyboardChecks,
  reopenChecks,
  wordsChecks,
  liveChecks,
  tableGoneChecks,
  untrustedChecks,
  queryChecks,
  queryResultsChecks,
  queryFileChecks,
  // It empties oms/sandbox and pulls Head Office's scanners there.
  pullScopeChecks,
  // Opt-in (OMS_UI_FLEET=1): minutes of fleet figures, none otherwise.
  fleetChecks,
  // Opt-in (OMS_UI_BENCH=1): the results table scrolled through 100,000 rows, none otherwise.
  resultsScrollChecks,
];

export type { UiCheck } from './helpers';

/** Right-click an engage site in the tree, "Invite User to Engage Site…", type an address, Enter. */
async function inviteFromTree(page: Page, env: Env): Promise<void> {
  const email = `ui.${Date.now()}@example.com`;
  const group = page.locator('.part.sidebar .monaco-list-row[aria-level="3"]', { hasText: /^\s*Engage sites/ }).first();
  if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
  // The root folder's first site, by its name as the server has it.
  const root = await get(env, '/api');
  const sites = await get(env, `/api/f/${root.Key}/engagesites`);
  const site = page.locator('.part.sidebar .monaco-list-row[aria-level="4"]', { hasText: sites[0].CommonName }).first();
  await site.waitFor({ timeout: 15_000 });
  await fromMenu(page, site, 'Invite User to Engage Site');
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ timeout: 10_000 });
  await input.pressSequentially('not-an-address');
  const complaint = page.locator('.quick-input-widget .quick-input-message');
  await complaint
    .filter({ hasText: /e-mail|address/i })
    .first()
    .waitFor({ timeout: 5_000 });
  await input.fill(email);
  await page.keyboard.press('Enter');
  for (let i = 0; i < 40; i++) {
    if ((await outbox(env)).includes(email)) return;
    await page.waitForTimeout(250);
  }
  throw new Error(`${email} did not reach the sandbox's outbox`);
}

/**
 * The service refuses the token during an invite from the tree: the failure
 * report every command shares names what failed and offers Sign In (the
 * connection is known), and nothing reaches the outbox.
 */
async function refusedTokenOffersSignIn(page: Page, env: Env, diag: string): Promise<void> {
  const root = await get(env, '/api');
  const [site] = await get(env, `/api/f/${root.Key}/engagesites`);
  await send(env, 'POST', '/sandbox/faults', { path: `/api/f/${root.Key}/engagesites/${site.Key}/invite`, status: 401, count: 1 });
  try {
    const email = `refused.${Date.now()}@example.com`;
    await fromMenu(page, page.locator('.part.sidebar .monaco-list-row[aria-level="4"]', { hasText: site.CommonName }).first(), 'Invite User to Engage Site');
    const input = page.locator('.quick-input-widget input').first();
    await input.waitFor({ timeout: 10_000 });
    await input.fill(email);
    await page.keyboard.press('Enter');
    // As a toast, or (when the workbench keeps it there) in the notification centre behind the bell.
    const hasText = '"Invite User to Engage Site" failed';
    let message = page.locator('.notifications-toasts .notification-list-item', { hasText }).first();
    if (
      !(await message.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      ))
    ) {
      await page.locator('[id="status.notifications"]').first().click();
      message = page.locator('.notifications-center .notification-list-item', { hasText }).first();
      await message.waitFor({ timeout: 10_000 });
    }
    await message.click();
    await message.locator('.monaco-button', { hasText: 'Sign In' }).first().waitFor({ timeout: 5_000 });
    await message.locator('.monaco-button', { hasText: 'Show Log' }).first().waitFor({ timeout: 5_000 });
    await page.screenshot({ path: `${diag}/ui-refused-token.png` });
    if ((await outbox(env)).includes(email)) throw new Error('the refused invite is in the outbox');
    await message
      .locator('.codicon-notifications-clear')
      .first()
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await page.keyboard.press('Escape');
  } finally {
    await send(env, 'DELETE', '/sandbox/faults');
  }
}

/** Right-click the input scanner open in the editor, "Edit Scanner Priorities…", Enter, type a priority, keep the status. */
async function editPriorityFromTree(page: Page, env: Env): Promise<void> {
  const root = await get(env, '/api');
  const head = (await get(env, `/api/f/${root.Key}/folders`)).find((f: any) => f.CommonName === 'Head Office');
  const floor = (await get(env, `/api/f/${head.Key}/folders`)).find((f: any) => f.CommonName === 'Floor 1');
  const [scanner] = await get(env, `/api/f/${floor.Key}/inputscanners`);
  const wanted = (scanner.InputScannerReportingPriorities[0].Priority + 1) % 10;
  await fromMenu(page, page.locator('.part.sidebar .monaco-list-row', { hasText: scanner.CommonName }).first(), 'Edit Scanner Priorities');
  await quickEditFirstPriority(page, wanted);
  for (let i = 0; i < 40; i++) {
    const now = await get(env, `/api/f/${floor.Key}/inputscanners/${scanner.Key}`);
    if (now.InputScannerReportingPriorities[0].Priority === wanted) {
      if (now.ConcurrencyVersion !== scanner.ConcurrencyVersion + 1)
        throw new Error(`version ${now.ConcurrencyVersion}, expected ${scanner.ConcurrencyVersion + 1}`);
      return;
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`the scanner's first priority did not become ${wanted}`);
}

// ---- Safe writes (files.autoSave is afterDelay in this host: the web build's default, and set in settings.json)

/** Types into Tags, pauses past the auto-save delay (nothing sent), Ctrl+S (one PUT), Ctrl+Z (the typed text goes, nothing sent). */
async function autoSaveHeldThenCtrlS(page: Page, env: Env): Promise<void> {
  const { at, site } = await rootSite(env);
  await openSiteEditor(page, site.CommonName);
  await cursorAfter(page, '"Tags": [');
  await typeEdit(page, '"ui-check"');
  await page.waitForTimeout(3000);
  if ((await get(env, at)).ConcurrencyVersion !== site.ConcurrencyVersion) throw new Error('auto-save sent a PUT');
  if (!(await activeTabDirty(page))) throw new Error('the tab is not dirty after the held-back auto-save');
  await page.keyboard.press('Control+s');
  const saved = await until('the PUT', async () => (await get(env, at)).ConcurrencyVersion !== site.ConcurrencyVersion && get(env, at));
  if (saved.ConcurrencyVersion !== site.ConcurrencyVersion + 1)
    throw new Error(`version ${saved.ConcurrencyVersion}, expected exactly one PUT (${site.ConcurrencyVersion + 1})`);
  if (JSON.stringify(saved.Tags) !== '["ui-check"]') throw new Error(`server Tags ${JSON.stringify(saved.Tags)}`);
  await until('the tab to be clean', async () => !(await activeTabDirty(page)));
  await page.keyboard.press('Control+z');
  await until('Ctrl+Z to take back the typed tag', async () => !(await page.locator('.editor-instance .view-lines').first().innerText()).includes('ui-check'));
  await until('the tab to be dirty after Ctrl+Z (the saved text differs)', () => activeTabDirty(page), 3000);
  await page.waitForTimeout(2000);
  if ((await get(env, at)).ConcurrencyVersion !== saved.ConcurrencyVersion) throw new Error('something was sent after Ctrl+Z');
  await page.keyboard.press('Control+s'); // send the undo: the server has its Tags back
  await until('the undo to be saved', async () => (await get(env, at)).ConcurrencyVersion === saved.ConcurrencyVersion + 1);
}

/** Types a note into Notes: flagged as typed; Ctrl+S refused with "Add Note…", nothing sent. */
async function notesEditRefused(page: Page, env: Env): Promise<void> {
  const { at, site } = await rootSite(env);
  await openSiteEditor(page, site.CommonName);
  await cursorAfter(page, '"Notes": [');
  await typeEdit(page, '{"NoteText": "typed"');
  await page.locator('.editor-instance .squiggly-error').first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Control+s');
  await page.waitForTimeout(1000);
  await notification(page, /does not store Notes.*Add Note/);
  if ((await get(env, at)).ConcurrencyVersion !== site.ConcurrencyVersion) throw new Error('the Notes edit was sent');
  await page.keyboard.press('Escape');
  await revertActive(page);
}

/** Edits the CommonName and saves: the tab title follows; then puts the name back the same way. */
async function renameMovesTab(page: Page, env: Env): Promise<void> {
  const { at, site } = await rootSite(env);
  await openSiteEditor(page, site.CommonName);
  await cursorAfter(page, `"CommonName": "${site.CommonName}`);
  await typeEdit(page, ' renamed');
  await page.keyboard.press('Control+s');
  await page.locator('.tabs-container .tab.active', { hasText: `${site.CommonName} renamed.json` }).waitFor({ timeout: 10_000 });
  await until('the old tab title to go', async () => (await page.locator('.tabs-container .tab', { hasText: `${site.CommonName}.json` }).count()) === 0);
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  await cursorAfter(page, ' renamed');
  for (let i = 0; i < ' renamed'.length; i++) await page.keyboard.press('Backspace');
  await page.keyboard.press('Control+s');
  await until('the name back on the server', async () => (await get(env, at)).CommonName === site.CommonName);
  await page.locator('.tabs-container .tab.active', { hasText: `${site.CommonName}.json` }).waitFor({ timeout: 10_000 });
  await until('the renamed tab to go', async () => (await page.locator('.tabs-container .tab', { hasText: 'renamed.json' }).count()) === 0);
}

/**
 * New engage site from the group's + button: a pause creates nothing; Ctrl+S creates it. The breadcrumb
 * names the folder and the object, no key; the next Ctrl+S updates the created object.
 */
async function draftCreatedOnlyByCtrlS(page: Page, env: Env): Promise<void> {
  const { folderKey } = await rootSite(env);
  const before: any[] = await get(env, `/api/f/${folderKey}/engagesites?pageSize=1000`);
  await newSiteDraft(page);
  await cursorAfter(page, '"Tags": [');
  await typeEdit(page, '"ui-created"');
  await page.waitForTimeout(3000);
  if ((await get(env, `/api/f/${folderKey}/engagesites?pageSize=1000`)).length !== before.length) throw new Error('auto-save created the draft');
  await page.keyboard.press('Control+s');
  const created = await until('the created site', async () =>
    (await get(env, `/api/f/${folderKey}/engagesites?pageSize=1000`)).find((o: any) => !before.some((b) => b.Key === o.Key)),
  );
  await page.locator('.tabs-container .tab.active', { hasText: 'New engage site.json' }).waitFor({ timeout: 10_000 });
  const root = await get(env, '/api');
  const crumbs = await until('the breadcrumb to name the folder and the object', async () => {
    const text = (await page.locator('.breadcrumbs-control').first().innerText()).replace(/\s+/g, ' ');
    return text.includes(root.CommonName) && text.includes('New engage site.json') && text;
  });
  await page.screenshot({ path: `${env.OMS_UI_DIAG ?? '.'}/ui-created-breadcrumb.png` }).catch(() => undefined);
  if ([created.Key, folderKey, 'new-'].some((k) => crumbs.includes(k))) throw new Error(`a key in the breadcrumb: ${crumbs}`);
  // The document now addresses the created object: the next save updates it, nothing more is created.
  // The server's text puts the tag on a line of its own; the search starts at the top.
  await page.locator('.editor-instance .view-lines').first().click();
  await page.keyboard.press('Control+Home');
  await cursorAfter(page, '"ui-created"');
  await typeEdit(page, ', "again"');
  await page.keyboard.press('Control+s');
  await until('the created site updated', async () =>
    JSON.stringify((await get(env, `/api/f/${folderKey}/engagesites/${created.Key}`)).Tags).includes('again'),
  );
  if ((await get(env, `/api/f/${folderKey}/engagesites?pageSize=1000`)).length !== before.length + 1) throw new Error('the second save created another site');
  await fetch(`${env.OMS_SANDBOX_URL}/api/f/${folderKey}/engagesites/${created.Key}`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${env.OMS_SANDBOX_TOKEN}` },
  });
}

/** Marks the connection as production from the tree; Ctrl+S then asks, Escape (Cancel) sends nothing. */
async function productionAsksFirst(page: Page, env: Env): Promise<void> {
  const { at, site } = await rootSite(env);
  const connection = page.locator('.part.sidebar .monaco-list-row[aria-level="1"]').first();
  await fromMenu(page, connection, 'Mark as Production');
  await connection.filter({ hasText: 'PRODUCTION' }).waitFor({ timeout: 10_000 });
  await page.locator('.statusbar-item', { hasText: '(production)' }).first().waitFor({ timeout: 10_000 });
  await openSiteEditor(page, site.CommonName);
  await cursorAfter(page, '"Tags": [');
  await typeEdit(page, '"prod"');
  await page.keyboard.press('Control+s');
  const dialog = page.locator('.monaco-dialog-box', { hasText: /production/ });
  await dialog.waitFor({ timeout: 10_000 });
  const said = await dialog.innerText();
  if (!said.includes('PUT') || !said.includes(site.Key)) throw new Error(`the confirmation does not say what goes where: ${said}`);
  await page.screenshot({ path: `${env.OMS_UI_DIAG ?? '.'}/ui-production-confirm.png` }).catch(() => undefined);
  await page.keyboard.press('Escape');
  await page.waitForTimeout(1500);
  if ((await get(env, at)).ConcurrencyVersion !== site.ConcurrencyVersion) throw new Error('Cancel sent the PUT');
  if (!(await activeTabDirty(page))) throw new Error('the edit was not kept after Cancel');
  await revertActive(page);
  await fromMenu(page, connection, 'Unmark as Production');
  await page
    .locator('.statusbar-item', { hasText: '(production)' })
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
}

/** Show Save History (palette) on the open site, newest entry, Restore: the server holds that version again. */
async function restoreFromHistory(page: Page, env: Env): Promise<void> {
  const { at, site } = await rootSite(env);
  await openSiteEditor(page, site.CommonName);
  await palette(page, 'OMS: Show Save History');
  // The newest entry, once highlighted: Enter takes the one read here.
  const pick = page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: /^\s*Version/ }).first();
  await pick.waitFor({ timeout: 10_000 });
  const label = await pick.innerText();
  const version = /Version (\d+)/.exec(label)?.[1];
  await page.keyboard.press('Enter');
  await page.waitForTimeout(1000);
  const offer = await notification(page, /Restore version/);
  await page.screenshot({ path: `${env.OMS_UI_DIAG ?? '.'}/ui-save-history.png` }).catch(() => undefined);
  await offer.locator('.monaco-button', { hasText: 'Restore' }).click();
  const restored = await until('the restored version on the server', async () => {
    const now = await get(env, at);
    return now.ConcurrencyVersion === site.ConcurrencyVersion + 1 && now;
  });
  if (!label.startsWith(`Version ${version}: ${restored.CommonName}`))
    throw new Error(`restored "${restored.CommonName}", expected version ${version} as listed: ${label}`);
  const listed = await get(env, at);
  if (listed.ConcurrencyVersion !== site.ConcurrencyVersion + 1) throw new Error('Restore sent more than one PUT');
}

async function goToObjectCheck(page: Page, env: Env, diag: string): Promise<void> {
  const { floor2 } = await floors(env);
  const [site] = await get(env, `/api/f/${floor2.Key}/engagesites`);
  // For README: several kinds and folders at once.
  await tidyForReadme(page);
  await query(page, 'floor 1');
  await page.locator('.quick-input-list .monaco-list-row').nth(3).waitFor({ timeout: 15_000 });
  await page.waitForTimeout(1_000);
  await page.screenshot({ path: `${diag}/readme-go-to-object.png` });
  await page.keyboard.press('Escape');
  await goToObject(page, site.CommonName);
  // Recently opened first, also while typing: "floor" matches the Floor folders (shorter names, first by
  // VS Code's own sort) and the site just opened, which comes first.
  await query(page, 'floor');
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: /^\s*Floor 1\b/ })
    .first()
    .waitFor({ timeout: 15_000 });
  // The list as it settles (the folders' matches come as their listings answer).
  const firstRow = async () => (await page.locator('.quick-input-list .monaco-list-row').first().innerText()).replace(/\s+/g, ' ');
  await until('the site opened last to come first', async () => (await firstRow()).includes(site.CommonName), 10_000).catch(async () => {
    throw new Error(`the first match for "floor" is "${await firstRow()}", not the site opened last (${site.CommonName})`);
  });
  await page.screenshot({ path: `${diag}/ui-go-to-object-recent.png` });
  await page.keyboard.press('Escape');
}

/**
 * Ctrl+Alt+O opened right after Escape and typed into at once, at full speed (no delay between keys, not
 * waiting for the box), eight times over several names: every character lands in the box, as in VS Code's
 * own Ctrl+P, none in the object editor behind it; the last name's row opens its object.
 */
async function goToObjectKeepsTyping(page: Page, env: Env, diag: string): Promise<void> {
  const { floor1, floor2 } = await floors(env);
  const [site] = await get(env, `/api/f/${floor2.Key}/engagesites`);
  const scanners = await get(env, `/api/f/${floor1.Key}/inputscanners`);
  const names: string[] = ['zebra', site.CommonName, scanners[0].CommonName, scanners[1].CommonName];
  await palette(page, 'View: Close All Editors');
  await palette(page, 'View: Single Column Editor Layout');
  await goToObject(page, site.CommonName);
  const rounds = 8;
  const held: string[] = [];
  const trail: string[] = [];
  for (let i = 0; i < rounds; i++) {
    const name = names[i % names.length];
    await page.keyboard.press('Control+Alt+O');
    await page.keyboard.type('floor');
    const first = await input(page)
      .inputValue({ timeout: 1_000 })
      .catch(() => '(no box)');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Alt+O');
    await page.keyboard.type(name);
    await until('the symbol search', async () => input(page).isVisible(), 5_000);
    await page.waitForTimeout(300);
    held.push(await input(page).inputValue());
    const groups = await page.locator('.editor-group-container').count();
    trail.push(`round ${i + 1}: first box "${first}", ${groups} editor group(s)${(await activeTabDirty(page)) ? ', the tab unsaved' : ''}`);
    if (i < rounds - 1) await page.keyboard.press('Escape');
  }
  const last = names[(rounds - 1) % names.length];
  // The symbol search's `#` before the name is VS Code's, not typed.
  const missed = held.filter((v, i) => v.replace(/^#/, '') !== names[i % names.length]).length;
  const leaked = await activeTabDirty(page);
  if (missed || leaked) {
    await page.keyboard.press('Escape');
    if (leaked) await revertActive(page);
    throw new Error(
      `typed right after Escape, ${rounds - missed} of ${rounds} kept every character: the box held ${held.map((v) => `"${v}"`).join(', ')}` +
        (leaked ? '; the editor behind got the rest' : '') +
        `; ${trail.join('; ')}`,
    );
  }
  // What was typed finds the object: its row, Enter, its tab.
  await pick(page, last).waitFor({ timeout: 15_000 });
  await page.screenshot({ path: `${diag}/ui-go-to-object-symbols.png` });
  await page.keyboard.press('Enter');
  await until(`tab "${last}"`, async () => (await activeTabText(page)).includes(last)).catch((e: Error) => {
    throw new Error(`${e.message}; ${trail.join('; ')}`);
  });
  const groups = await page.locator('.editor-group-container').count();
  if (groups !== 1) throw new Error(`the objects opened in ${groups} editor groups, not the one in use; ${trail.join('; ')}`);
}

/** Opens the scanner the suite linked to a Floor 2 site, unfolds, Ctrl+clicks the site's Href: the site opens. */
async function ctrlClickLink(page: Page, env: Env): Promise<void> {
  const { floor1, floor2 } = await floors(env);
  const root = await get(env, '/api');
  const warehouse = (await get(env, `/api/f/${root.Key}/folders`)).find((f: any) => f.CommonName === 'Warehouse');
  const scanners = [...(await get(env, `/api/f/${warehouse.Key}/inputscanners`)), ...(await get(env, `/api/f/${floor1.Key}/inputscanners`))];
  let scanner = scanners.find((x: any) => x.ObjectLinks.some((l: any) => l.Relation === 'Site'));
  if (!scanner) {
    // The find-and-follow suite adds one; run alone (a grep), the check adds its own.
    const [first] = await get(env, `/api/f/${floor1.Key}/inputscanners`);
    const [target] = await get(env, `/api/f/${floor2.Key}/engagesites`);
    const at = `/api/f/${floor1.Key}/inputscanners/${first.Key}`;
    await send(env, 'PUT', at, {
      ...first,
      ObjectLinks: [
        ...first.ObjectLinks,
        { ...first.ObjectLinks[0], Href: target.Href, LinkedObjectKey: target.Key, CommonName: target.CommonName, Relation: 'Site' },
      ],
    });
    scanner = await get(env, at);
  }
  const link = scanner.ObjectLinks.find((l: any) => l.Relation === 'Site');
  const site = (await get(env, `/api/f/${floor2.Key}/engagesites`)).find((x: any) => x.Key === link.LinkedObjectKey);
  await goToObject(page, scanner.CommonName);
  // As a person would: see the bookkeeping folded (the extension folds it once the editor has its regions), then unfold.
  await page
    .locator('.monaco-editor .inline-folded')
    .first()
    .waitFor({ timeout: 5_000 })
    .catch(() => undefined);
  await page.locator('.monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+J'); // unfold all
  // The cursor to the link's line, and Go to Line (Ctrl+G) to centre it: the find widget alone left it, when
  // already in view, where sticky scroll's header could cover it (a click that timed out on CI).
  await cursorAfter(page, link.Href);
  const line = /Ln (\d+)/.exec(
    await page
      .locator('.statusbar-item', { hasText: /Ln \d+/ })
      .first()
      .innerText(),
  )?.[1];
  if (!line) throw new Error('the status bar shows no cursor line');
  await page.keyboard.press('Control+g');
  await page.locator('.quick-input-widget input:focus').waitFor({ timeout: 5_000 });
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
  // The underline VS Code draws once its link detector has run (a second or more after the text last changed:
  // an editor already open took the server's newer text as Go to Object opened it, and a click before it did nothing).
  // (Monaco draws a long token in pieces of 50 characters: the link's first piece.)
  const href = page.locator('.monaco-editor .view-line', { hasText: link.Href }).locator('.detected-link').first();
  await href.waitFor({ timeout: 10_000 });
  // The pointer off the editor first: left where the click on the text put it, it opened a hover over the lines
  // around it, the Href's among them, and the click was intercepted until it timed out (one clean-clone run).
  await page.mouse.move(0, 0);
  await href.click({ modifiers: ['Control'] });
  await until(`tab "${site.CommonName}"`, async () => (await activeTabText(page)).includes(site.CommonName));
}

/**
 * For README's pictures: no editors or notifications left by the checks before, and the tree folded
 * back to the instance's folders and kinds (objects other checks made stay out of sight).
 */
async function tidyForReadme(page: Page): Promise<void> {
  await palette(page, 'View: Close All Editors');
  // An edit an earlier check left unsaved is not for the picture: discard it, as a person tidying up would.
  const dontSave = page.locator('.monaco-dialog-box .monaco-button', { hasText: "Don't Save" }).first();
  while (
    await dontSave.waitFor({ timeout: 1_000 }).then(
      () => true,
      () => false,
    )
  )
    await dontSave.click();
  await palette(page, 'Notifications: Clear All Notifications');
  await collapseAll(page);
  for (const label of ['Sandbox', 'Demo Instance']) {
    const row = page.locator('.sidebar .monaco-list-row', { hasText: label }).first();
    await row.click();
    await until(`${label} expanded`, async () => (await row.getAttribute('aria-expanded')) === 'true');
  }
}

/** The priorities table of a scanner: click the first priority, type a new one, Ctrl+S; the server's version goes up. */
async function tableCheck(page: Page, env: Env, diag: string): Promise<void> {
  const { floor1 } = await floors(env);
  const [, scanner] = await get(env, `/api/f/${floor1.Key}/inputscanners`);
  await tidyForReadme(page);
  await goToObject(page, scanner.CommonName);
  await palette(page, 'OMS: Open Priorities Table');
  let frame = undefined as import('playwright-core').Frame | undefined;
  await until('the table', async () => {
    for (const f of page.frames())
      if (
        (await f
          .locator('#rows tr')
          .count()
          .catch(() => 0)) === 8
      )
        frame = f;
    return !!frame;
  });
  const wanted = (scanner.InputScannerReportingPriorities[1].Priority + 3) % 10;
  const cell = frame!.locator('#rows tr').nth(1).locator('input.priority');
  await cell.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(String(wanted));
  await page.keyboard.press('ArrowDown'); // next row, same column
  await page.keyboard.press('Control+S');
  const path = `/api/f/${floor1.Key}/inputscanners/${scanner.Key}`;
  await until('the saved priority', async () => (await get(env, path)).InputScannerReportingPriorities[1].Priority === wanted);
  const now = await get(env, path);
  if (now.ConcurrencyVersion !== scanner.ConcurrencyVersion + 1)
    throw new Error(`version ${now.ConcurrencyVersion}, expected ${scanner.ConcurrencyVersion + 1}`);
  await frame!.locator('#version', { hasText: `version ${now.ConcurrencyVersion}` }).waitFor({ timeout: 10_000 });
  await page.screenshot({ path: `${diag}/readme-priorities-table.png` });

  // An edit left unsaved: the tab says so; closing it warns and offers the edit back; nothing was sent.
  const third = frame!.locator('#rows tr').nth(2).locator('input.priority');
  await third.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('9');
  await until('the tab marked unsaved', async () => (await activeTabText(page)).includes('● Priorities'));
  await page.keyboard.press('Control+W');
  // The warning, in the toast or (when toasts are held back) in the notification centre.
  const reopen = page.locator('.monaco-button', { hasText: 'Reopen with My Edits' }).first();
  await reopen.waitFor({ timeout: 5_000 }).catch(async () => {
    await palette(page, 'Notifications: Show Notifications');
    await reopen.waitFor({ timeout: 10_000 });
  });
  await reopen.click();
  let again = undefined as import('playwright-core').Frame | undefined;
  await until('the table back with the edit', async () => {
    for (const f of page.frames()) {
      if (
        (await f
          .locator('#rows tr')
          .nth(2)
          .locator('input.priority')
          .inputValue({ timeout: 500 })
          .catch(() => '')) === '9'
      )
        again = f;
    }
    return !!again;
  });
  if ((await get(env, path)).ConcurrencyVersion !== now.ConcurrencyVersion) throw new Error('the unsaved edit reached the server');
  await again!.locator('#revert').click();
  await page.keyboard.press('Control+W');
}

/** Right-click an object, Add Note…, type, Enter; expand it, right-click the note, Delete Note, confirm. */
async function notesCheck(page: Page, env: Env): Promise<void> {
  const { floor2 } = await floors(env);
  const [site] = await get(env, `/api/f/${floor2.Key}/engagesites`);
  const notesPath = `/api/f/${floor2.Key}/engagesites/${site.Key}/notes`;
  const text = `UI note ${Date.now()}`;
  await goToObject(page, site.CommonName);
  await palette(page, 'OMS: Reveal in Tree');
  const row = await revealedInTree(page, site.CommonName);
  await fromMenu(page, row, 'Add Note');
  await input(page).waitFor({ timeout: 10_000 });
  await input(page).pressSequentially(text);
  await page.keyboard.press('Enter');
  await until('the note on the server', async () => (await get(env, notesPath)).some((n: any) => n.NoteText === text));
  if ((await row.getAttribute('aria-expanded')) !== 'true') await row.locator('.monaco-tl-twistie').click();
  const note = page.locator('.part.sidebar .monaco-list-row', { hasText: text }).first();
  await note.waitFor({ timeout: 15_000 });
  await fromMenu(page, note, 'Delete Note');
  const confirm = page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Delete' }).first();
  await confirm.waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  await until('the note deleted', async () => !(await get(env, notesPath)).some((n: any) => n.NoteText === text));
  await note.waitFor({ state: 'detached', timeout: 15_000 });
}

/** Copy as cURL from the tree, paste into a terminal with TOKEN set: the object comes back. */
async function curlCheck(page: Page, env: Env, diag: string): Promise<void> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const root = await get(env, '/api');
  const [site] = await get(env, `/api/f/${root.Key}/engagesites`);
  const row = page.locator('.part.sidebar .monaco-list-row', { hasText: site.CommonName }).first();
  if (!(await row.isVisible())) {
    // The instance's own Engage sites (level 3: connection, instance, kind), opened as a person would.
    await page
      .locator('.part.sidebar .monaco-list-row[aria-level="3"]', { hasText: /^\s*Engage sites/ })
      .first()
      .click();
  }
  await row.waitFor({ timeout: 15_000 });
  await fromMenu(page, row, 'Copy as cURL');
  await page.waitForTimeout(500);
  const out = `${diag}/curl-${Date.now()}.json`;
  await page.keyboard.press('Control+Backquote');
  const terminal = page.locator('.terminal-wrapper textarea, .xterm-helper-textarea').first();
  await terminal.waitFor({ timeout: 15_000 });
  await page.waitForTimeout(1_500);
  await terminal.focus();
  await page.keyboard.type(`export TOKEN='${env.OMS_SANDBOX_TOKEN}'\n`);
  await page.keyboard.type('clear\n');
  await page.keyboard.press('Control+Shift+V');
  await page.waitForTimeout(300);
  await page.keyboard.type(` > '${out}'\n`);
  const fs = await import('fs');
  await until('the cURL output', () => Promise.resolve(fs.existsSync(out) && fs.readFileSync(out, 'utf8').trim().endsWith('}')));
  const got = JSON.parse(fs.readFileSync(out, 'utf8'));
  if (got.Key !== site.Key || got.CommonName !== site.CommonName) throw new Error(`the pasted command returned ${JSON.stringify(got).slice(0, 200)}`);
  await page.keyboard.press('Control+Backquote');
}

/** The push notification's summary, reached with the keyboard from a folder's menu, names the folder. */
async function pushNamesFolder(page: Page, env: Env): Promise<void> {
  const row = page.locator('.part.sidebar .monaco-list-row', { hasText: /^\s*Floor 2/ }).first();
  await row.waitFor({ timeout: 15_000 });
  await fromMenu(page, row, 'Send Push Notification');
  await pushToSummary(page, 'Fire drill at 3 pm');
  const send = pick(page, /^\s*Send/);
  await send.waitFor({ timeout: 10_000 });
  const text = await send.innerText();
  await page.keyboard.press('Escape');
  if (!text.includes('"Floor 2"')) throw new Error(`the Send item says "${text.replace(/\s+/g, ' ')}"`);
  if (/\b[0-9a-f]{24}\b/.test(text)) throw new Error(`a key in "${text}"`);
  void env;
}

/** A CSV made in the terminal, Batch-Add People from its explorer menu, into Head Office: the confirmation names the folder. */
async function batchNamesFolder(page: Page): Promise<void> {
  await page.keyboard.press('Control+Backquote');
  const terminal = page.locator('.terminal-wrapper textarea, .xterm-helper-textarea').first();
  await terminal.waitFor({ timeout: 15_000 });
  await page.waitForTimeout(1_000);
  await terminal.focus();
  await page.keyboard.type(`printf 'GivenName,Surname,Email\\nAda,Lovelace,ada.ui@example.com\\n' > ui-batch.csv\n`);
  await page.keyboard.press('Control+Backquote');
  await page.keyboard.press('Control+Shift+E');
  const file = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'ui-batch.csv' }).first();
  await file.waitFor({ timeout: 15_000 });
  await fromMenu(page, file, 'Batch-Add People from File');
  const folder = pick(page, 'Head Office');
  await folder.waitFor({ timeout: 10_000 });
  await folder.click();
  const use = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Use Head Office' }).first();
  await use.waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  const dialog = page.locator('.monaco-dialog-box').first();
  await dialog.waitFor({ timeout: 10_000 });
  const text = (await dialog.innerText()).replace(/\s+/g, ' ');
  await page.keyboard.press('Escape'); // nothing is sent
  if (!text.includes('to "Head Office" on')) throw new Error(`the confirmation says "${text}"`);
  if (/\b[0-9a-f]{24}\b/.test(text)) throw new Error(`a key in "${text}"`);
  await page.keyboard.press('Control+Shift+E'); // back to the OMS view
}

/**
 * A failure's first line, and for Playwright's time-outs the locator it waited for (its call log's
 * first step): CI keeps only the summary, and "Timeout 10000ms exceeded" alone does not say which wait.
 */
function firstLines(message: string): string {
  // The call log comes dimmed, in colour codes.
  const [first, ...rest] = stripVTControlCharacters(message).split('\n');
  // What it waited for, and the last reason it gave for waiting on (a click's "… intercepts pointer events").
  const waited = rest.find((l) => /^\s*- waiting for /.test(l));
  const why = [...rest].reverse().find((l) => /intercepts pointer events|not visible|not stable|not enabled|outside of the viewport|detached/.test(l));
  return [first, waited, why]
    .filter(Boolean)
    .map((l) => l!.trim().replace(/^- /, ''))
    .join(' ');
}

export async function runUiChecks(page: Page, env: Env, diag: string): Promise<UiCheck[]> {
  const uiEnv = { ...env, OMS_UI_DIAG: diag };
  const checks: Array<[string, () => Promise<void>]> = [
    ['ui: invite from the tree with mouse and keyboard; a bad address is flagged as typed', () => inviteFromTree(page, env)],
    ['ui: a refused token is reported with Sign In and Show Log; nothing is sent', () => refusedTokenOffersSignIn(page, env, diag)],
    ['ui: edit a scanner priority from the tree with the keyboard; the server holds it', () => editPriorityFromTree(page, env)],
    [
      'ui: with auto-save on, an edit and a 3 s pause send nothing; Ctrl+S sends one PUT; Ctrl+Z then undoes the edit',
      () => autoSaveHeldThenCtrlS(page, uiEnv),
    ],
    ['ui: a Notes edit is flagged while typing and Ctrl+S is refused with "Add Note…"', () => notesEditRefused(page, uiEnv)],
    ['ui: a rename moves the tab title', () => renameMovesTab(page, uiEnv)],
    [
      'ui: a new draft is not created by auto-save; Ctrl+S creates it; the breadcrumb names folder and object, no key; Ctrl+S again updates it',
      () => draftCreatedOnlyByCtrlS(page, uiEnv),
    ],
    ['ui: a production connection asks before a save; Cancel sends nothing', () => productionAsksFirst(page, uiEnv)],
    ['ui: Show Save History, Restore: the server holds the earlier version again', () => restoreFromHistory(page, uiEnv)],
    [
      'ui: Ctrl+Alt+O finds an object in a folder never expanded; Enter opens it; in Go to Object…, typing, the object opened last comes first',
      () => goToObjectCheck(page, env, diag),
    ],
    [
      'ui: Ctrl+Alt+O opened right after Escape keeps every character typed at once, eight times of eight, none in the editor behind; Enter opens the object',
      () => goToObjectKeepsTyping(page, env, diag),
    ],
    ['ui: Ctrl+click an ObjectLinks Href in a scanner lands on the linked site', () => ctrlClickLink(page, env)],
    ["ui: edit a priority in the table with the keyboard, Ctrl+S; the server's version goes up", () => tableCheck(page, env, diag)],
    ["ui: add a note from the object's menu and delete it from the tree", () => notesCheck(page, env)],
    ['ui: Copy as cURL, pasted into a terminal with TOKEN set, returns the object', () => curlCheck(page, env, diag)],
    ['ui: the push notification summary names the folder', () => pushNamesFolder(page, env)],
    ['ui: the batch-add confirmation names the folder', () => batchNamesFolder(page)],
  ];
  const ownTitles = new Set(checks.map(([title]) => title));
  checks.push(...areas.flatMap((area) => area(page, uiEnv, diag)));
  // OMS_UI_GREP (a regular expression) runs only the checks whose title matches it (development; CI runs all).
  const grep = process.env.OMS_UI_GREP ? new RegExp(process.env.OMS_UI_GREP) : undefined;
  const results: UiCheck[] = [];
  for (const [title, check] of checks.filter(([title]) => !grep || grep.test(title))) {
    try {
      // Each area's check starts from the same window: no editors, the tree collapsed to the root's
      // groups (what one check leaves open, such as a group of 113 scanners, must not hide another's
      // rows). The checks above them run in sequence from the state the Mocha suites leave.
      if (!ownTitles.has(title)) {
        await page.keyboard.press('Escape');
        await treeFromTop(page);
      }
      await check();
      results.push({ title, ok: true });
    } catch (e) {
      const shot = `${diag}/ui-failed-${results.length + 1}.png`;
      await page.screenshot({ path: shot }).catch(() => undefined);
      results.push({ title, ok: false, message: `${firstLines((e as Error).message)} (screenshot ${shot})` });
      await page.keyboard.press('Escape').catch(() => undefined);
    }
  }
  return results;
}
