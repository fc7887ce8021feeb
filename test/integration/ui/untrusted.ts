// A pulled folder is untrusted input, where a person sees it: a manifest edited (say, through git) to point a
// folder outside the pulled folder; Pull Again from the palette is refused for that entry, naming it, and
// nothing outside changes. Mouse and keyboard in the window; the files read on disk.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { floors, input, menuItem, notification, palette, until, type Env, type UiCheckList } from './helpers';

const rows = (page: Page) => page.locator('.part.sidebar .monaco-list-row');

/** The pulled folder of the workspace (`oms/sandbox`), pulled here by right-clicking Floor 1's input scanners when no check did before. */
async function pulledFolder(page: Page, env: Env): Promise<string> {
  const root = path.join(env.OMS_WORKSPACE, 'oms', 'sandbox');
  if (fs.existsSync(path.join(root, 'oms.manifest.json'))) return root;
  for (const [label, level] of [['Sandbox', 1], ['Demo Instance', 2], ['Head Office', 3], ['Floor 1', 4]] as const) {
    const row = rows(page).and(page.locator(`[aria-level="${level}"]`)).filter({ hasText: label }).first();
    await row.waitFor({ timeout: 15_000 });
    if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
  }
  await rows(page).and(page.locator('[aria-level="5"]')).filter({ hasText: /^\s*Input scanners/ }).first().click({ button: 'right' });
  await menuItem(page, 'Pull as Files');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'oms/sandbox' }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  await until('the pulled folder', () => Promise.resolve(fs.existsSync(path.join(root, 'oms.manifest.json'))), 20_000);
  return root;
}

/** Every file under `dir`, with its text. */
function snapshot(dir: string): string {
  return JSON.stringify(fs.readdirSync(dir, { recursive: true }).map(String).sort().map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
}

async function manifestPointingOutside(page: Page, env: Env): Promise<void> {
  const root = await pulledFolder(page, env);
  const { floor1 } = await floors(env);
  const outside = path.join(env.OMS_WORKSPACE, 'outside-untrusted');
  fs.mkdirSync(outside, { recursive: true });
  fs.writeFileSync(path.join(outside, 'keep.txt'), 'mine\n');
  const before = snapshot(outside);
  const file = path.join(root, 'oms.manifest.json');
  const original = fs.readFileSync(file, 'utf8');
  const manifest = JSON.parse(original) as { folders: Record<string, string> };
  manifest.folders[floor1.Key] = '../../outside-untrusted/x';
  fs.writeFileSync(file, JSON.stringify(manifest, null, 2));
  const pick = async () => {
    // Several pulled folders: the one edited here.
    const listed = await page.locator('.quick-input-list .monaco-list-row', { hasText: 'oms/sandbox' }).first().waitFor({ timeout: 3_000 }).then(() => true, () => false);
    if (listed) await page.keyboard.press('Enter');
  };
  try {
    // The plan names the refused entry among its invalid ones.
    await palette(page, 'Plan Changes');
    await pick();
    const pane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Object Changes' }) }).first();
    await pane.locator('.monaco-list-row', { hasText: /outside-untrusted|refused/ }).first().waitFor({ timeout: 20_000 })
      .catch(async () => { throw new Error(`the plan does not name the entry: ${await pane.innerText().catch(() => '')}`); });
    await palette(page, 'Pull Again');
    // Files edited by an earlier check: keep them (a modal asks).
    const keep = page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Keep My Edits' }).first();
    if (await keep.waitFor({ timeout: 3_000 }).then(() => true, () => false)) await keep.click();
    const said = await notification(page, /outside-untrusted\/x/);
    const text = await said.innerText();
    if (!text.includes(floor1.Key) || !/refused/.test(text)) throw new Error(`the message does not name the entry: ${text}`);
    await page.keyboard.press('Escape');
    if (snapshot(outside) !== before) throw new Error('something outside the pulled folder changed');
    if (fs.existsSync(path.join(outside, 'x'))) throw new Error('the pull wrote outside the pulled folder');
  } finally {
    fs.writeFileSync(file, original);
    fs.rmSync(outside, { recursive: true, force: true });
    await input(page).press('Escape').catch(() => undefined);
  }
}

export const untrustedChecks: UiCheckList = (page, env) => [
  ['ui: a pulled folder whose manifest points outside: Pull Again refuses that entry, naming it, and nothing outside changes', () => manifestPointingOutside(page, env)],
];
