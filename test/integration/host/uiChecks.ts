// Checks made as a person would, in the page after the Mocha run: mouse and
// keyboard only, the result read from the sandbox. Each one counts as a test.
import type { Page } from 'playwright-core';

export interface UiCheck {
  title: string;
  ok: boolean;
  message?: string;
}

type Env = Record<string, string>;

async function get(env: Env, path: string): Promise<any> {
  const res = await fetch(env.OMS_SANDBOX_URL + path, { headers: { Authorization: `Bearer ${env.OMS_SANDBOX_TOKEN}` } });
  return res.json();
}

const outbox = async (env: Env) => JSON.stringify(await get(env, '/sandbox/outbox'));

/** Chooses an entry of the open context menu as a keyboard user would: point at it, Enter. */
async function menuItem(page: Page, label: string): Promise<void> {
  const item = page.locator('.context-view .action-menu-item', { hasText: label }).first();
  await item.waitFor({ timeout: 10_000 });
  await item.hover();
  await page.waitForTimeout(200);
  await page.keyboard.press('Enter');
}

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
  await site.click({ button: 'right' });
  await menuItem(page, 'Invite User to Engage Site');
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ timeout: 10_000 });
  await input.pressSequentially('not-an-address');
  const complaint = page.locator('.quick-input-widget .quick-input-message');
  await complaint.filter({ hasText: /e-mail|address/i }).first().waitFor({ timeout: 5_000 });
  await input.fill(email);
  await page.keyboard.press('Enter');
  for (let i = 0; i < 40; i++) {
    if ((await outbox(env)).includes(email)) return;
    await page.waitForTimeout(250);
  }
  throw new Error(`${email} did not reach the sandbox's outbox`);
}

/** Right-click the input scanner open in the editor, "Edit Scanner Priorities…", Enter, type a priority, keep the status. */
async function editPriorityFromTree(page: Page, env: Env): Promise<void> {
  const root = await get(env, '/api');
  const head = (await get(env, `/api/f/${root.Key}/folders`)).find((f: any) => f.CommonName === 'Head Office');
  const floor = (await get(env, `/api/f/${head.Key}/folders`)).find((f: any) => f.CommonName === 'Floor 1');
  const [scanner] = await get(env, `/api/f/${floor.Key}/inputscanners`);
  const wanted = (scanner.InputScannerReportingPriorities[0].Priority + 1) % 10;
  await page.locator('.part.sidebar .monaco-list-row', { hasText: scanner.CommonName }).first().click({ button: 'right' });
  await menuItem(page, 'Edit Scanner Priorities');
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ timeout: 10_000 });
  await page.waitForTimeout(500);
  await page.keyboard.press('Enter'); // the first of the eight ranges
  await page.waitForTimeout(500);
  await input.fill(String(wanted)); // its new priority
  await page.keyboard.press('Enter');
  await page.waitForTimeout(500);
  await page.keyboard.press('Enter'); // the status as it is
  for (let i = 0; i < 40; i++) {
    const now = await get(env, `/api/f/${floor.Key}/inputscanners/${scanner.Key}`);
    if (now.InputScannerReportingPriorities[0].Priority === wanted) {
      if (now.ConcurrencyVersion !== scanner.ConcurrencyVersion + 1) throw new Error(`version ${now.ConcurrencyVersion}, expected ${scanner.ConcurrencyVersion + 1}`);
      return;
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`the scanner's first priority did not become ${wanted}`);
}

const input = (page: Page) => page.locator('.quick-input-widget input').first();

async function until(what: string, probe: () => Promise<boolean>, tries = 60): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out: ${what}`);
}

const activeTab = (page: Page) => page.locator('.tabs-container .tab.active').first();

/** F1, wait for the palette (never type into an editor), the command's title, Enter. */
async function palette(page: Page, title: string): Promise<void> {
  for (const keys of ['F1', 'Control+Shift+P', 'F1']) {
    await page.keyboard.press(keys);
    try {
      await input(page).waitFor({ state: 'visible', timeout: 3_000 });
      break;
    } catch {
      await page.keyboard.press('Escape');
    }
  }
  await input(page).fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 5_000 });
  await page.keyboard.press('Enter');
}

async function floors(env: Env): Promise<{ floor1: any; floor2: any }> {
  const root = await get(env, '/api');
  const head = (await get(env, `/api/f/${root.Key}/folders`)).find((f: any) => f.CommonName === 'Head Office');
  const all = await get(env, `/api/f/${head.Key}/folders`);
  return { floor1: all.find((f: any) => f.CommonName === 'Floor 1'), floor2: all.find((f: any) => f.CommonName === 'Floor 2') };
}

/** Ctrl+Alt+O, type part of a name, Enter: the object opens (its folder was never expanded in this window). */
async function goToObject(page: Page, name: string): Promise<void> {
  await page.locator('.monaco-workbench').click({ position: { x: 700, y: 5 } }).catch(() => undefined);
  await page.keyboard.press('Control+Alt+O');
  await input(page).waitFor({ timeout: 10_000 });
  await input(page).pressSequentially(name.split(' ').slice(-2).join(' '));
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
  await row.waitFor({ timeout: 15_000 });
  // The wanted one first: arrow down to it as a keyboard user would.
  await page.waitForTimeout(500);
  for (let i = 0; i < 20 && !((await page.locator('.quick-input-list .monaco-list-row.focused').first().innerText().catch(() => '')).includes(name)); i++) {
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
  const opened = async () => (await activeTab(page).innerText().catch(() => '')).includes(name);
  await until(`tab "${name}"`, opened, 12).catch(async () => {
    // The list was being redrawn as the Enter came: once more, as a person would.
    if (await input(page).isVisible()) await page.keyboard.press('Enter');
    await until(`tab "${name}"`, opened);
  });
}

async function goToObjectCheck(page: Page, env: Env, diag: string): Promise<void> {
  const { floor2 } = await floors(env);
  const [site] = await get(env, `/api/f/${floor2.Key}/engagesites`);
  // For README: several kinds and folders at once.
  await page.keyboard.press('Control+Alt+O');
  await input(page).waitFor({ timeout: 10_000 });
  await input(page).pressSequentially('floor 1');
  await page.locator('.quick-input-list .monaco-list-row').nth(3).waitFor({ timeout: 15_000 });
  await page.waitForTimeout(1_000);
  await page.screenshot({ path: `${diag}/readme-go-to-object.png` });
  await page.keyboard.press('Escape');
  await goToObject(page, site.CommonName);
}

/** Opens the scanner the suite linked to a Floor 2 site, unfolds, Ctrl+clicks the site's Href: the site opens. */
async function ctrlClickLink(page: Page, env: Env): Promise<void> {
  const { floor1, floor2 } = await floors(env);
  const root = await get(env, '/api');
  const warehouse = (await get(env, `/api/f/${root.Key}/folders`)).find((f: any) => f.CommonName === 'Warehouse');
  const scanners = [...await get(env, `/api/f/${warehouse.Key}/inputscanners`), ...await get(env, `/api/f/${floor1.Key}/inputscanners`)];
  const scanner = scanners.find((x: any) => x.ObjectLinks.some((l: any) => l.Relation === 'Site'));
  if (!scanner) throw new Error('no scanner with a Site link (the find-and-follow suite adds it)');
  const link = scanner.ObjectLinks.find((l: any) => l.Relation === 'Site');
  const site = (await get(env, `/api/f/${floor2.Key}/engagesites`)).find((x: any) => x.Key === link.LinkedObjectKey);
  await goToObject(page, scanner.CommonName);
  await page.locator('.monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+J'); // unfold all
  await page.keyboard.press('Control+F');
  await page.keyboard.type('"Relation": "Site"');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await page.waitForTimeout(800);
  const href = page.locator('.monaco-editor .view-line span', { hasText: link.Href }).first();
  await href.waitFor({ timeout: 10_000 });
  await href.click({ modifiers: ['Control'] });
  await until(`tab "${site.CommonName}"`, async () => (await activeTab(page).innerText().catch(() => '')).includes(site.CommonName));
}

/** The priorities table of a scanner: click the first priority, type a new one, Ctrl+S; the server's version goes up. */
async function tableCheck(page: Page, env: Env, diag: string): Promise<void> {
  const { floor1 } = await floors(env);
  const [, scanner] = await get(env, `/api/f/${floor1.Key}/inputscanners`);
  await goToObject(page, scanner.CommonName);
  await palette(page, 'OMS: Open Priorities Table');
  let frame = undefined as import('playwright-core').Frame | undefined;
  await until('the table', async () => {
    for (const f of page.frames()) if ((await f.locator('#rows tr').count().catch(() => 0)) === 8) frame = f;
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
  if (now.ConcurrencyVersion !== scanner.ConcurrencyVersion + 1) throw new Error(`version ${now.ConcurrencyVersion}, expected ${scanner.ConcurrencyVersion + 1}`);
  await frame!.locator('#version', { hasText: `version ${now.ConcurrencyVersion}` }).waitFor({ timeout: 10_000 });
  await page.screenshot({ path: `${diag}/readme-priorities-table.png` });

  // An edit left unsaved: the tab says so; closing it warns and offers the edit back; nothing was sent.
  const third = frame!.locator('#rows tr').nth(2).locator('input.priority');
  await third.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('9');
  await until('the tab marked unsaved', async () => (await activeTab(page).innerText()).includes('● Priorities'));
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
      if ((await f.locator('#rows tr').nth(2).locator('input.priority').inputValue({ timeout: 500 }).catch(() => '')) === '9') again = f;
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
  const row = page.locator('.part.sidebar .monaco-list-row', { hasText: site.CommonName }).first();
  await row.waitFor({ timeout: 15_000 });
  await row.click({ button: 'right' });
  await menuItem(page, 'Add Note');
  await input(page).waitFor({ timeout: 10_000 });
  await input(page).pressSequentially(text);
  await page.keyboard.press('Enter');
  await until('the note on the server', async () => (await get(env, notesPath)).some((n: any) => n.NoteText === text));
  if ((await row.getAttribute('aria-expanded')) !== 'true') await row.locator('.monaco-tl-twistie').click();
  const note = page.locator('.part.sidebar .monaco-list-row', { hasText: text }).first();
  await note.waitFor({ timeout: 15_000 });
  await note.click({ button: 'right' });
  await menuItem(page, 'Delete Note');
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
  await row.waitFor({ timeout: 15_000 });
  await row.click({ button: 'right' });
  await menuItem(page, 'Copy as cURL');
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
  await until('the cURL output', async () => fs.existsSync(out) && fs.readFileSync(out, 'utf8').trim().endsWith('}'));
  const got = JSON.parse(fs.readFileSync(out, 'utf8'));
  if (got.Key !== site.Key || got.CommonName !== site.CommonName) throw new Error(`the pasted command returned ${JSON.stringify(got).slice(0, 200)}`);
  await page.keyboard.press('Control+Backquote');
}

/** The push notification's summary, reached with the keyboard from a folder's menu, names the folder. */
async function pushNamesFolder(page: Page, env: Env): Promise<void> {
  const row = page.locator('.part.sidebar .monaco-list-row', { hasText: /^\s*Floor 2/ }).first();
  await row.waitFor({ timeout: 15_000 });
  await row.click({ button: 'right' });
  await menuItem(page, 'Send Push Notification');
  for (const answer of ['', '', 'Fire drill at 3 pm', '', '', '', '']) {
    await input(page).waitFor({ timeout: 10_000 });
    await page.waitForTimeout(700);
    if (answer) await input(page).fill(answer);
    await page.keyboard.press('Enter');
  }
  const send = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Send' }).first();
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
  await file.click({ button: 'right' });
  await menuItem(page, 'Batch-Add People from File');
  const folder = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Head Office' }).first();
  await folder.waitFor({ timeout: 10_000 });
  await folder.click();
  const use = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Use Head Office' }).first();
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

export async function runUiChecks(page: Page, env: Env, diag: string): Promise<UiCheck[]> {
  const checks: Array<[string, () => Promise<void>]> = [
    ['ui: invite from the tree with mouse and keyboard; a bad address is flagged as typed', () => inviteFromTree(page, env)],
    ['ui: edit a scanner priority from the tree with the keyboard; the server holds it', () => editPriorityFromTree(page, env)],
    ['ui: Go to Object (Ctrl+Alt+O) finds an object in a folder never expanded; Enter opens it', () => goToObjectCheck(page, env, diag)],
    ['ui: Ctrl+click an ObjectLinks Href in a scanner lands on the linked site', () => ctrlClickLink(page, env)],
    ['ui: edit a priority in the table with the keyboard, Ctrl+S; the server\'s version goes up', () => tableCheck(page, env, diag)],
    ['ui: add a note from the object\'s menu and delete it from the tree', () => notesCheck(page, env)],
    ['ui: Copy as cURL, pasted into a terminal with TOKEN set, returns the object', () => curlCheck(page, env, diag)],
    ['ui: the push notification summary names the folder', () => pushNamesFolder(page, env)],
    ['ui: the batch-add confirmation names the folder', () => batchNamesFolder(page)],
  ];
  const results: UiCheck[] = [];
  for (const [title, check] of checks) {
    try {
      await check();
      results.push({ title, ok: true });
    } catch (e) {
      const shot = `${diag}/ui-failed-${results.length + 1}.png`;
      await page.screenshot({ path: shot }).catch(() => undefined);
      results.push({ title, ok: false, message: `${(e as Error).message.split('\n')[0]} (screenshot ${shot})` });
      await page.keyboard.press('Escape').catch(() => undefined);
    }
  }
  return results;
}
