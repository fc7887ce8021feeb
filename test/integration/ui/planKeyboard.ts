// The Object Changes view by keyboard, with two pulled folders in the workspace: Plan Changes… asks which (the shown one
// first) and the view names it; Space ticks the focused entry and Enter opens it; rows say action, name, fields and tick;
// the ticks set survive a re-plan and the re-plan after Apply; a failed plan clears the view and says why; Pull Again
// from a cancelled pull's notification pulls that notification's folder. Results read from the sandbox and the files.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { pick, get, send, until, input, palette, floors, quickInputText, type Env, type UiCheckList } from './helpers';
import { includedDeletes, objectsView, planAction, planPane, planRow, pullFloor1 } from './plan';

const pickRows = (page: Page) => page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
const focusedRow = (page: Page) => planPane(page).locator('.monaco-list-row.focused').first();
const labelOf = async (page: Page, name: string) => (await planRow(page, name).getAttribute('aria-label')) ?? '';

/** The folder picker of Plan Changes… / Pull Again: its rows in order, then `folder` chosen by typing and Enter. */
async function pickFolder(page: Page, folder: string): Promise<string[]> {
  await pickRows(page).filter({ hasText: 'oms/' }).first().waitFor({ timeout: 10_000 });
  const rows = (await pickRows(page).allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  await input(page).pressSequentially(folder);
  await until(`${folder} first in the picker`, async () => (await pickRows(page).first().innerText()).includes(folder), 5_000);
  await page.keyboard.press('Enter');
  return rows;
}

/** Arrow keys in the focused view until the focused row names `name`: its spoken label. */
async function focusRow(page: Page, name: string): Promise<string> {
  await page.keyboard.press('Home');
  for (let i = 0; i < 40; i++) {
    const label =
      (await focusedRow(page)
        .getAttribute('aria-label')
        .catch(() => null)) ?? '';
    if (label.includes(name)) return label;
    await page.keyboard.press('ArrowDown');
    await page.waitForTimeout(80);
  }
  throw new Error(`no row of the Object Changes view names ${name}`);
}

const ticked = (label: string) => /, ticked$/.test(label);
const unticked = (label: string) => /, not ticked$/.test(label);

async function planByKeyboard(page: Page, env: Env, diag: string): Promise<void> {
  const workspace = env.OMS_WORKSPACE;
  const { floor1 } = await floors(env);
  const at = (key: string) => `/api/f/${floor1.Key}/inputscanners/${key}`;
  const scanners: any[] = await get(env, `/api/f/${floor1.Key}/inputscanners`);
  const sandboxRoot = path.join(workspace, 'oms', 'sandbox'),
    copyRoot = path.join(workspace, 'oms', 'copy');
  for (const r of [sandboxRoot, copyRoot]) fs.rmSync(r, { recursive: true, force: true });
  const { dir } = await pullFloor1(page, env, scanners.length);
  // A second pulled folder of the same connection: a copy of the first, as a user copying it would make.
  fs.cpSync(sandboxRoot, copyRoot, { recursive: true });
  const fileOf = (key: string, d = dir) =>
    path.join(
      d,
      fs.readdirSync(d).find((f) => f.endsWith(`.${key}.json`))!,
    );
  const [a, b, , d] = scanners;
  for (const s of [a, b]) {
    const o = JSON.parse(fs.readFileSync(fileOf(s.Key), 'utf8'));
    o.NonSettlingErrorPriority = (s.NonSettlingErrorPriority % 9) + 1;
    fs.writeFileSync(fileOf(s.Key), JSON.stringify(o, null, 2) + '\n');
  }
  fs.rmSync(fileOf(d.Key));

  // Plan Changes… asks which pulled folder; the view then names it.
  await palette(page, 'OMS: Plan Changes');
  const offered = await pickFolder(page, 'oms/sandbox');
  if (!offered.some((r) => r.includes('oms/copy')) || !offered.some((r) => r.includes('oms/sandbox')))
    throw new Error(`Plan Changes… offered ${offered.join(' | ')}`);
  await planRow(page, 'Update (2)').waitFor({ timeout: 20_000 });
  await objectsView(page, false);
  await until('the view naming its folder', async () => (await planPane(page).innerText()).includes('oms/sandbox'), 5_000).catch(async () => {
    throw new Error(`the view says: ${(await planPane(page).innerText()).replace(/\s+/g, ' ')}`);
  });
  // Deletes stay included once included (the checks before may have): included here if not yet.
  await includedDeletes(page, 1);

  // Keyboard only from here: the view focused, b unticked with Space, d (a delete) ticked with Space, a opened with Enter.
  await palette(page, 'Focus on Object Changes View');
  const bLabel = await focusRow(page, b.CommonName);
  if (!bLabel.startsWith('Update: ') || !bLabel.includes('changed: NonSettlingErrorPriority') || !ticked(bLabel)) throw new Error(`the row says "${bLabel}"`);
  await page.keyboard.press('Space');
  await until(`${b.CommonName} unticked`, async () => unticked(await labelOf(page, b.CommonName)), 5_000);
  if (await page.locator('.editor-group-container.active .monaco-diff-editor').count()) throw new Error('Space opened the entry');
  const dLabel = await focusRow(page, d.CommonName);
  if (!dLabel.startsWith('Delete: ') || !unticked(dLabel)) throw new Error(`the delete row says "${dLabel}"`);
  await page.keyboard.press('Space');
  await until(`${d.CommonName} ticked`, async () => ticked(await labelOf(page, d.CommonName)), 5_000);
  await until('2 ticked', async () => (await planPane(page).innerText()).includes('2 ticked to send'), 5_000);
  await focusRow(page, a.CommonName);
  await page.keyboard.press('Enter');
  await page.locator('.editor-group-container.active .monaco-diff-editor').first().waitFor({ timeout: 10_000 });
  await page.screenshot({ path: `${diag}/plan-keyboard.png` });
  await palette(page, 'View: Close All Editors');

  // A re-plan (the shown folder offered first) keeps both ticks.
  await planAction(page, 'Plan Changes');
  const again = await pickFolder(page, 'oms/sandbox');
  if (!again[0]?.includes('oms/sandbox')) throw new Error(`the shown folder is not first: ${again.join(' | ')}`);
  await planRow(page, /Delete \(1\)/).waitFor({ timeout: 20_000 });
  await until(
    'the ticks kept by the re-plan',
    async () => unticked(await labelOf(page, b.CommonName)) && ticked(await labelOf(page, d.CommonName)),
    10_000,
  ).catch(async () => {
    throw new Error(`after the re-plan: "${await labelOf(page, b.CommonName)}", "${await labelOf(page, d.CommonName)}"`);
  });

  // Apply (a and the delete): the re-plan after it still has b unticked, so the next Apply would not send it.
  await planAction(page, 'Apply Ticked Changes');
  const go = pick(page, 'continue after errors');
  await go.waitFor({ timeout: 10_000 });
  await page.keyboard.press('ArrowDown');
  await until(
    'continue after errors chosen',
    async () => (await page.locator('.quick-input-list .monaco-list-row.focused').first().innerText()).includes('continue'),
    5_000,
  );
  await page.keyboard.press('Enter');
  await until('the delete count box', async () => /Delete 1/.test(await quickInputText(page)));
  await input(page).pressSequentially('1');
  await page.keyboard.press('Enter');
  await until(
    'the run applied',
    async () =>
      (await get(env, at(a.Key))).ConcurrencyVersion === a.ConcurrencyVersion + 1 &&
      (await fetch(env.OMS_SANDBOX_URL + at(d.Key), { headers: { Authorization: `Bearer ${env.OMS_SANDBOX_TOKEN}` } })).status === 404,
    20_000,
  );
  if ((await get(env, at(b.Key))).ConcurrencyVersion !== b.ConcurrencyVersion) throw new Error('the unticked update was sent');
  await until(
    'the re-plan after Apply',
    async () => (await planPane(page).innerText()).includes('0 ticked to send') && unticked(await labelOf(page, b.CommonName)),
    20_000,
  ).catch(async () => {
    throw new Error(`after Apply: "${await labelOf(page, b.CommonName)}"; ${(await planPane(page).innerText()).replace(/\s+/g, ' ')}`);
  });
  await page.screenshot({ path: `${diag}/plan-keyboard-after-apply.png` });

  // A plan that fails (the manifest broken) leaves nothing of the last plan to tick, and says why.
  const manifest = path.join(sandboxRoot, 'oms.manifest.json');
  const kept = fs.readFileSync(manifest, 'utf8');
  fs.writeFileSync(manifest, '{ "format": 1, "objects": ');
  try {
    await planAction(page, 'Plan Changes');
    await pickFolder(page, 'oms/sandbox');
    await until('the failure in the view', async () => /The plan of oms\/sandbox failed/.test(await planPane(page).innerText()), 20_000);
    // The tree redraws just after the message: its rows go within a moment, or they stayed.
    await until('no row of the old plan', async () => (await planPane(page).locator('.monaco-list-row').count()) === 0, 5_000).catch(async () => {
      throw new Error(`${await planPane(page).locator('.monaco-list-row').count()} rows of the old plan still shown after it failed`);
    });
    await page.screenshot({ path: `${diag}/plan-failed.png` });
  } finally {
    fs.writeFileSync(manifest, kept);
  }
  await page.keyboard.press('Escape');

  // Pull Again from a cancelled pull's notification pulls that pull's folder, whichever plan is shown.
  const e = scanners[4] ?? scanners[2];
  const eNow = await get(env, at(e.Key));
  await send(env, 'PUT', at(e.Key), { ...eNow, NonSettlingErrorPriority: (eNow.NonSettlingErrorPriority % 9) + 1 });
  await palette(page, 'OMS: Plan Changes');
  await pickFolder(page, 'oms/sandbox');
  await planRow(page, /Behind/).waitFor({ timeout: 20_000 });
  // The listing answered 503 with a long Retry-After: the pull waits, and is cancelled meanwhile.
  await send(env, 'POST', '/sandbox/faults', { path: `/api/f/${floor1.Key}/inputscanners`, status: 503, count: 5, retryAfter: 8 });
  try {
    await palette(page, 'OMS: Pull Again');
    await pickFolder(page, 'oms/copy');
    const progress = page.locator('.notification-toast', { hasText: 'Pulling from' }).first();
    await progress.waitFor({ timeout: 10_000 });
    await progress.hover();
    await progress.locator('.monaco-button', { hasText: 'Cancel' }).first().click({ timeout: 5_000 });
    const cancelled = page.locator('.notification-toast', { hasText: /Pull of oms\/copy cancelled/ }).first();
    await cancelled.waitFor({ timeout: 20_000 });
  } finally {
    await send(env, 'DELETE', '/sandbox/faults');
  }
  await page
    .locator('.notification-toast', { hasText: /Pull of oms\/copy cancelled/ })
    .first()
    .locator('.monaco-button', { hasText: 'Pull Again' })
    .first()
    .click();
  const copied = () => JSON.parse(fs.readFileSync(fileOf(e.Key, path.join(copyRoot, path.relative(sandboxRoot, dir))), 'utf8')).NonSettlingErrorPriority;
  await until('oms/copy pulled again', () => Promise.resolve(copied() === (eNow.NonSettlingErrorPriority % 9) + 1), 20_000).catch(async () => {
    throw new Error(
      `oms/copy not pulled${(await page.locator('.monaco-dialog-box').count()) ? ' (a question about edits showed: the shown folder was pulled)' : ''}`,
    );
  });
  if (JSON.parse(fs.readFileSync(fileOf(e.Key), 'utf8')).NonSettlingErrorPriority !== eNow.NonSettlingErrorPriority)
    throw new Error('oms/sandbox was pulled too');
}

export const planKeyboardChecks: UiCheckList = (page, env, diag) => [
  [
    'ui: Object Changes by keyboard: Plan Changes… asks which pulled folder and the view names it; ' +
      'Space ticks, Enter opens; rows say action, fields and tick; ' +
      "ticks survive the re-plan and Apply; a failed plan clears the view; Pull Again from a cancelled pull's notification pulls its folder",
    () => planByKeyboard(page, env, diag),
  ],
];
