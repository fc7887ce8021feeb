// Find Objects Where… where a person sees it: the palette, a query typed with the box's completion (a nested field
// of the reporting priorities, then an enum value), the results counted against REST, a row opened.
import type { Page } from 'playwright-core';
import { activeTabText, get, hasFocus, palette, until, type Env, type UiCheckList } from './helpers';

/** The query box itself, by its placeholder: the palette's box, closing as it opens, must not take the keys. */
const boxSelector = '.quick-input-widget input[placeholder^="A JMESPath query"]';
const box = (page: Page) => page.locator(boxSelector).first();
const row = (page: Page, text: string | RegExp) => page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();

/** Every scanner of the instance with a row reporting `status`, read over REST. */
async function scannersWithStatus(env: Env, status: number): Promise<any[]> {
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

async function queryWithCompletion(page: Page, env: Env, diag: string): Promise<void> {
  await palette(page, 'View: Close All Editors');
  await palette(page, 'Find Objects Where…');
  await until('the focus in the query box', () => hasFocus(page, boxSelector));
  await type(page, 'InputScannerReportingPriorities[?Stat');
  // The nested field offered by completion, chosen by keyboard: down to it, Enter inserts it.
  await row(page, 'StatusCode').waitFor({ timeout: 10_000 });
  for (let i = 0; i < 10 && !(await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'StatusCode' }).count()); i++)
    await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await until('StatusCode inserted', async () => (await box(page).inputValue()) === 'InputScannerReportingPriorities[?StatusCode');
  await type(page, ' == ');
  // The enum's values with their labels: "Supervisory fault, open circuit" is `4`.
  await row(page, 'open circuit').click();
  await until('`4` inserted', async () => (await box(page).inputValue()) === 'InputScannerReportingPriorities[?StatusCode == `4`');
  await row(page, /Column \d+/).waitFor({ timeout: 5_000 }); // unclosed: the problem and its column are shown
  await type(page, ']');
  await row(page, 'Run the query').click();
  const expected = (await scannersWithStatus(env, 4)).length;
  const title = page.locator('.quick-input-widget .quick-input-title').first();
  const said = await until(
    'the results counted',
    async () => {
      const t = await title.innerText().catch(() => '');
      return /matched of/.test(t) && !/reading/.test(t) && t;
    },
    30_000,
  );
  if (!said.startsWith(`${expected} matched of`)) throw new Error(`the box says "${said}", REST has ${expected} scanners reporting status 4`);
  await page.screenshot({ path: `${diag}/readme-find-objects.png` });
  const name = (await page.locator('.quick-input-list .monaco-list-row .label-name').first().innerText()).trim();
  await page.keyboard.press('Enter');
  await until(`tab "${name}"`, async () => (await activeTabText(page)).includes(name), 15_000);
}

export const queryChecks: UiCheckList = (page, env, diag) => [
  [
    'Find Objects Where…: a query typed with completion (nested field, enum value), results counted as REST counts them, a row opened',
    () => queryWithCompletion(page, env, diag),
  ],
];
