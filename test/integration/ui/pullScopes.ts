// A pull of another part of the server into a folder already pulled, where a person meets it: Head Office's
// input scanners with subfolders pulled into the suggested folder, then Warehouse's input scanners into the same
// folder by pressing Enter on the default. The user is asked, told what would be removed; Cancel removes nothing;
// with a file edited since, the pull is refused and the edit stays in the plan. Mouse and keyboard in the
// window; the files read on disk, the objects listed over REST.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { fromMenu, get, input, notification, until, type Env, type UiCheckList } from './helpers';
import { objectsView, planChangesOf, planRow } from './plan';

const treeRow = (page: Page, level: number, name: RegExp) => page.locator(`.part.sidebar .monaco-list-row[aria-level="${level}"]`, { hasText: name }).first();
const pickRow = (page: Page, text: string) => page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: text }).first();

/** Every file under `dir` (relative path → text), the manifest and saved plans left out. */
function pulledFiles(dir: string): Map<string, string> {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String) : [];
  return new Map(
    files
      .filter((f) => f.endsWith('.json') && path.basename(f) !== 'oms.manifest.json' && fs.statSync(path.join(dir, f)).isFile())
      .map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]),
  );
}

/** The input scanners of a folder and of every folder under it, over REST. */
async function scannersUnder(env: Env, folderKey: string): Promise<any[]> {
  const own: any[] = await get(env, `/api/f/${folderKey}/inputscanners?pageSize=1000`);
  for (const sub of await get(env, `/api/f/${folderKey}/folders`)) own.push(...(await scannersUnder(env, sub.Key)));
  return own;
}

/** Right-click Warehouse's Input scanners group, Pull as Files…, Enter on the suggested folder. */
async function pullWarehouseScanners(page: Page): Promise<void> {
  const warehouse = treeRow(page, 3, /^\s*Warehouse/);
  await warehouse.waitFor({ timeout: 15_000 });
  if ((await warehouse.getAttribute('aria-expanded')) !== 'true') await warehouse.click();
  const group = treeRow(page, 4, /^\s*Input scanners/);
  await group.waitFor({ timeout: 15_000 });
  await fromMenu(page, group, 'Pull as Files');
  await pickRow(page, 'oms/sandbox').waitFor({ timeout: 10_000 });
  await page.waitForTimeout(300);
  await page.keyboard.press('Enter');
}

async function pullAnotherScope(page: Page, env: Env, diag: string): Promise<void> {
  const root = path.join(env.OMS_WORKSPACE, 'oms', 'sandbox');
  fs.rmSync(root, { recursive: true, force: true });
  const top = await get(env, '/api');
  const folders: any[] = await get(env, `/api/f/${top.Key}/folders`);
  const head = folders.find((f) => f.CommonName === 'Head Office');
  const warehouse = folders.find((f) => f.CommonName === 'Warehouse');
  const headScanners = await scannersUnder(env, head.Key);
  const warehouseScanners: any[] = await get(env, `/api/f/${warehouse.Key}/inputscanners?pageSize=1000`);
  let step = 'pull Head Office';
  try {
    // Head Office, Pull as Files…: only input scanners, with subfolders, into the suggested folder.
    const headRow = treeRow(page, 3, /^\s*Head Office/);
    await headRow.waitFor({ timeout: 15_000 });
    await fromMenu(page, headRow, 'Pull as Files');
    await pickRow(page, 'Input scanners').waitFor({ timeout: 10_000 });
    await page.locator('.quick-input-widget .quick-input-header .monaco-checkbox').first().click(); // all kinds start ticked: none
    await pickRow(page, 'Input scanners').locator('.monaco-checkbox').first().click();
    await until(
      'only Input scanners ticked',
      async () => (await page.locator('.quick-input-widget .quick-input-list .monaco-checkbox.checked').count()) === 1,
      5_000,
    ).catch(async () => {
      throw new Error(`${await page.locator('.quick-input-widget .quick-input-list .monaco-checkbox.checked').count()} kinds ticked`);
    });
    // OK, by mouse: the keyboard is on the ticked box now, where Enter would untick it again.
    const ok = page.locator('.quick-input-widget .quick-input-action .monaco-button', { hasText: 'OK' }).first();
    if (
      !(await ok.click({ timeout: 3_000 }).then(
        () => true,
        () => false,
      ))
    ) {
      await input(page).focus();
      await page.keyboard.press('Enter');
    }
    await pickRow(page, 'This folder and its subfolders').click({ timeout: 10_000 });
    await pickRow(page, 'oms/sandbox').waitFor({ timeout: 10_000 });
    await page.waitForTimeout(300);
    await page.keyboard.press('Enter');
    const pulled = await until(
      `Head Office's ${headScanners.length} scanner files`,
      () => {
        const files = pulledFiles(root);
        return Promise.resolve(files.size === headScanners.length && fs.existsSync(path.join(root, 'oms.manifest.json')) && files);
      },
      20_000,
    );
    if (![...pulled.keys()].every((f) => f.includes('inputscanners'))) throw new Error(`files of another kind pulled: ${[...pulled.keys()].join(', ')}`);

    step = 'pull Warehouse, Enter on the default';
    await pullWarehouseScanners(page);
    const dialog = page.locator('.monaco-dialog-box', { hasText: /another pull/ }).first();
    await dialog.waitFor({ timeout: 10_000 }).catch(() => {
      const files = pulledFiles(root);
      const gone = [...pulled.keys()].filter((f) => !files.has(f)).length;
      throw new Error(`no question; ${gone} of Head Office's ${pulled.size} files removed, ${files.size - pulled.size + gone} Warehouse files written`);
    });
    const said = (await dialog.innerText()).replace(/\s+/g, ' ');
    if (!said.includes(`removes their ${pulled.size} files`) || ![...pulled.keys()].some((f) => said.includes(f))) {
      throw new Error(`the question does not say what it would remove: ${said}`);
    }
    await page.screenshot({ path: `${diag}/ui-pull-another-scope.png` });
    await page.keyboard.press('Escape'); // Cancel
    await dialog.waitFor({ state: 'hidden', timeout: 5_000 });
    await page.waitForTimeout(1_500);
    const afterCancel = pulledFiles(root);
    if (JSON.stringify([...afterCancel]) !== JSON.stringify([...pulled])) {
      throw new Error(`Cancel changed the folder: ${[...pulled.keys()].filter((f) => !afterCancel.has(f)).length} removed, ${afterCancel.size} files now`);
    }

    step = 'an edited file, pull Warehouse again';
    const edited = headScanners[headScanners.length - 1];
    const file = [...pulled.keys()].find((f) => f.endsWith(`.${edited.Key}.json`))!;
    const text = JSON.parse(pulled.get(file)!);
    fs.writeFileSync(path.join(root, file), JSON.stringify({ ...text, NonSettlingErrorPriority: (edited.NonSettlingErrorPriority % 9) + 1 }, null, 2) + '\n');
    const withEdit = pulledFiles(root);
    await pullWarehouseScanners(page);
    const refused = await notification(page, /was edited since/);
    const refusal = (await refused.innerText()).replace(/\s+/g, ' ');
    if (!refusal.includes(file)) throw new Error(`the refusal does not name the edited file: ${refusal}`);
    await page.keyboard.press('Escape');
    if (await page.locator('.monaco-dialog-box').count()) throw new Error('asked to replace a folder with an edited file');
    const afterRefusal = pulledFiles(root);
    if (JSON.stringify([...afterRefusal]) !== JSON.stringify([...withEdit])) throw new Error('the refused pull changed the folder');
    if (warehouseScanners.some((o) => [...afterRefusal.keys()].some((f) => f.endsWith(`.${o.Key}.json`)))) throw new Error('a Warehouse file was written');

    step = 'plan';
    // The Objects view folded: the Object Changes view gets the side bar (its rows are drawn only when in view).
    await objectsView(page, false);
    await planChangesOf(page, 'oms/sandbox');
    await planRow(page, 'Update (1)').waitFor({ timeout: 20_000 });
    await planRow(page, edited.CommonName).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: `${diag}/ui-pull-another-scope-plan.png` });
  } catch (e) {
    throw new Error(`${step}: ${(e as Error).message}`, { cause: e });
  } finally {
    await page.keyboard.press('Escape');
    await objectsView(page, true);
  }
}

export const pullScopeChecks: UiCheckList = (page, env, diag) => [
  [
    "ui: objects as code: Warehouse's scanners pulled (Enter on the default) into the folder of Head Office's asks, naming what it would remove; " +
      'Cancel removes nothing; with a file edited it is refused and the edit stays in the plan',
    () => pullAnotherScope(page, env, diag),
  ],
];
