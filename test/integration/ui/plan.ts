// Objects as code where a person sees it: pull a folder's input scanners as files, edit
// three and delete one, plan, untick one, dry run, apply, a server change making an entry stale,
// pull again. Mouse and keyboard in the window; the result read from the sandbox, the files and git.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import {
  pick,
  fromMenu,
  createScanner,
  get,
  send,
  until,
  input,
  palette,
  floors,
  activeTabText,
  cursorAfter,
  quickInputText,
  type Env,
  type UiCheckList,
} from './helpers';

const sidebarRows = (page: Page) => page.locator('.part.sidebar .monaco-list-row');
export const planPane = (page: Page) => page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Object Changes' }) }).first();
export const planRow = (page: Page, text: string | RegExp) => planPane(page).locator('.monaco-list-row', { hasText: text }).first();

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=UI Check', '-c', 'user.email=ui@example.com', ...args], { cwd, encoding: 'utf8' });
}

/** The Floor 1 "Input scanners" group in the Objects view, expanded down to it. */
async function floor1Scanners(page: Page): Promise<void> {
  await page
    .locator('.sidebar .title-actions .action-label[aria-label="Collapse All"]')
    .first()
    .click()
    .catch(() => undefined);
  for (const [label, level] of [
    ['Sandbox', 1],
    ['Demo Instance', 2],
    ['Head Office', 3],
    ['Floor 1', 4],
  ] as const) {
    const row = sidebarRows(page)
      .and(page.locator(`[aria-level="${level}"]`))
      .filter({ hasText: label })
      .first();
    await row.waitFor({ timeout: 15_000 });
    if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
    await until(`${label} expanded`, async () => (await row.getAttribute('aria-expanded')) === 'true');
  }
}

/** A title action of the Object Changes view, by its label (the header shows them on hover). */
export async function planAction(page: Page, label: string): Promise<void> {
  await planPane(page).locator('.pane-header').hover();
  await planPane(page).locator(`.pane-header .action-label[aria-label^="${label}"]`).first().click();
}

/**
 * The Objects view's pane unfolded or folded (folded, the Object Changes view gets the side bar: its rows
 * are drawn only when in view), by a click on its title as a person folds it: the header's middle may be
 * one of the view's title actions.
 */
export async function objectsView(page: Page, shown: boolean): Promise<void> {
  const header = page.locator('.part.sidebar .pane-header', { hasText: 'Objects' }).first();
  if (((await header.getAttribute('aria-expanded')) === 'true') !== shown) await header.locator('.title').first().click();
}

/**
 * The plan's `count` deletes, included with Include Deletes if the plan leaves them out (once included,
 * they stay included for the folder): their group's row.
 */
export async function includedDeletes(page: Page, count: number): Promise<Locator> {
  const deletes = planRow(page, `Delete (${count})`),
    skipped = planRow(page, `Deleted files, not sent (${count})`);
  await deletes.or(skipped).first().waitFor({ timeout: 10_000 });
  if (await skipped.isVisible()) await planAction(page, 'Include Deletes');
  await deletes.waitFor({ timeout: 20_000 });
  return deletes;
}

/**
 * Pull Again of `folder` (its plan's Behind rows drawn first), overwriting edits an earlier check left if
 * it asks, until `pulled` holds: the question is looked for all along, not for a fixed time after the click.
 */
export async function pullAgain<T>(page: Page, folder: string, pulled: () => T | false): Promise<T> {
  await planChangesOf(page, folder);
  await planRow(page, /Behind/).waitFor({ timeout: 20_000 });
  await planAction(page, 'Pull Again');
  const overwrite = page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Overwrite Them' }).first();
  return until(
    'the pull',
    async () => {
      if (await overwrite.isVisible()) await overwrite.click();
      return pulled();
    },
    30_000,
  );
}

/** Plan Changes… from the palette, on `folder` (asked for when a plan of another folder is shown or the workspace holds more). */
export async function planChangesOf(page: Page, folder: string): Promise<void> {
  await palette(page, 'OMS: Plan Changes');
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: folder }).first();
  if (
    await row.waitFor({ timeout: 2_000 }).then(
      () => true,
      () => false,
    )
  )
    await row.click();
}

/** Ctrl+P to the file, the first "Priority": value replaced by `value`, Ctrl+S. */
async function editPriority(page: Page, file: string, value: number): Promise<void> {
  await page.keyboard.press('Control+p');
  await input(page).waitFor({ timeout: 5_000 });
  await input(page).fill(file);
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: file }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  await until(`tab ${file}`, async () => (await activeTabText(page)).includes(file.slice(0, 20)));
  await page.locator('.editor-group-container.active .monaco-editor.focused').first().waitFor({ timeout: 10_000 });
  await cursorAfter(page, '"Priority": ');
  await page.keyboard.press('Shift+ArrowRight');
  // A workspace file with a short auto-save delay shows no unsaved mark: the caller reads the file on disk.
  await page.keyboard.type(String(value));
  await page.keyboard.press('Control+s');
}

/** Pull as Files… on Floor 1's input scanners (right-click the group), into the suggested folder of the workspace. */
export async function pullFloor1(page: Page, env: Env, count: number): Promise<{ root: string; dir: string }> {
  const workspace = env.OMS_WORKSPACE;
  const { floor1 } = await floors(env);
  await floor1Scanners(page);
  const group = sidebarRows(page)
    .and(page.locator('[aria-level="5"]'))
    .filter({ hasText: /^\s*Input scanners/ })
    .first();
  await fromMenu(page, group, 'Pull as Files');
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'oms/sandbox' }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  const root = path.join(workspace, 'oms', 'sandbox');
  const dir = await until(
    'the pulled files',
    () => {
      const folder = fs.existsSync(root) && fs.readdirSync(root).find((d) => d.endsWith(`.${floor1.Key}`));
      const d = folder && path.join(root, folder, 'inputscanners');
      return Promise.resolve(d && fs.existsSync(d) && fs.readdirSync(d).length === count && fs.existsSync(path.join(root, 'oms.manifest.json')) && d);
    },
    20_000,
  );
  return { root, dir };
}

async function pullPlanApply(page: Page, env: Env, diag: string): Promise<void> {
  const workspace = env.OMS_WORKSPACE;
  if (!workspace) throw new Error('OMS_WORKSPACE is not set by the runner');
  const { floor1 } = await floors(env);
  const at = (key: string) => `/api/f/${floor1.Key}/inputscanners/${key}`;
  const scanners: any[] = await get(env, `/api/f/${floor1.Key}/inputscanners`);

  const { dir } = await pullFloor1(page, env, scanners.length);
  const fileOf = (key: string) => fs.readdirSync(dir).find((f) => f.endsWith(`.${key}.json`))!;
  git(workspace, 'init', '-q');
  git(workspace, 'add', '-A');
  git(workspace, 'commit', '-qm', 'pulled');

  // Edit a priority in three files (keyboard, in the editor), delete the fourth.
  const [a, b, c, d] = scanners;
  // 7: a priority no demo scanner has, so the edit is a change whichever row it lands on.
  for (const s of [a, b, c]) await editPriority(page, fileOf(s.Key), 7);
  // Which row each edit hit (the find lands on a row's Priority): exactly one value changed per file.
  const rowsOf = (s: any): number[] =>
    JSON.parse(fs.readFileSync(path.join(dir, fileOf(s.Key)), 'utf8')).InputScannerReportingPriorities.map((r: any) => r.Priority);
  const editedRow = (s: any) => {
    const before = s.InputScannerReportingPriorities.map((r: any) => r.Priority);
    const changed = rowsOf(s).flatMap((p, i) => (p !== before[i] ? [i] : []));
    return changed.length === 1 ? changed[0] : undefined;
  };
  await until('the three edits on disk', () => Promise.resolve([a, b, c].every((s) => editedRow(s) !== undefined)));
  const edits = new Map([a, b, c].map((s) => [s.Key, { row: editedRow(s)!, value: rowsOf(s)[editedRow(s)!] }]));
  await palette(page, 'View: Close All Editors');
  fs.rmSync(path.join(dir, fileOf(d.Key)));

  // Plan: 3 updates, no delete until deletes are included.
  await planChangesOf(page, 'oms/sandbox');
  // The Objects view folded: the Object Changes view gets the side bar (its rows are drawn only when in view).
  await planRow(page, 'Update (3)').waitFor({ timeout: 20_000 });
  await objectsView(page, false);
  await planRow(page, 'Deleted files, not sent (1)').waitFor({ timeout: 5_000 });
  if (
    await planPane(page)
      .locator('.monaco-list-row', { hasText: /^\s*Delete \(/ })
      .count()
  )
    throw new Error('a delete shown before deletes were included');
  await planAction(page, 'Include Deletes');
  await planRow(page, /Delete \(1\)/).waitFor({ timeout: 20_000 });
  // For the README: the side bar wider, an update opened beside the server's version.
  const sash = await page.locator('.part.sidebar').boundingBox();
  if (sash) {
    await page.mouse.move(sash.x + sash.width + 1, 400);
    await page.mouse.down();
    await page.mouse.move(sash.x + sash.width + 260, 400, { steps: 5 });
    await page.mouse.up();
  }
  await planRow(page, a.CommonName).locator('.label-name').first().click();
  await page.locator('.editor-group-container.active .monaco-diff-editor').first().waitFor({ timeout: 10_000 });
  await page.waitForTimeout(1_000);
  await page.screenshot({ path: `${diag}/plan.png` });
  await palette(page, 'View: Close All Editors');

  // Untick c.
  const rowC = planRow(page, c.CommonName);
  await rowC.locator('.custom-view-tree-node-item-checkbox, .monaco-custom-toggle').first().click();

  // Dry run: the requests listed, nothing sent.
  await planAction(page, 'Apply (Dry Run)');
  const dry = await until('the dry-run document', async () => {
    // Monaco draws spaces as no-break spaces.
    const text = (
      await page
        .locator('.editor-group-container.active .view-lines')
        .first()
        .innerText()
        .catch(() => '')
    ).replace(/\u00a0/g, ' ');
    return text.includes('Nothing was sent') && text;
  });
  const puts = (dry.match(/-X PUT/g) ?? []).length;
  if (puts !== 2) throw new Error(`the dry run lists ${puts} PUTs, expected 2`);
  for (const s of [a, b, c]) if ((await get(env, at(s.Key))).ConcurrencyVersion !== s.ConcurrencyVersion) throw new Error('the dry run changed the server');
  await palette(page, 'View: Close All Editors');
  const dontSave = page.locator('.monaco-dialog-box .monaco-button', { hasText: "Don't Save" }).first();
  if (
    await dontSave.waitFor({ timeout: 1_500 }).then(
      () => true,
      () => false,
    )
  )
    await dontSave.click();

  // Apply, continue after errors: exactly a and b change, each version +1.
  await planAction(page, 'Apply Ticked Changes');
  await pick(page, 'continue after errors').waitFor({ timeout: 10_000 });
  await pick(page, 'continue after errors').click();
  for (const s of [a, b]) {
    const now = await until(
      `${s.CommonName} applied`,
      async () => {
        const o = await get(env, at(s.Key));
        return o.ConcurrencyVersion !== s.ConcurrencyVersion && o;
      },
      20_000,
    );
    if (now.ConcurrencyVersion !== s.ConcurrencyVersion + 1)
      throw new Error(`${s.CommonName}: version ${now.ConcurrencyVersion}, expected ${s.ConcurrencyVersion + 1}`);
    const { row, value } = edits.get(s.Key)!;
    if (now.InputScannerReportingPriorities[row].Priority !== value)
      throw new Error(`${s.CommonName}: row ${row + 1} priority ${now.InputScannerReportingPriorities[row].Priority}, expected ${value}`);
  }
  for (const s of [c, d]) if ((await get(env, at(s.Key))).ConcurrencyVersion !== s.ConcurrencyVersion) throw new Error(`${s.CommonName} changed`);

  // c changes on the server: the plan marks it stale, and apply sends nothing for it.
  const cNow = await get(env, at(c.Key));
  await send(env, 'PUT', at(c.Key), { ...cNow, NonSettlingErrorPriority: (cNow.NonSettlingErrorPriority % 9) + 1 });
  await planAction(page, 'Plan Changes');
  await planRow(page, /Stale/).waitFor({ timeout: 20_000 });
  await planRow(page, c.CommonName).waitFor({ timeout: 5_000 });
  await planAction(page, 'Apply Ticked Changes');
  await page.waitForTimeout(2_000);
  await page.keyboard.press('Escape');
  if ((await get(env, at(c.Key))).ConcurrencyVersion !== cNow.ConcurrencyVersion + 1) throw new Error('apply sent something for the stale scanner');

  // Pull again, overwriting the edits left: git shows only what the server changed (a, b applied; c changed over REST) and the manifest.
  await planAction(page, 'Pull Again');
  await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Overwrite Them' }).first().click({ timeout: 10_000 });
  const expected = [fileOf(a.Key), fileOf(b.Key), fileOf(c.Key)]
    .map((f) => path.relative(workspace, path.join(dir, f)))
    .concat('oms/sandbox/oms.manifest.json')
    .sort();
  const changed = () =>
    git(workspace, 'status', '--porcelain')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.slice(3))
      .sort();
  await until('git status after the pull', () => Promise.resolve(JSON.stringify(changed()) === JSON.stringify(expected)), 20_000).catch(() => {
    throw new Error(`git status: ${git(workspace, 'status', '--porcelain').replace(/\n/g, '; ')} expected ${expected.join(', ')}`);
  });
}

const exists = async (env: Env, at: string) =>
  (await fetch(env.OMS_SANDBOX_URL + at, { headers: { Authorization: `Bearer ${env.OMS_SANDBOX_TOKEN}` } })).status === 200;

/** Apply Ticked Changes, continue after errors, the delete count typed: what the box then shows. */
async function applyTyping(page: Page, count: string): Promise<void> {
  await planAction(page, 'Apply Ticked Changes');
  const go = pick(page, 'continue after errors');
  await go.waitFor({ timeout: 10_000 });
  await go.click();
  await until('the delete count box', async () => /Delete 2 objects/.test(await quickInputText(page)));
  await input(page).pressSequentially(count);
  await page.keyboard.press('Enter');
}

/**
 * Deletes ask for their count typed (a wrong one sends nothing); on a production connection the
 * run asks once, naming counts and URL (Cancel sends nothing; Send applies all of it, asked once).
 */
async function productionAndDeletes(page: Page, env: Env, diag: string): Promise<void> {
  const { floor1 } = await floors(env);
  const at = (key: string) => `/api/f/${floor1.Key}/inputscanners/${key}`;
  const [like] = await get(env, `/api/f/${floor1.Key}/inputscanners`);
  const stamp = Date.now();
  const [x, y, z] = [
    await createScanner(env, floor1.Key, like, `Plan X ${stamp}`),
    await createScanner(env, floor1.Key, like, `Plan Y ${stamp}`),
    await createScanner(env, floor1.Key, like, `Plan Z ${stamp}`),
  ];
  const count = (await get(env, `/api/f/${floor1.Key}/inputscanners`)).length;
  const connection = page.locator('.part.sidebar .monaco-list-row[aria-level="1"]').first();
  let production = false;
  let step = 'pull';
  try {
    // The folder of the check before, pulled again; or a pull of its own when run alone.
    const root = path.join(env.OMS_WORKSPACE, 'oms', 'sandbox');
    let dir: string;
    if (fs.existsSync(path.join(root, 'oms.manifest.json'))) {
      const folder = fs.readdirSync(root).find((d) => d.endsWith(`.${floor1.Key}`))!;
      dir = await pullAgain(page, 'oms/sandbox', () => {
        const d = path.join(root, folder, 'inputscanners');
        return fs.readdirSync(d).length === count && d;
      });
    } else {
      ({ dir } = await pullFloor1(page, env, count));
    }
    const fileOf = (key: string) =>
      path.join(
        dir,
        fs.readdirSync(dir).find((f) => f.endsWith(`.${key}.json`))!,
      );
    const xFile = JSON.parse(fs.readFileSync(fileOf(x.Key), 'utf8'));
    xFile.NonSettlingErrorPriority = (x.NonSettlingErrorPriority % 9) + 1;
    fs.writeFileSync(fileOf(x.Key), JSON.stringify(xFile, null, 2) + '\n');
    fs.rmSync(fileOf(y.Key));
    fs.rmSync(fileOf(z.Key));

    step = 'mark as production';
    await fromMenu(page, connection, 'Mark as Production');
    production = true;
    await connection.filter({ hasText: 'PRODUCTION' }).waitFor({ timeout: 10_000 });

    step = 'plan with deletes';
    await planChangesOf(page, 'oms/sandbox');
    await planRow(page, 'Update (1)').waitFor({ timeout: 20_000 });
    await objectsView(page, false);
    const deletes = await includedDeletes(page, 2);
    step = 'tick the deletes';
    // Deletes start unticked: tick the group.
    await deletes.locator('.custom-view-tree-node-item-checkbox').first().click({ timeout: 10_000 });
    await until('3 ticked', async () => (await planPane(page).innerText()).includes('3 ticked to send'));
    const unchanged = async (why: string) => {
      await page.waitForTimeout(1_500);
      if ((await get(env, at(x.Key))).ConcurrencyVersion !== x.ConcurrencyVersion) throw new Error(`${why}: the update was sent`);
      if (!(await exists(env, at(y.Key))) || !(await exists(env, at(z.Key)))) throw new Error(`${why}: a delete was sent`);
    };

    step = 'a wrong count';
    // A wrong count: the box says what to type and stays; Escape sends nothing (no production question either).
    await applyTyping(page, '1');
    await until('the count asked for', async () =>
      (
        await page
          .locator('.quick-input-message')
          .first()
          .innerText()
          .catch(() => '')
      ).includes('Type 2 to confirm'),
    );
    if (!(await input(page).isVisible())) throw new Error('a wrong count was accepted');
    await page.keyboard.press('Escape');
    if (await page.locator('.monaco-dialog-box').count()) throw new Error('asked about production after a wrong count');
    await unchanged('a wrong count');

    step = 'the production question, Cancel';
    // The right count, then the production question, naming counts and URL: Cancel sends nothing.
    await applyTyping(page, '2');
    const dialog = page.locator('.monaco-dialog-box', { hasText: /production/ }).first();
    await dialog.waitFor({ timeout: 10_000 });
    const said = (await dialog.innerText()).replace(/\s+/g, ' ');
    if (!said.includes('1 to update, 2 to delete') || !said.includes(new URL(env.OMS_SANDBOX_URL).host))
      throw new Error(`the question does not name counts and URL: ${said}`);
    await page.screenshot({ path: `${diag}/plan-production-confirm.png` });
    await page.keyboard.press('Escape');
    await unchanged('Cancel');

    step = 'Send';
    // Send: all three go, and nothing asks again.
    await applyTyping(page, '2');
    await dialog.waitFor({ timeout: 10_000 });
    await dialog.locator('.monaco-button', { hasText: 'Send' }).first().click();
    await until(
      'the run applied',
      async () =>
        !(await exists(env, at(y.Key))) && !(await exists(env, at(z.Key))) && (await get(env, at(x.Key))).ConcurrencyVersion === x.ConcurrencyVersion + 1,
      20_000,
    ).catch(async (e: Error) => {
      throw new Error(`${e.message}${(await page.locator('.monaco-dialog-box').count()) ? ' (a second question is showing)' : ''}`);
    });
    if (await page.locator('.monaco-dialog-box').count()) throw new Error('asked a second time');
    if ((await get(env, at(x.Key))).NonSettlingErrorPriority !== xFile.NonSettlingErrorPriority) throw new Error('the update did not land as edited');
  } catch (e) {
    throw new Error(`${step}: ${(e as Error).message}`, { cause: e });
  } finally {
    if (production) {
      await page.keyboard.press('Escape');
      await objectsView(page, true);
      await fromMenu(page, connection, 'Unmark as Production');
    }
    for (const o of [x, y, z]) if (await exists(env, at(o.Key))) await send(env, 'DELETE', at(o.Key));
  }
}

export const planChecks: UiCheckList = (page, env, diag) => [
  [
    'ui: objects as code: pull scanners as files, edit 3 and delete 1, plan (no delete until included), ' +
      'untick one, dry run, apply, stale after a server change, pull again',
    () => pullPlanApply(page, env, diag),
  ],
  [
    'ui: objects as code: deletes need their count typed (a wrong count sends nothing); ' +
      'on production the apply asks once naming counts and URL (Cancel sends nothing)',
    () => productionAndDeletes(page, env, diag),
  ],
];
