// The query results' other actions where a person meets them: Export JSON and CSV from the toolbar into the save
// dialog (the objects REST lists; a name starting with "=" made inert in the CSV); Columns… adding a reporting
// priority's field and removing the query's own, then sorted by it; Copy Link by Ctrl+C and from the row menu,
// pasted into the terminal; Pull as Files of two selected rows, then of all: exactly those files, and a plan of
// the folder that lists none of the scope's other objects.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { createScanner, palette, send, until, type Env, type UiCheckList } from './helpers';
import { planChangesOf, planPane } from './plan';
import { resultsFrame, scannersWithStatus } from './query';

const queryText = 'InputScannerReportingPriorities[?StatusCode == `4`]';
const quickInput = (page: Page) => page.locator('.quick-input-widget input').first();
const pickRow = (page: Page, text: string | RegExp) => page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: text }).first();
const rows = (frame: Frame) => frame.locator('#body [role="row"]');

/** Find Objects Where… from the palette, the query typed whole, run: its table, counted. */
async function runQuery(page: Page, count: number): Promise<Frame> {
  await palette(page, 'View: Close All Editors');
  await palette(page, 'Find Objects Where…');
  const box = page.locator('.quick-input-widget input[placeholder^="A JMESPath query"]').first();
  await box.waitFor({ timeout: 10_000 });
  await box.fill(queryText);
  await pickRow(page, 'Run the query').click({ timeout: 10_000 });
  const frame = await resultsFrame(page);
  await until(`${count} matched`, async () => (await frame.locator('#progress').innerText()).startsWith(`${count} matched of`), 30_000);
  return frame;
}

/** VS Code's own file dialog (the simple one, in the browser): the path typed over its text, Enter; OK if Enter only went into a folder. */
async function answerFileDialog(page: Page, file: string): Promise<void> {
  await until('the file dialog', async () => (await quickInput(page).isVisible()) && (await quickInput(page).inputValue()).includes('/'), 10_000);
  await quickInput(page).fill(file);
  await page.waitForTimeout(300);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(1_000);
  const ok = page.locator('.quick-input-widget .quick-input-action .monaco-button', { hasText: /OK|Pull Here/ }).first();
  if ((await quickInput(page).isVisible()) && (await ok.isVisible())) await ok.click();
}

/** Keys sorted, recursively: two objects compared as JSON whatever the order of their fields. */
function canon(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
    );
  return v;
}

/** RFC 4180, as a spreadsheet reads it. */
function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted) cell += c;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      out.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return out;
}

async function exportResults(page: Page, frame: Frame, env: Env, expected: any[], formula: any, diag: string): Promise<void> {
  const byKey = new Map(expected.map((s) => [s.Key as string, s]));
  const stamp = Date.now();
  const jsonFile = path.join(env.OMS_WORKSPACE, `results-${stamp}.json`);
  await frame.locator('#exportJson').click();
  await answerFileDialog(page, jsonFile);
  const exported: any[] = await until(
    'the JSON export',
    () => Promise.resolve(fs.existsSync(jsonFile) && JSON.parse(fs.readFileSync(jsonFile, 'utf8'))),
    15_000,
  );
  if (exported.length !== expected.length) throw new Error(`the JSON export holds ${exported.length} objects, REST ${expected.length}`);
  for (const o of exported)
    if (JSON.stringify(canon(o)) !== JSON.stringify(canon(byKey.get(o.Key))))
      throw new Error(`the JSON export's ${o.Key} (${o.CommonName}) is not the object REST lists`);

  const csvFile = path.join(env.OMS_WORKSPACE, `results-${stamp}.csv`);
  await frame.locator('#exportCsv').click();
  await answerFileDialog(page, csvFile);
  const [header, ...lines] = await until('the CSV export', () => Promise.resolve(fs.existsSync(csvFile) && parseCsv(fs.readFileSync(csvFile, 'utf8'))), 15_000);
  const col = (name: string) => header.indexOf(name);
  if (col('Name') < 0 || col('Key') < 0 || col('InputScannerReportingPriorities') < 0) throw new Error(`the CSV's header: ${header.join(',')}`);
  if (lines.length !== expected.length) throw new Error(`the CSV holds ${lines.length} rows, REST ${expected.length} objects`);
  for (const line of lines) {
    const rest = byKey.get(line[col('Key')]);
    if (!rest) throw new Error(`the CSV's row ${line[col('Key')]} is not a result`);
    const name = String(rest.CommonName);
    const inert = /^[=+\-@]/.test(name) ? `'${name}` : name;
    if (line[col('Name')] !== inert) throw new Error(`the CSV's name "${line[col('Name')]}" for "${name}" (REST)`);
    if (line[col('InputScannerReportingPriorities')] !== JSON.stringify(rest.InputScannerReportingPriorities))
      throw new Error(`the CSV's priorities of ${name} are not REST's`);
  }
  const formulaRow = lines.find((l) => l[col('Key')] === formula.Key);
  if (!formulaRow?.[col('Name')].startsWith("'=HYPERLINK(")) throw new Error(`the formula's name in the CSV: ${formulaRow?.[col('Name')]}`);
  await until('the export said', async () => /Exported \d+ results/.test(await frame.locator('#status').innerText()));
  await page.screenshot({ path: `${diag}/query-results-export.png` });
}

/** Columns…: a reporting priority's StatusCode ticked, the query's own column unticked; the table shows it and sorts by it. */
async function nestedColumn(page: Page, frame: Frame, expected: any[], diag: string): Promise<void> {
  const nested = 'InputScannerReportingPriorities[*].StatusCode';
  const exact = (label: string) =>
    page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${label.replace(/[[\]*.]/g, '\\$&')}\\s*$`) }) })
      .first();
  await frame.locator('#columns').click();
  await quickInput(page).waitFor({ timeout: 10_000 });
  await quickInput(page).fill('InputScannerReportingPriorities');
  const own = exact('InputScannerReportingPriorities');
  await own.waitFor({ timeout: 10_000 });
  if ((await own.getAttribute('aria-checked')) !== 'true') throw new Error("the query's own column is not ticked in the picker");
  await own.locator('.monaco-checkbox, input[type="checkbox"]').first().click();
  await quickInput(page).fill('StatusCode');
  await exact(nested).locator('.monaco-checkbox, input[type="checkbox"]').first().click();
  await until('the nested field ticked', async () => (await exact(nested).getAttribute('aria-checked')) === 'true', 5_000);
  await quickInput(page).focus();
  await page.keyboard.press('Enter');
  const headers = frame.locator('[role="columnheader"]');
  await until('the nested column shown', async () => (await headers.allInnerTexts()).map((t) => t.trim()).includes(nested), 10_000);
  const titles = (await headers.allInnerTexts()).map((t) => t.trim());
  if (titles.includes('InputScannerReportingPriorities')) throw new Error(`the unticked column is still shown: ${titles.join(' | ')}`);
  const at = titles.indexOf(nested) + 1;
  await frame.locator('[role="columnheader"] button', { hasText: nested }).click();
  await until('sorted by it', async () => (await frame.locator('[role="columnheader"][aria-sort="ascending"]').innerText()).trim() === nested);
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  const want = expected.map((s) => JSON.stringify(s.InputScannerReportingPriorities.map((r: any) => r.StatusCode))).sort(collator.compare);
  const shown = (await rows(frame).locator(`[aria-colindex="${at}"]`).allInnerTexts()).map((t) => t.trim());
  const top = shown.slice(0, Math.min(5, want.length));
  if (JSON.stringify(top) !== JSON.stringify(want.slice(0, top.length)))
    throw new Error(`sorted by ${nested}: ${top.join(' ')}; REST: ${want.slice(0, 5).join(' ')}`);
  if (new Set(want).size < 2) throw new Error(`the results' ${nested} are all alike: a sort by it shows nothing`);
  await frame.locator('[role="columnheader"] button', { hasText: nested }).click();
  await until('sorted descending', async () => (await frame.locator('[role="columnheader"][aria-sort="descending"]').count()) === 1);
  const down = (await rows(frame).first().locator(`[aria-colindex="${at}"]`).innerText()).trim();
  if (down !== want[want.length - 1]) throw new Error(`sorted descending, the first row holds ${down}, not ${want[want.length - 1]}`);
  await page.screenshot({ path: `${diag}/query-results-nested-column.png` });
}

/**
 * The clipboard pasted where a person reads it: the terminal (Ctrl+Shift+V) into a file, read back. Headless Chromium
 * gives an editor's Ctrl+V (and its menu's Paste) no native paste; the terminal reads the clipboard as the workbench does.
 */
async function pasted(page: Page, env: Env): Promise<string> {
  const out = path.join(env.OMS_WORKSPACE, `pasted-${Date.now()}.txt`);
  await page.keyboard.press('Control+Backquote');
  const terminal = page.locator('.terminal-wrapper textarea, .xterm-helper-textarea').first();
  await terminal.waitFor({ timeout: 15_000 });
  await page.waitForTimeout(1_500);
  await terminal.focus();
  await page.keyboard.type("printf '%s' '");
  await page.keyboard.press('Control+Shift+V');
  await page.waitForTimeout(300);
  await page.keyboard.type(`' > '${out}'\n`);
  const text = await until('pasted', () => Promise.resolve(fs.existsSync(out) && fs.readFileSync(out, 'utf8')), 10_000);
  await page.keyboard.press('Control+Backquote');
  await page.locator('.tabs-container .tab', { hasText: 'Results:' }).first().click();
  return text;
}

/** Ctrl+C on a row, then Copy Link from another row's menu (Shift+F10): each pasted is the object's REST address. */
async function copyLinks(page: Page, frame: Frame, env: Env, expected: any[]): Promise<void> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const addressOf = (key: string) => new URL(expected.find((s) => s.Key === key).Href, env.OMS_SANDBOX_URL).href;
  const keyAt = async (i: number) => (await rows(frame).nth(i).locator('[aria-colindex="3"]').innerText()).trim();
  await rows(frame).first().click();
  const first = await keyAt(0);
  await page.keyboard.press('Control+C');
  await until('the link copied', async () => /Copied the link/.test(await frame.locator('#status').innerText()));
  const one = await pasted(page, env);
  if (one !== addressOf(first)) throw new Error(`Ctrl+C copied "${one}", not ${addressOf(first)}`);
  await rows(frame).nth(1).click();
  const second = await keyAt(1);
  await page.keyboard.press('Shift+F10');
  await until('the row menu', async () => (await frame.locator('#menu [role="menuitem"]:focus').count()) > 0);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const item = (await frame.locator('#menu [role="menuitem"]:focus').innerText()).trim();
  if (item !== 'Copy Link') throw new Error(`the menu's third item is "${item}"`);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(500);
  const two = await pasted(page, env);
  if (two !== addressOf(second)) throw new Error(`the menu's Copy Link copied "${two}", not ${addressOf(second)}`);
}

/** Every object file under `dir` by Key (the manifest, the journal and the cache left out). */
function pulledKeys(dir: string): Map<string, any> {
  const out = new Map<string, any>();
  if (!fs.existsSync(dir)) return out;
  for (const f of fs.readdirSync(dir, { recursive: true }).map(String)) {
    if (!f.endsWith('.json') || f.split(path.sep)[0] === '.oms' || path.basename(f) === 'oms.manifest.json') continue;
    const o = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    out.set(o.Key, o);
  }
  return out;
}

/** The plan of `dir` from the palette: its summary line. */
/** Plan Changes of the folder: its summary line, once it is not `before` (the plan the view showed until the new one came). */
async function planSummary(page: Page, dir: string, before?: string): Promise<string> {
  await planChangesOf(page, path.basename(dir));
  const line = new RegExp(`\\d+ behind · \\d+ invalid · \\d+ unchanged · ${path.basename(dir)}`);
  let said = '';
  return until(
    'a new plan',
    async () => {
      said = (await planPane(page).innerText()).replace(/\s+/g, ' ').match(line)?.[0] ?? '';
      return said !== before && said;
    },
    30_000,
  ).catch(() => {
    throw new Error(`the plan still says "${said}"`);
  });
}

/** Pull as Files of two selected rows into a new folder, then of all into it: exactly those files, and a plan that lists no other. */
async function pullResults(page: Page, frame: Frame, env: Env, expected: any[], diag: string): Promise<void> {
  const dir = path.join(env.OMS_WORKSPACE, `results-pull-${Date.now()}`);
  fs.mkdirSync(dir);
  const sameAsRest = (files: Map<string, any>) => {
    for (const [key, o] of files) {
      const rest = expected.find((s) => s.Key === key);
      if (
        !rest ||
        o.CommonName !== rest.CommonName ||
        JSON.stringify(canon(o.InputScannerReportingPriorities)) !== JSON.stringify(canon(rest.InputScannerReportingPriorities))
      )
        throw new Error(`the file of ${key} (${o.CommonName}) is not the object REST has`);
    }
  };
  await rows(frame).first().click();
  await page.keyboard.press(' ');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press(' ');
  const chosen = [0, 1].map(async (i) => (await rows(frame).nth(i).locator('[aria-colindex="3"]').innerText()).trim());
  const keys = (await Promise.all(chosen)).sort();
  await frame.locator('#pull', { hasText: 'Pull 2 Selected as Files' }).click();
  await pickRow(page, 'Choose a Folder').click({ timeout: 10_000 });
  await answerFileDialog(page, dir);
  const two = await until(
    'the two files',
    () => Promise.resolve(fs.existsSync(path.join(dir, 'oms.manifest.json')) && pulledKeys(dir).size >= 2 && pulledKeys(dir)),
    30_000,
  );
  await page.waitForTimeout(1_000);
  if (JSON.stringify([...pulledKeys(dir).keys()].sort()) !== JSON.stringify(keys))
    throw new Error(`pulled ${[...two.keys()].join(', ')}; selected ${keys.join(', ')}`);
  sameAsRest(two);
  const planned = await planSummary(page, dir);
  if (!planned.startsWith('0 behind') || !planned.includes('2 unchanged')) throw new Error(`the plan of the two pulled says "${planned}"`);
  await page.screenshot({ path: `${diag}/query-results-pull-plan.png` });
  console.log(`query results: a plan of the folder of 2 pulled results says "${planned}"`);

  await page.locator('.tabs-container .tab', { hasText: 'Results:' }).first().click();
  await rows(frame).first().click();
  await page.keyboard.press('Escape');
  await frame.locator('#pull', { hasText: 'Pull All as Files' }).click();
  // The folder pulled into a moment ago, typed into the pick (the workspace holds many pulled folders) and taken with Enter.
  await pickRow(page, 'Choose a Folder').waitFor({ timeout: 10_000 });
  await quickInput(page).fill(path.basename(dir));
  await page
    .locator('.quick-input-list .monaco-list-row.focused', { hasText: path.basename(dir) })
    .first()
    .waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  const all = await until(`${expected.length} files`, () => Promise.resolve(pulledKeys(dir).size === expected.length && pulledKeys(dir)), 30_000);
  const want = expected.map((s) => s.Key).sort();
  if (JSON.stringify([...all.keys()].sort()) !== JSON.stringify(want)) throw new Error('the files of Pull All are not the results');
  sameAsRest(all);
  const again = await planSummary(page, dir, planned);
  if (!again.startsWith('0 behind') || !again.includes(`${expected.length} unchanged`)) throw new Error(`the plan of all pulled says "${again}"`);
}

async function resultsActions(page: Page, env: Env, diag: string): Promise<void> {
  const [like] = await scannersWithStatus(env, 4);
  // Its first row reports 0 (another still 4): its statuses sort before the seeded scanners', which are all alike.
  const other = like.InputScannerReportingPriorities.findIndex((r: any) => r.StatusCode !== 4);
  const rowsOf = like.InputScannerReportingPriorities.map((r: any, i: number) => (i === other ? { ...r, StatusCode: 0 } : r));
  const name = `=HYPERLINK("https://example.com/x","open") ${Date.now()}`;
  const formula = await createScanner(env, like.InFolderKey, { ...like, InputScannerReportingPriorities: rowsOf }, name);
  try {
    const expected = await scannersWithStatus(env, 4);
    if (!expected.some((s) => s.Key === formula.Key)) throw new Error('the formula-named scanner does not match the query over REST');
    const frame = await runQuery(page, expected.length);
    await exportResults(page, frame, env, expected, formula, diag);
    await nestedColumn(page, frame, expected, diag);
    await copyLinks(page, frame, env, expected);
    await pullResults(page, frame, env, expected, diag);
  } finally {
    await send(env, 'DELETE', formula.Href);
  }
}

export const queryResultsChecks: UiCheckList = (page, env, diag) => [
  [
    "Query results: Export JSON and CSV (REST's objects, a formula made inert), Columns… with a nested field sorted, " +
      'Copy Link pasted (Ctrl+C and the row menu), ' +
      'Pull as Files of selected rows and of all (exactly those files; the plan lists no other)',
    () => resultsActions(page, env, diag),
  ],
];
