// The priorities table of a scanner deleted on the server, by mouse and keyboard: with live updates off,
// its Save and Reload from Server say the scanner was deleted, by name (no key, no "copy your text", no "Ctrl+S saves");
// with live updates every 2 s, a clean table and one with an edit say it within one interval, and offer
// Save as New Scanner (the server then holds the rows again), Export as JSON and Close.
import * as fs from 'node:fs';
import type { Frame, Page } from 'playwright-core';
import {
  activeTabText,
  cursorAfter,
  editorText,
  floors,
  fromMenu,
  get,
  notification,
  palette,
  send,
  typeOver,
  until,
  type Env,
  type UiCheckList,
} from './helpers';
import { treeFromTop } from './commandFlows';
import { focusWindow, setInterval as setLiveInterval } from './live';
import { settingsFile } from './workbench';

const intervalSeconds = 2;
const withinOneInterval = intervalSeconds * 1000 + 4_000;
/** A key as the service writes them: never to be shown where a name can be. */
const rawKey = /\b[0-9a-f]{24}\b/;

/** A new scanner in the instance's own folder, a copy of Floor 2's first, named `name`: deleting it disturbs no other check. */
async function newScanner(env: Env, name: string): Promise<any> {
  const { floor2 } = await floors(env);
  const root = await get(env, '/api');
  const [first] = await get(env, `/api/f/${floor2.Key}/inputscanners`);
  const { ConcurrencyVersion: _v, ...rest } = first;
  const res = await fetch(`${env.OMS_SANDBOX_URL}/api/f/${root.Key}/inputscanners`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${env.OMS_SANDBOX_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...rest, Key: null, Href: null, CommonName: name }),
  });
  if (res.status !== 201) throw new Error(`the scanner was not created: ${res.status}`);
  return res.json();
}

/** The table of the scanner named `name` showing its rows (not another table, nor one gone). */
async function tableOf(page: Page, name: string): Promise<Frame> {
  let frame: Frame | undefined;
  await until(
    `the table of "${name}"`,
    async () => {
      for (const f of page.frames()) {
        const title = await f
          .locator('#title')
          .innerText({ timeout: 300 })
          .catch(() => '');
        if (
          title === name &&
          (await f
            .locator('#rows tr')
            .count()
            .catch(() => 0)) === 8 &&
          !(await f
            .locator('#gone')
            .isVisible()
            .catch(() => true))
        )
          frame = f;
      }
      return !!frame;
    },
    15_000,
  );
  return frame!;
}

/** From the tree: the instance's Input scanners (read again: the scanner is new), right-click the scanner, Open Priorities Table. */
async function openTableOf(page: Page, name: string): Promise<Frame> {
  await treeFromTop(page);
  await palette(page, 'OMS: Refresh');
  const group = page.locator('.part.sidebar .monaco-list-row[aria-level="3"]', { hasText: /^\s*Input scanners/ }).first();
  await group.waitFor({ timeout: 15_000 });
  if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
  const row = page.locator('.part.sidebar .monaco-list-row[aria-level="4"]', { hasText: name }).first();
  await row.waitFor({ timeout: 15_000 });
  await fromMenu(page, row, 'Open Priorities Table');
  return tableOf(page, name);
}

/** A new priority typed into row `row`. */
async function typePriority(page: Page, frame: Frame, row: number, value: number): Promise<void> {
  await typeOver(page, frame.locator('#rows tr').nth(row).locator('input.priority'), String(value));
}

/** The table says the scanner was deleted, by name, and offers what fits a table; no key anywhere in it. */
async function saysDeleted(frame: Frame, name: string, ms: number): Promise<void> {
  await frame
    .locator('#goneText', { hasText: `"${name}" was deleted on the server.` })
    .waitFor({ timeout: ms })
    .catch(async () => {
      throw new Error(`the table says "${(await frame.locator('main').innerText()).replace(/\s+/g, ' ').slice(0, 300)}", not that "${name}" was deleted`);
    });
  const text = await frame.locator('main').innerText();
  if (rawKey.test(text)) throw new Error(`a key in the table: ${text.replace(/\s+/g, ' ')}`);
  if (/copy your text|Ctrl\+S saves/i.test(text)) throw new Error(`the table says: ${text.replace(/\s+/g, ' ')}`);
  for (const id of ['#saveAsNew', '#export', '#close']) if (!(await frame.locator(id).isVisible())) throw new Error(`no ${id} button`);
  if (await frame.locator('#save').isVisible()) throw new Error('Save is still offered for a deleted scanner');
}

const scannersNamed = async (env: Env, name: string) => {
  const root = await get(env, '/api');
  return (await get(env, `/api/f/${root.Key}/inputscanners?pageSize=1000`)).filter((s: any) => s.CommonName === name);
};

/** The interval the user settings hold now, to put back. */
const intervalNow = (page: Page) => (JSON.parse(fs.readFileSync(settingsFile(page), 'utf8')) as Record<string, unknown>)['oms.live.interval'];

async function saveAndReloadSayDeleted(page: Page, env: Env): Promise<void> {
  const before = intervalNow(page);
  await setLiveInterval(page, 0);
  try {
    await palette(page, 'View: Close All Editors');
    // With an edit: Save.
    const edited = await newScanner(env, `Gone Saved ${Date.now()}`);
    const frame = await openTableOf(page, edited.CommonName);
    const typed = (edited.InputScannerReportingPriorities[1].Priority + 4) % 10;
    await typePriority(page, frame, 1, typed);
    await send(env, 'DELETE', edited.Href);
    await page.keyboard.press('Control+S');
    await saysDeleted(frame, edited.CommonName, 10_000);
    if ((await frame.locator('#rows tr').nth(1).locator('input.priority').inputValue()) !== String(typed))
      throw new Error('the typed priority is gone from the table');
    if (!(await activeTabText(page)).includes('(deleted)')) throw new Error(`the tab says "${await activeTabText(page)}"`);
    await page.screenshot({ path: `${env.OMS_UI_DIAG}/ui-table-deleted-save.png` });
    await frame.locator('#close').click();
    await until('the table closed', async () => !(await activeTabText(page)).includes(edited.CommonName));

    // Clean: Reload from Server.
    const clean = await newScanner(env, `Gone Reloaded ${Date.now()}`);
    const table = await openTableOf(page, clean.CommonName);
    await send(env, 'DELETE', clean.Href);
    await table.locator('#reload').click();
    await saysDeleted(table, clean.CommonName, 10_000);
    await table.locator('#close').click();
  } finally {
    await setLiveInterval(page, typeof before === 'number' ? before : 30);
    await palette(page, 'View: Close All Editors');
  }
}

async function liveDeletion(page: Page, env: Env): Promise<void> {
  const before = intervalNow(page);
  await setLiveInterval(page, intervalSeconds);
  await focusWindow(page, true);
  try {
    await palette(page, 'View: Close All Editors');
    // Clean: said within one interval; Save as New Scanner puts its rows back on the server.
    const name = `Gone Live ${Date.now()}`;
    const scanner = await newScanner(env, name);
    const frame = await openTableOf(page, name);
    await send(env, 'DELETE', scanner.Href);
    await saysDeleted(frame, name, withinOneInterval);
    await notification(page, new RegExp(`"${name}" was deleted on the server`));
    await page.screenshot({ path: `${env.OMS_UI_DIAG}/ui-table-deleted-live.png` });
    await frame.locator('#saveAsNew').click();
    const [again] = await until('the scanner created again', async () => {
      const found = await scannersNamed(env, name);
      return found.length === 1 && found[0].Key !== scanner.Key ? found : undefined;
    });
    const rows = (s: any) => JSON.stringify(s.InputScannerReportingPriorities);
    if (rows(again) !== rows(scanner)) throw new Error("the new scanner does not hold the table's rows");
    const table = await tableOf(page, name);
    await table.locator('#version', { hasText: `version ${again.ConcurrencyVersion}` }).waitFor({ timeout: 10_000 });

    // With an edit: said within one interval, the edit kept; Export as JSON opens the rows as edited; Close.
    const label = `Exported ${Date.now()}`;
    await typeOver(page, table.locator('#rows tr').nth(2).locator('input.label'), label);
    await until('the tab marked unsaved', async () => (await activeTabText(page)).includes('● Priorities'));
    await send(env, 'DELETE', again.Href);
    await saysDeleted(table, name, withinOneInterval);
    const kept = await table.locator('#rows tr').nth(2).locator('input.label').inputValue();
    if (kept !== label) throw new Error(`the typed label "${label}" is not kept in the table, which holds "${kept}"`);
    await table.locator('#export').click();
    await until('the rows as JSON in an editor', async () => /^Untitled/.test(await activeTabText(page)) && (await editorText(page)).includes(name));
    await cursorAfter(page, `"CommonName": "${label}"`);
    await palette(page, 'View: Revert and Close Editor');
    const tab = page.locator('.tabs-container .tab', { hasText: `Priorities: ${name}` }).first();
    await tab.click();
    await table.locator('#close').click();
    await until('the table closed', async () => !(await tab.isVisible()));
    if ((await scannersNamed(env, name)).length) throw new Error('something was sent after the deletion');
  } finally {
    await setLiveInterval(page, typeof before === 'number' ? before : 30);
    await focusWindow(page, false);
    await palette(page, 'View: Close All Editors');
  }
}

export const tableGoneChecks: UiCheckList = (page, env) => [
  [
    'ui: the priorities table of a scanner deleted over REST (live updates off): Save and Reload from Server say it was deleted, by name; ' +
      'no key, no "copy your text"',
    () => saveAndReloadSayDeleted(page, env),
  ],
  [
    'ui: live updates: the priorities table of a scanner deleted over REST says so within one interval, clean or with an edit; ' +
      'Save as New Scanner puts the rows back; Export as JSON; Close',
    () => liveDeletion(page, env),
  ],
];
