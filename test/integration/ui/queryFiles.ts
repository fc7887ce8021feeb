// A query file where a person uses it: the demo's queries.omsq opened with Ctrl+P, a bad character typed (the
// squiggle and the Problems view say so, and go when it goes), a query extended with completion by keyboard (its
// kind on the scope line, a nested field, then an enum value), and its "Run Query" CodeLens clicked: the results counted as REST counts them,
// read over the kinds its scope line names.
import * as fs from 'fs';
import * as path from 'path';
import type { Page } from 'playwright-core';
import { demoQueryFile, demoQueryFileName } from '../../../scripts/demoQueries';
import { resultsFrame } from './query';
import { closeFind, cursorAfter, get, input, menuItem, palette, until, type Env, type UiCheckList } from './helpers';

const editor = (page: Page) => page.locator('.editor-group-container.active .monaco-editor').first();
const lineWith = (page: Page, text: string) => editor(page).locator('.view-line', { hasText: text }).first();
const suggestion = (page: Page, text: string | RegExp) => page.locator('.suggest-widget.visible .monaco-list-row', { hasText: text }).first();

/** Every input scanner of a folder and its subfolders over REST. */
async function scannersBelow(env: Env, folderKey: string): Promise<any[]> {
  const folders = [folderKey];
  for (let i = 0; i < folders.length; i++) for (const f of await get(env, `/api/f/${folders[i]}/folders?pageSize=1000`)) folders.push(f.Key);
  const out: any[] = [];
  for (const f of folders) out.push(...(await get(env, `/api/f/${f}/inputscanners?pageSize=1000`)));
  return out;
}

/** The CodeLens named `title` just above the line holding `text` (lenses are drawn in a zone above their line). */
async function lensAbove(page: Page, text: string, title: string) {
  const line = await lineWith(page, text).boundingBox();
  if (!line) throw new Error(`no line with ${text}`);
  const lenses = editor(page).locator('.codelens-decoration a', { hasText: title });
  let best: { i: number; y: number } | undefined;
  for (let i = 0; i < (await lenses.count()); i++) {
    const box = await lenses.nth(i).boundingBox();
    if (box && box.y < line.y && (!best || box.y > best.y)) best = { i, y: box.y };
  }
  if (!best) throw new Error(`no "${title}" lens above ${text}`);
  return lenses.nth(best.i);
}

async function queryFileRuns(page: Page, env: Env, diag: string): Promise<void> {
  fs.writeFileSync(path.join(env.OMS_WORKSPACE, demoQueryFileName), demoQueryFile);
  await palette(page, 'View: Close All Editors');
  await page.keyboard.press('Control+p');
  await input(page).waitFor({ timeout: 5_000 });
  await input(page).fill(demoQueryFileName);
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: demoQueryFileName }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  // The file in the editor, in its language (the status bar names it).
  await lineWith(page, 'People without an e-mail address').waitFor({ timeout: 20_000 });
  await page.locator('.statusbar-item', { hasText: 'OMS Query' }).first().waitFor({ timeout: 10_000 });
  await editor(page).locator('.codelens-decoration a', { hasText: 'Run Query' }).first().waitFor({ timeout: 20_000 });
  const lenses = await editor(page).locator('.codelens-decoration a', { hasText: 'Run Query' }).count();
  if (lenses !== 4) throw new Error(`${lenses} "Run Query" lenses, the file has 4 queries`);
  if ((await editor(page).locator('.squiggly-error, .squiggly-warning').count()) !== 0) throw new Error("the demo's file shows a problem");

  // A bad character typed: an error under it, in the Problems view too; Backspace takes both away.
  await editor(page).locator('.view-lines').first().click();
  await cursorAfter(page, '!SiteReference');
  await page.keyboard.type(']');
  const squiggle = editor(page).locator('.squiggly-error').first();
  await squiggle.waitFor({ timeout: 10_000 });
  await page.keyboard.press('Control+Shift+M');
  const problem = page.locator('.markers-panel .monaco-list-row', { hasText: 'The query is not valid' }).first();
  await problem.waitFor({ timeout: 10_000 });
  await page.screenshot({ path: `${diag}/ui-query-file-problem.png` });
  await editor(page).locator('.view-lines').first().click();
  await cursorAfter(page, '!SiteReference]');
  await page.keyboard.press('Backspace');
  await squiggle.waitFor({ state: 'detached', timeout: 10_000 });
  await problem.waitFor({ state: 'detached', timeout: 10_000 });
  await palette(page, 'View: Hide Panel');

  // Completion by keyboard, in the scanners' section: its kind on the scope line above the query, then a nested
  // field of the reporting priorities, then an enum value.
  await editor(page).locator('.view-lines').first().click();
  await cursorAfter(page, '< `8`');
  await closeFind(page).catch(() => undefined);
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('End');
  for (let i = 0; i < 'inputScanner'.length; i++) await page.keyboard.press('Backspace');
  await page.keyboard.type('inp', { delay: 20 });
  await page.keyboard.press('Control+Space');
  await suggestion(page, 'inputScanner').waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  await until(
    'the kind completed on its scope line',
    async () =>
      (await editor(page)
        .locator('.view-line', { hasText: /^#\skinds:\sinputScanner$/ })
        .count()) === 2,
  );
  await cursorAfter(page, '< `8`');
  await closeFind(page).catch(() => undefined);
  await page.keyboard.type(' && InputScannerReportingPriorities[?Stat', { delay: 20 });
  await suggestion(page, 'StatusCode').waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  await lineWith(page, '[?StatusCode]').waitFor({ timeout: 5_000 });
  await page.keyboard.type(' == ', { delay: 20 });
  await suggestion(page, 'open circuit').waitFor({ timeout: 10_000 });
  for (let i = 0; i < 10 && !(await page.locator('.suggest-widget.visible .monaco-list-row.focused', { hasText: 'open circuit' }).count()); i++)
    await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const query = 'length(InputScannerReportingPriorities[?Priority > `0`]) < `8` && InputScannerReportingPriorities[?StatusCode == `4`]';
  await lineWith(page, query).waitFor({ timeout: 5_000 });
  // The squiggle of the text while it was typed ("[?StatusCode == ]") goes with the next check of the file.
  await until('no problem in the completed query', async () => (await editor(page).locator('.squiggly-error, .squiggly-warning').count()) === 0);

  // Its "Run Query" lens: Find Objects Where… runs it over the input scanners of the instance and its subfolders.
  const scanners = await scannersBelow(env, (await get(env, '/api')).Key);
  const expected = scanners.filter(
    (s) =>
      s.InputScannerReportingPriorities.filter((r: any) => r.Priority > 0).length < 8 && s.InputScannerReportingPriorities.some((r: any) => r.StatusCode === 4),
  ).length;
  await (await lensAbove(page, 'length(', 'Run Query')).click();
  const frame = await resultsFrame(page);
  const said = await until(
    'the results counted',
    async () => {
      const t = await frame.locator('#progress').innerText();
      return /matched of/.test(t) && !/reading/.test(t) && t;
    },
    30_000,
  );
  if (!said.startsWith(`${expected} matched of ${scanners.length} read`))
    throw new Error(`the table says "${said}"; REST has ${expected} matching of ${scanners.length} input scanners`);
  const ran = (await frame.locator('#title').innerText()).trim();
  if (ran !== query) throw new Error(`the table ran "${ran}"`);
  await page.screenshot({ path: `${diag}/ui-query-file-run.png` });
}

/** Head Office selected in the tree, New Query File from the view's "…" menu: a file for Head Office, whose lens runs its example there. */
async function newQueryFileForFolder(page: Page, env: Env, diag: string): Promise<void> {
  await palette(page, 'View: Close All Editors');
  const row = page.locator('.part.sidebar .monaco-list-row', { hasText: /^\s*Head Office/ }).first();
  await row.click();
  await page.locator('.pane-header', { hasText: 'Objects' }).first().hover();
  await page.locator('.pane-header', { hasText: 'Objects' }).first().locator('.action-label.codicon-toolbar-more').first().click();
  await menuItem(page, 'New Query File');
  await lineWith(page, '# folder: Head Office').waitFor({ timeout: 15_000 });
  await editor(page).locator('.codelens-decoration a', { hasText: 'Run Query' }).first().waitFor({ timeout: 20_000 });
  await (await lensAbove(page, 'InputScannerReportingPriorities[?Priority', 'Run Query')).click({ timeout: 20_000 });
  const root = await get(env, '/api');
  const head = (await get(env, `/api/f/${root.Key}/folders`)).find((f: any) => f.CommonName === 'Head Office');
  const scanners = await scannersBelow(env, head.Key);
  const expected = scanners.filter((s) => s.InputScannerReportingPriorities.some((r: any) => r.Priority === 1 && r.StatusCode === 4)).length;
  const frame = await resultsFrame(page);
  const said = await until(
    'the results counted',
    async () => {
      const t = await frame.locator('#progress').innerText();
      return /matched of/.test(t) && !/reading/.test(t) && t;
    },
    30_000,
  );
  if (!said.startsWith(`${expected} matched of ${scanners.length} read`))
    throw new Error(`the table says "${said}"; REST has ${expected} matching of ${scanners.length} input scanners in Head Office and below`);
  await page.screenshot({ path: `${diag}/ui-new-query-file.png` });
  await palette(page, 'View: Close All Editors');
}

export const queryFileChecks: UiCheckList = (page, env, diag) => [
  [
    "Query file: the demo's queries.omsq opened; a bad character squiggled and in Problems; " +
      'completion by keyboard (its kind, a nested field, an enum value); its Run Query lens runs it, counted as REST counts it',
    () => queryFileRuns(page, env, diag),
  ],
  [
    "Query file: New Query File from the Objects view's … menu with Head Office selected names Head Office; its lens runs there, counted as REST counts it",
    () => newQueryFileForFolder(page, env, diag),
  ],
];
