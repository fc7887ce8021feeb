// Everyday command flows where a person sees them (priorities table keys, push steps, Batch-Add, Load all,
// Sign Out): each check uses mouse and keyboard, and reads the result from the sandbox or the screen.
import type { Frame, Locator, Page } from 'playwright-core';
import {
  pick,
  fromMenu,
  get,
  send,
  until,
  input,
  palette,
  floors,
  goToObject,
  notification,
  rootSite,
  openSiteEditor,
  cursorAfter,
  typeEdit,
  revertActive,
  activeTabDirty,
  type Env,
  type UiCheckList,
  quickEditFirstPriority,
  pushToSummary,
} from './helpers';

const tree = (page: Page) => page.locator('.part.sidebar .monaco-list-row');

/**
 * The Objects view in front, as a person would bring it: the side bar shown (Ctrl+B) if a check hid
 * it, the OMS activity-bar item only when another container is in front (a second click would hide
 * the side bar), and the Objects section expanded.
 */
async function showObjects(page: Page): Promise<void> {
  // The connection's row (the Explorer has level-1 rows too).
  const connection = tree(page)
    .filter({ hasText: /^\s*Sandbox/ })
    .and(page.locator('[aria-level="1"]'))
    .first();
  if (await connection.isVisible().catch(() => false)) return;
  if (
    !(await page
      .locator('.part.sidebar')
      .isVisible()
      .catch(() => false))
  )
    await page.keyboard.press('Control+b');
  const header = page.locator('.part.sidebar .pane-header', { hasText: /^\s*Objects/ }).first();
  if (!(await header.isVisible().catch(() => false))) {
    await page.locator('.part.activitybar .action-item a[aria-label^="OMS"], .part.activitybar .action-item[aria-label^="OMS"]').first().click();
  }
  if ((await header.getAttribute('aria-expanded').catch(() => null)) === 'false') await header.click();
  // A tree scrolled down (a row revealed deep in a long group) draws the connection's row only as a sticky
  // header, which is not a row of the list: Collapse All brings the real one back, as a person would.
  if (
    !(await connection.waitFor({ timeout: 2_000 }).then(
      () => true,
      () => false,
    ))
  )
    await collapseAll(page);
  await connection.waitFor({ timeout: 10_000 });
}

/** The Objects view's Collapse All (in the view's title, or its section header when the container holds more views). */
export async function collapseAll(page: Page): Promise<void> {
  const header = page.locator('.sidebar .pane-header', { hasText: 'Objects' }).first();
  if (await header.isVisible().catch(() => false)) await header.hover();
  await page.locator('.sidebar .action-label[aria-label="Collapse All"]').first().click();
}

/** Collapse All, then open the connection and its instance: the root's folders and kinds show at level 3. */
export async function treeFromTop(page: Page): Promise<void> {
  await showObjects(page);
  await palette(page, 'View: Close All Editors');
  const dontSave = page.locator('.monaco-dialog-box .monaco-button', { hasText: "Don't Save" }).first();
  while (
    await dontSave.waitFor({ timeout: 1_000 }).then(
      () => true,
      () => false,
    )
  )
    await dontSave.click();
  await collapseAll(page);
  for (const label of ['Sandbox', 'Demo Instance']) {
    const row = tree(page).filter({ hasText: label }).first();
    await row.waitFor({ timeout: 15_000 });
    // A click toggles: only a collapsed row is clicked, and again if the click came before the row was drawn.
    await until(`${label} expanded`, async () => {
      if ((await row.getAttribute('aria-expanded')) === 'true') return true;
      await row.click();
      await page.waitForTimeout(300);
      return (await row.getAttribute('aria-expanded')) === 'true';
    });
  }
}

/** 26.8: Load all on a group of more than a page, a quick edit of one scanner: the group keeps all it loaded. */
async function loadAllKeptAfterSave(page: Page, env: Env): Promise<void> {
  const root = await get(env, '/api');
  const warehouse = (await get(env, `/api/f/${root.Key}/folders`)).find((f: any) => f.CommonName === 'Warehouse');
  const at = `/api/f/${warehouse.Key}/inputscanners`;
  const [model] = await get(env, at);
  const { Key: _k, Href: _h, ConcurrencyVersion: _v, Notes: _n, Links: _l, ...body } = model;
  for (let i = 0; i < 110; i++) await send(env, 'POST', at, { ...body, ObjectLinks: [], CommonName: `Load All Check ${i}` });
  const all: any[] = await get(env, `${at}?pageSize=1000`);
  try {
    await treeFromTop(page);
    const folder = tree(page)
      .filter({ hasText: /^\s*Warehouse/ })
      .first();
    await folder.click();
    const group = tree(page)
      .filter({ hasText: /^\s*Input scanners/ })
      .and(page.locator('[aria-level="4"]'))
      .first();
    await group.waitFor({ timeout: 10_000 });
    await group.hover();
    await group.locator('.action-label[aria-label^="Refresh"]').click(); // loaded before the scanners were added
    await group.hover();
    await group.locator('.action-label[aria-label^="Load All"]').click();
    await page.mouse.move(900, 500); // away from the row: its description shows again
    const count = () =>
      group
        .locator('.label-description')
        .innerText()
        .catch(() => '');
    await until(`the group to say ${all.length}`, async () => (await count()).trim() === String(all.length), 15_000);
    if ((await group.getAttribute('aria-expanded')) !== 'true') await group.locator('.monaco-tl-twistie').click();
    // The group's first row (always drawn): other checks may have added scanners above the ones added here.
    const scanner = all[0];
    const row = tree(page).filter({ hasText: scanner.CommonName }).first();
    await row.waitFor({ timeout: 10_000 });
    await fromMenu(page, row, 'Edit Scanner Priorities');
    await quickEditFirstPriority(page, (scanner.InputScannerReportingPriorities[0].Priority + 1) % 10);
    await until('the quick edit saved', async () => (await get(env, `${at}/${scanner.Key}`)).ConcurrencyVersion === scanner.ConcurrencyVersion + 1);
    await page.mouse.move(900, 500);
    await page.waitForTimeout(2_000); // the group is updated after the save
    const said = (await count()).trim();
    if (said !== String(all.length)) throw new Error(`after the save the group says "${said}", not all ${all.length} loaded`);
    if (await tree(page).filter({ hasText: 'Load more…' }).count()) throw new Error('"Load more…" is back after the save');
  } finally {
    for (const o of all) if (o.CommonName.startsWith('Load All Check')) await send(env, 'DELETE', `${at}/${o.Key}`);
  }
}

async function prioritiesFrame(page: Page): Promise<Frame> {
  let frame: Frame | undefined;
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
  return frame!;
}

/** 26.6: Up and Down in the Status column move between rows and change nothing; typing picks a status. */
async function statusArrowsMove(page: Page, env: Env): Promise<void> {
  const { floor1 } = await floors(env);
  const [scanner] = await get(env, `/api/f/${floor1.Key}/inputscanners`);
  await goToObject(page, scanner.CommonName);
  await palette(page, 'OMS: Open Priorities Table');
  const frame = await prioritiesFrame(page);
  const statuses = async () => Promise.all((await frame.locator('#rows select').all()).map((s) => s.inputValue()));
  const before = await statuses();
  await frame.locator('#rows tr').nth(0).locator('input.priority').click();
  await page.keyboard.press('Tab'); // to the first row's status
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowDown');
  const focused = (await frame.locator(':focus').getAttribute('aria-label')) ?? '';
  if (!focused.startsWith('Status of row 3')) throw new Error(`the arrows led to "${focused}", not row 3's status`);
  const after = await statuses();
  if (JSON.stringify(after) !== JSON.stringify(before)) throw new Error(`the arrows changed the statuses: ${before.join(',')} -> ${after.join(',')}`);
  if (await frame.locator('#rows .changed').count()) throw new Error('a cell is marked changed after moving with the arrows');
  // Typing changes the status: the first code other than row 3's.
  const other = ['0', '1', '2', '3'].find((c) => c !== before[2])!;
  await page.keyboard.type(other);
  await until('the typed status', async () => (await statuses())[2] === other, 3_000);
  await frame.locator('#rows tr').nth(2).locator('select.changed').waitFor({ timeout: 3_000 });
  await frame.locator('#revert').click();
  await page.keyboard.press('Control+W');
  if ((await get(env, `/api/f/${floor1.Key}/inputscanners/${scanner.Key}`)).ConcurrencyVersion !== scanner.ConcurrencyVersion)
    throw new Error('something was sent');
}

/**
 * 26.12 and the wizard way: Send Push Notification from a folder's menu counts its steps without a
 * jump; naming nobody, the summary warns and Enter there sends nothing; Send without recipients sends.
 */
async function pushWarnsWithoutRecipients(page: Page, env: Env): Promise<void> {
  const message = `Nobody named ${Date.now()}`;
  const row = tree(page)
    .filter({ hasText: /^\s*Floor 2/ })
    .first();
  if (!(await row.isVisible())) {
    await treeFromTop(page);
    await tree(page)
      .filter({ hasText: /^\s*Head Office/ })
      .first()
      .click();
  }
  await row.waitFor({ timeout: 15_000 });
  await fromMenu(page, row, 'Send Push Notification');
  await pushToSummary(page, message);
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'No recipients and no event recipients' }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter'); // on the warning: refused, and said so
  await page
    .locator('.quick-input-widget .quick-input-titlebar', { hasText: /no one is named/ })
    .first()
    .waitFor({ timeout: 5_000 });
  const outbox = async () => JSON.stringify(await get(env, '/sandbox/outbox'));
  if ((await outbox()).includes(message)) throw new Error('Enter on the summary sent a notification that names nobody');
  await page.keyboard.press('ArrowDown'); // to "Send without recipients", as a keyboard user would
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Send without recipients' }).first().waitFor({ timeout: 5_000 });
  await page.keyboard.press('Enter');
  await until('the push in the outbox', async () => (await outbox()).includes(message));
}

/** Types a command into a terminal (opened and closed with Ctrl+`): files made as a person would. */
async function inTerminal(page: Page, line: string): Promise<void> {
  await page.keyboard.press('Control+Backquote');
  const terminal = page.locator('.terminal-wrapper textarea, .xterm-helper-textarea').first();
  await terminal.waitFor({ timeout: 15_000 });
  await page.waitForTimeout(1_000);
  await terminal.focus();
  await page.keyboard.type(`${line}\n`);
  await page.waitForTimeout(500);
  await page.keyboard.press('Control+Backquote');
}

/** Explorer, right-click the file, Batch-Add People from File. */
async function batchAddFromExplorer(page: Page, file: string): Promise<void> {
  await page.keyboard.press('Control+Shift+E');
  const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: file }).first();
  await row.waitFor({ timeout: 15_000 });
  await fromMenu(page, row, 'Batch-Add People from File');
}

async function intoHeadOffice(page: Page): Promise<void> {
  const folder = pick(page, 'Head Office');
  await folder.waitFor({ timeout: 10_000 });
  await folder.click();
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Use Head Office' }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
}

const peopleNamed = async (env: Env, surname: string) => {
  const root = await get(env, '/api');
  const head = (await get(env, `/api/f/${root.Key}/folders`)).find((f: any) => f.CommonName === 'Head Office');
  return (await get(env, `/api/f/${head.Key}/people?pageSize=1000`)).filter((p: any) => p.Surname === surname);
};

/** Batch-Add People from the explorer on `file` into Head Office: the confirmation dialog and its text. */
async function batchDialog(page: Page, file: string): Promise<{ dialog: Locator; text: string }> {
  await batchAddFromExplorer(page, file);
  await intoHeadOffice(page);
  const dialog = page.locator('.monaco-dialog-box').first();
  await dialog.waitFor({ timeout: 10_000 });
  return { dialog, text: (await dialog.innerText()).replace(/\s+/g, ' ') };
}

/**
 * 26.9 and 26.4: a CSV with the same person twice and a blank row: the duplicate is flagged and not
 * sent, the blank row is said; the person added is found by Go to Object at once.
 */
async function batchFlagsDuplicatesAndFindsAtOnce(page: Page, env: Env): Promise<void> {
  const stamp = Date.now().toString(36);
  const surname = `Dupe${stamp}`;
  const { floor1 } = await floors(env);
  const [scanner] = await get(env, `/api/f/${floor1.Key}/inputscanners`);
  await goToObject(page, scanner.CommonName); // a full walk of Go to Object first, as in the report
  await palette(page, 'View: Close All Editors');
  await inTerminal(
    page,
    `printf 'GivenName,Surname,Email\\nZed,${surname},zed.${stamp}@example.com\\n\\nZed,${surname},zed.${stamp}@example.com\\n' > ui-dup.csv`,
  );
  const { dialog, text } = await batchDialog(page, 'ui-dup.csv');
  if (!/same e-mail address as line 2/.test(text)) throw new Error(`the duplicate is not flagged: "${text}"`);
  if (!/1 blank row skipped \(line 3\)/.test(text)) throw new Error(`the blank row is not said: "${text}"`);
  await dialog.locator('.monaco-button', { hasText: 'Send the 1 Valid' }).click();
  await until('the person on the server', async () => (await peopleNamed(env, surname)).length === 1);
  await page.waitForTimeout(1_000);
  if ((await peopleNamed(env, surname)).length !== 1) throw new Error('the duplicate row was sent too');
  await showObjects(page);
  await goToObject(page, `Zed ${surname}`);
}

/** 26.5: a Latin-1 CSV: the encoding is asked (each choice shows the line as it reads), the names arrive as written. */
async function latin1AskedNotMangled(page: Page, env: Env): Promise<void> {
  const surname = `M\u00fcller${Date.now().toString(36)}`;
  // \351 is é and \374 ü in Latin-1: the bytes a spreadsheet saving "Latin-1" writes.
  await inTerminal(page, `printf 'Given Name,Surname\\nJos\\351,M\\374ller${surname.slice(6)}\\n' > ui-latin1.csv`);
  await batchAddFromExplorer(page, 'ui-latin1.csv');
  const western = pick(page, 'Western (Windows-1252');
  await western.waitFor({ timeout: 10_000 });
  const shown = (await western.innerText()).replace(/\s+/g, ' ');
  if (!shown.includes(`José,${surname}`)) throw new Error(`the choice shows "${shown}"`);
  await page.keyboard.press('Enter');
  await intoHeadOffice(page);
  const dialog = page.locator('.monaco-dialog-box').first();
  await dialog.waitFor({ timeout: 10_000 });
  await dialog.locator('.monaco-button', { hasText: 'Add 1' }).click();
  const [person] = await until('the person on the server', async () => {
    const p = await peopleNamed(env, surname);
    return p.length ? p : undefined;
  });
  if (person.GivenName !== 'José') throw new Error(`stored as "${person.GivenName} ${person.Surname}"`);
  await showObjects(page);
}

/** 26.10: every row invalid: the dialog does not promise a .people.json file (stopping writes none), and none is written. */
async function allInvalidPromisesNoFile(page: Page): Promise<void> {
  await inTerminal(page, `printf 'Given Name,Surname,Email\\nAda,Lovelace,not-an-address\\n' > ui-bad.csv`);
  const { text } = await batchDialog(page, 'ui-bad.csv');
  await page.keyboard.press('Escape');
  if (/\.people\.json/.test(text)) throw new Error(`the dialog promises a file: "${text}"`);
  if (!/No row can be sent/.test(text)) throw new Error(`the dialog says "${text}"`);
  await page.waitForTimeout(1_000);
  if (await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'ui-bad.failed-' }).count()) throw new Error('a failed-items file was written');
  await showObjects(page);
}

/**
 * Batch-Add of two batches (101 rows, batches of 100): stop or continue is asked once, after the
 * go-ahead; the report's Show Run opens the run's journal with each person by row.
 */
async function batchAsksStopOnceShowsRun(page: Page, env: Env): Promise<void> {
  const stamp = Date.now().toString(36);
  const surname = `Run${stamp}`;
  await inTerminal(page, `(echo GivenName,Surname,Email; for i in $(seq 1 101); do echo "G$i,${surname},g$i.${stamp}@example.com"; done) > ui-run.csv`);
  const { dialog } = await batchDialog(page, 'ui-run.csv');
  await dialog.locator('.monaco-button', { hasText: 'Add 101' }).click();
  const go = pick(page, 'continue after errors');
  await go.waitFor({ timeout: 10_000 });
  await go.click();
  await until('the 101 people on the server', async () => (await peopleNamed(env, surname)).length === 101, 30_000);
  const report = await notification(page, /Added 101 of 101 people from ui-run\.csv/);
  if (await page.locator('.quick-input-widget', { hasText: 'stop at the first error' }).isVisible()) throw new Error('stop or continue asked again');
  await report.locator('.monaco-button', { hasText: 'Show Run' }).first().click();
  const shown = page.locator('.editor-instance .monaco-editor .view-lines').first();
  const text = await until('the run shown', async () => {
    const t = await shown.innerText().catch(() => '');
    // The editor's lines come with non-breaking spaces.
    return /applied\s+G1\sRun\S+\s\(line\s2\)/.test(t) && t;
  });
  await page.screenshot({ path: `${env.OMS_UI_DIAG ?? '.'}/ui-batch-add-show-run.png` }).catch(() => undefined);
  if (!/Add\s101\speople\sfrom\sui-run\.csv\sto\s.*:\s101\sapplied/.test(text)) throw new Error(`the run says "${text.slice(0, 300)}"`);
  if ((await peopleNamed(env, surname)).length !== 101) throw new Error('someone was sent twice');
  await palette(page, 'View: Close All Editors');
  await showObjects(page);
}

/** 26.14: Sign Out from the tree: the folders go at once; a save then says signed out and sends nothing; Sign in brings them back. */
async function signOutShowsAtOnce(page: Page, env: Env): Promise<void> {
  const { at, site } = await rootSite(env);
  await treeFromTop(page);
  await tree(page)
    .filter({ hasText: /^\s*Engage sites/ })
    .and(page.locator('[aria-level="3"]'))
    .first()
    .click();
  await openSiteEditor(page, site.CommonName);
  await cursorAfter(page, '"Tags": [');
  await typeEdit(page, '"signed-out"');
  const connection = tree(page).and(page.locator('[aria-level="1"]')).first();
  await fromMenu(page, connection, 'Sign Out');
  const signIn = tree(page).filter({ hasText: 'Sign in' }).first();
  try {
    await signIn.waitFor({ timeout: 5_000 });
    if (
      await tree(page)
        .filter({ hasText: /^\s*Head Office/ })
        .count()
    )
      throw new Error('the folders are still listed after Sign Out');
    await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+s');
    const said = await notification(page, /signed out|sign-in/);
    const text = (await said.innerText()).replace(/\s+/g, ' ');
    await page.keyboard.press('Escape');
    if (/did not accept/.test(text)) throw new Error(`the save says "${text}"`);
    if (!/Not sent: you are signed out/.test(text)) throw new Error(`the save says "${text}"`);
    if ((await get(env, at)).ConcurrencyVersion !== site.ConcurrencyVersion) throw new Error('the save was sent');
    if (!(await activeTabDirty(page))) throw new Error('the edit was lost');
  } finally {
    // Signed in again whatever happened: a connection left signed out would fail every later check.
    await page.keyboard.press('Escape');
    await signIn.click();
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Paste an access token' }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget input[type="password"]').first().waitFor({ timeout: 10_000 });
    await input(page).fill(env.OMS_SANDBOX_TOKEN);
    await page.keyboard.press('Enter');
    await tree(page)
      .filter({ hasText: /^\s*Head Office/ })
      .first()
      .waitFor({ timeout: 15_000 });
  }
  await revertActive(page);
}

export const commandFlowChecks: UiCheckList = (page, env) => [
  ["ui: commands: Up and Down in the priorities table's Status column move between rows; typing picks a status", () => statusArrowsMove(page, env)],
  [
    'ui: commands: Send Push Notification counts 6 steps throughout; naming nobody, it warns and Enter sends nothing',
    () => pushWarnsWithoutRecipients(page, env),
  ],
  [
    'ui: commands: Batch-Add flags a second row with the same e-mail and says the blank row; Go to Object finds the person at once',
    () => batchFlagsDuplicatesAndFindsAtOnce(page, env),
  ],
  ['ui: commands: a Latin-1 CSV asks its encoding, showing the line as each reads; the names arrive as written', () => latin1AskedNotMangled(page, env)],
  ['ui: commands: Batch-Add with every row invalid promises no .people.json file and writes none', () => allInvalidPromisesNoFile(page)],
  [
    'ui: commands: Batch-Add of two batches asks stop or continue once; Show Run from its report lists each person by row',
    () => batchAsksStopOnceShowsRun(page, env),
  ],
  ['ui: commands: Load all on a group, a quick edit of one scanner: the group keeps all it loaded', () => loadAllKeptAfterSave(page, env)],
  // Last: it signs the connection out (and in again, also when it fails).
  ['ui: commands: Sign Out empties the tree at once; a save then says signed out and sends nothing', () => signOutShowsAtOnce(page, env)],
];
