// Find Objects Where… where a person sees it: the palette, a query typed with the box's completion (a nested field
// of the reporting priorities, then an enum value); the results table counted against REST, sorted and a row opened
// by keyboard and revealed in the tree from its menu; the results sent to Bulk Edit (its preview, the run, Undo Run); a scanner changed over REST coming
// into the results and leaving them within a live interval, the keys typed meanwhile into the palette staying there.
import type { Frame, Page } from 'playwright-core';
import { applyAll, undoRunPreview } from './bulk';
import { focusWindow, setInterval } from './live';
import { pick, get, hasFocus, revealedInTree, waitForTitle, input, palette, pickTyped, send, until, type Env, type UiCheckList } from './helpers';

/** The query box itself, by its placeholder: the palette's box, closing as it opens, must not take the keys. */
const boxSelector = '.quick-input-widget input[placeholder^="A JMESPath query"]';
const box = (page: Page) => page.locator(boxSelector).first();

/** Every scanner of the instance with a row reporting `status`, read over REST. */
export async function scannersWithStatus(env: Env, status: number): Promise<any[]> {
  const root = await get(env, '/api');
  const folders = [root.Key as string];
  for (let i = 0; i < folders.length; i++) for (const f of await get(env, `/api/f/${folders[i]}/folders?pageSize=1000`)) folders.push(f.Key);
  const out: any[] = [];
  for (const f of folders)
    for (const s of await get(env, `/api/f/${f}/inputscanners?pageSize=1000`))
      if (s.InputScannerReportingPriorities.some((r: any) => r.StatusCode === status)) out.push(s);
  return out;
}

/** Types `text` at the end of the box and waits for it there. */
async function type(page: Page, text: string): Promise<void> {
  await box(page).press('End');
  const before = await box(page).inputValue();
  await box(page).pressSequentially(text);
  await until(`"${text}" typed`, async () => (await box(page).inputValue()) === before + text, 5_000);
}

async function queryWithCompletion(page: Page, env: Env, diag: string): Promise<{ frame: Frame; expected: any[] }> {
  await palette(page, 'View: Close All Editors');
  await palette(page, 'Find Objects Where…');
  await until('the focus in the query box', () => hasFocus(page, boxSelector));
  await type(page, 'InputScannerReportingPriorities[?Stat');
  // The nested field offered by completion, chosen by keyboard: down to it, Enter inserts it.
  await pick(page, 'StatusCode').waitFor({ timeout: 10_000 });
  for (let i = 0; i < 10 && !(await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'StatusCode' }).count()); i++)
    await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await until('StatusCode inserted', async () => (await box(page).inputValue()) === 'InputScannerReportingPriorities[?StatusCode');
  await type(page, ' == ');
  // The enum's values with their labels: "Supervisory fault, open circuit" is `4`.
  await pick(page, 'open circuit').click();
  await until('`4` inserted', async () => (await box(page).inputValue()) === 'InputScannerReportingPriorities[?StatusCode == `4`');
  await pick(page, /Column \d+/).waitFor({ timeout: 5_000 }); // unclosed: the problem and its column are shown
  await type(page, ']');
  await pick(page, 'Run the query').click();
  const expected = await scannersWithStatus(env, 4);
  const frame = await resultsFrame(page);
  // The box closes as the table opens: the results are in one place.
  await until('the query box closed', async () => !(await box(page).isVisible()));
  const said = await until(
    'the results counted',
    async () => {
      const t = await frame.locator('#progress').innerText();
      return /matched of/.test(t) && !/reading/.test(t) && t;
    },
    30_000,
  );
  if (!said.startsWith(`${expected.length} matched of`)) throw new Error(`the table says "${said}", REST has ${expected.length} scanners reporting status 4`);
  const rowCount = await frame.locator('#grid').getAttribute('aria-rowcount');
  if (rowCount !== String(expected.length + 1)) throw new Error(`aria-rowcount ${rowCount}, not ${expected.length} rows and the header`);

  // Sorted by Name from the keyboard: the header says so, and the rows are in the order a person reads names.
  await frame.locator('[role="columnheader"] button', { hasText: /^Name$/ }).focus();
  await page.keyboard.press('Enter');
  await until('sorted by Name', async () => (await frame.locator('[role="columnheader"][aria-sort="ascending"]').innerText()) === 'Name');
  const byName = expected.map((s) => String(s.CommonName)).sort(new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' }).compare);
  const shownNames = async () => (await frame.locator('#body [role="row"] [aria-colindex="1"]').allInnerTexts()).map((t) => t.trim());
  const top = (await shownNames()).slice(0, 5);
  if (JSON.stringify(top) !== JSON.stringify(byName.slice(0, 5)))
    throw new Error(`sorted rows ${top.join(', ')}; REST sorted: ${byName.slice(0, 5).join(', ')}`);
  await page.screenshot({ path: `${diag}/readme-query-results.png` });

  // The first row clicked, Down to the second, Enter opens it beside the table.
  await frame.locator('#body [role="row"]').first().click();
  await page.keyboard.press('ArrowDown');
  const second = byName[1];
  const focused = await frame.locator('#body [role="row"]:focus').getAttribute('aria-rowindex');
  if (focused !== '3') throw new Error(`Down led to row index ${focused}, not the second row (3)`);
  await page.keyboard.press('Enter');
  await until(`tab "${second}"`, async () => (await page.locator('.tabs-container .tab.active', { hasText: second }).count()) > 0, 15_000);
  // Back in the table, the first row's menu by keyboard (Shift+F10), Down to Reveal in Tree, Enter: the tree selects it.
  await frame.locator('#body [role="row"]').first().click();
  await page.keyboard.press('Shift+F10');
  await until('the row menu', async () => (await frame.locator('#menu [role="menuitem"]:focus').count()) > 0);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await revealedInTree(page, byName[0]);
  return { frame, expected };
}

/** Bulk Edit of every result (Add a tag), its preview counted against REST, then Undo Run: the tag gone again. */
async function resultsToBulkEdit(page: Page, env: Env, frame: Frame, expected: any[], diag: string): Promise<void> {
  const tag = `results-${Date.now()}`;
  await frame.locator('#bulk').click();
  await waitForTitle(page, 'operation');
  await pickTyped(page, 'Add a tag');
  await waitForTitle(page, 'Add a tag');
  await input(page).fill(tag);
  await page.keyboard.press('Enter');
  const summary = await waitForTitle(page, / to change · /);
  if (!summary.includes(`${expected.length} to change`)) throw new Error(`the preview says "${summary}", the results are ${expected.length}`);
  await page.screenshot({ path: `${diag}/query-results-bulk-preview.png` });
  await applyAll(page);
  const tagged = async () => (await Promise.all(expected.map(async (s) => ((await get(env, s.Href)).Tags ?? []).includes(tag)))).filter(Boolean).length;
  await until(`every result tagged ${tag}`, async () => (await tagged()) === expected.length, 60_000);
  const undo = await undoRunPreview(page, tag);
  if (!undo.includes(`${expected.length} to change`)) throw new Error(`the undo preview says "${undo}"`);
  await applyAll(page);
  await until(`the tag ${tag} gone again`, async () => (await tagged()) === 0, 60_000);
}

/**
 * A result changed over REST to report no status 4 leaves the table within an interval; changed back (and renamed to
 * sort first), it comes into it again, marked new.
 */
async function resultsFollowServer(page: Page, env: Env, frame: Frame, expected: any[], diag: string): Promise<void> {
  const [probe] = expected;
  const rowsNow = async () => Number(await frame.locator('#grid').getAttribute('aria-rowcount')) - 1;
  const named = (name: string) => frame.locator('#body [role="row"]', { hasText: name });
  // The preview's diffs may have opened over the table: its tab brought to the front (a hidden table is not followed).
  await page.locator('.tabs-container .tab', { hasText: 'Results:' }).first().click();
  await focusWindow(page, true);
  const without = probe.InputScannerReportingPriorities.map((r: any) => (r.StatusCode === 4 ? { ...r, StatusCode: 0 } : r));
  // Sorted by Name, "!" first: the row that comes back is the table's first.
  const name = `!Live query ${Date.now()}`;
  try {
    await send(env, 'PUT', probe.Href, { ...(await get(env, probe.Href)), CommonName: name, InputScannerReportingPriorities: without });
    let since = Date.now();
    await until('the result gone', async () => (await rowsNow()) === expected.length - 1, withinOneInterval);
    const left = Date.now() - since;
    if (await named(name).count()) throw new Error('the scanner that stopped matching is still a row');
    // The palette opened from a row of the table as the row comes back: the table drawn anew leaves the keys in the palette.
    await frame.locator('#body [role="row"]').first().click();
    await page.keyboard.press('Control+Shift+P');
    await until('the palette holding the keys', () => hasFocus(page, '.quick-input-widget input'), 5_000);
    await send(env, 'PUT', probe.Href, { ...(await get(env, probe.Href)), InputScannerReportingPriorities: probe.InputScannerReportingPriorities });
    since = Date.now();
    await named(name).waitFor({ timeout: withinOneInterval });
    const came = Date.now() - since;
    await page.keyboard.type('View: Toggle');
    const typed = (await input(page).isVisible()) ? await input(page).inputValue() : '(the palette closed)';
    if (!typed.endsWith('View: Toggle')) throw new Error(`typed "View: Toggle" after the table drew the row anew; the palette holds "${typed}"`);
    await page.keyboard.press('Escape');
    const badge = await named(name).locator('.badge').innerText();
    if (badge !== 'new') throw new Error(`the row that came is marked "${badge}", not "new"`);
    if ((await rowsNow()) !== expected.length) throw new Error(`${await rowsNow()} rows after it came back, not ${expected.length}`);
    await page.screenshot({ path: `${diag}/query-results-live.png` });
    console.log(`query results: a scanner changed over REST left in ${left} ms and came back in ${came} ms (interval ${intervalSeconds} s)`);
  } finally {
    const now = await get(env, probe.Href);
    await send(env, 'PUT', probe.Href, { ...now, CommonName: probe.CommonName, InputScannerReportingPriorities: probe.InputScannerReportingPriorities });
  }
}

/** The results table's page, among the workbench's frames. */
export async function resultsFrame(page: Page): Promise<Frame> {
  let frame: Frame | undefined;
  await until(
    'the results table',
    async () => {
      for (const f of page.frames())
        if (
          (await f
            .locator('#grid #scroller')
            .count()
            .catch(() => 0)) > 0
        )
          frame = f;
      return !!frame;
    },
    15_000,
  );
  return frame!;
}

const intervalSeconds = 2;
/** One interval, a poll, and the workbench drawing it. */
const withinOneInterval = intervalSeconds * 1000 + 4_000;

async function queryResultsAct(page: Page, env: Env, diag: string): Promise<void> {
  await setInterval(page, intervalSeconds);
  const { frame, expected } = await queryWithCompletion(page, env, diag);
  await resultsToBulkEdit(page, env, frame, expected, diag);
  await resultsFollowServer(page, env, frame, expected, diag);
}

export const queryChecks: UiCheckList = (page, env, diag) => [
  [
    'Find Objects Where…: a query typed with completion (nested field, enum value), ' +
      'results in the table counted as REST counts them, sorted, a row opened by keyboard; ' +
      'Bulk Edit of the results and Undo Run; ' +
      'a scanner changed over REST comes into the results and leaves them within an interval, the keys typed into the palette meanwhile staying there',
    () => queryResultsAct(page, env, diag),
  ],
];
