// A pulled folder is untrusted input, where a person sees it: a manifest edited (say, through git) to point a
// folder outside the pulled folder; Pull Again from the palette is refused for that entry, naming it, and
// nothing outside changes. And an apply cut short by Developer: Reload Window: the next plan offers no create
// that landed, and the next apply makes no object twice. Mouse and keyboard in the window; the files read on
// disk, the objects counted over REST.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { pick, fromMenu, floors, get, input, notification, palette, send, until, type Env, type UiCheckList } from './helpers';
import { objectsView, planAction, planChangesOf, planRow } from './plan';

const rows = (page: Page) => page.locator('.part.sidebar .monaco-list-row');

/** The pulled folder of the workspace (`oms/sandbox`), pulled here by right-clicking Floor 1's input scanners when no check did before. */
async function pulledFolder(page: Page, env: Env): Promise<string> {
  const root = path.join(env.OMS_WORKSPACE, 'oms', 'sandbox');
  if (fs.existsSync(path.join(root, 'oms.manifest.json'))) return root;
  for (const [label, level] of [
    ['Sandbox', 1],
    ['Demo Instance', 2],
    ['Head Office', 3],
    ['Floor 1', 4],
  ] as const) {
    const row = rows(page)
      .and(page.locator(`[aria-level="${level}"]`))
      .filter({ hasText: label })
      .first();
    await row.waitFor({ timeout: 15_000 });
    if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
  }
  await fromMenu(
    page,
    rows(page)
      .and(page.locator('[aria-level="5"]'))
      .filter({ hasText: /^\s*Input scanners/ })
      .first(),
    'Pull as Files',
  );
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'oms/sandbox' }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  await until('the pulled folder', () => Promise.resolve(fs.existsSync(path.join(root, 'oms.manifest.json'))), 20_000);
  return root;
}

/** Every file under `dir`, with its text. */
function snapshot(dir: string): string {
  return JSON.stringify(
    fs
      .readdirSync(dir, { recursive: true })
      .map(String)
      .sort()
      .map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]),
  );
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
  const pickFolder = async () => {
    // Several pulled folders: the one edited here (not the first row: the folder the view shows comes first).
    const row = pick(page, 'oms/sandbox');
    if (
      await row.waitFor({ timeout: 3_000 }).then(
        () => true,
        () => false,
      )
    )
      await row.click();
  };
  try {
    // The plan names the refused entry among its invalid ones.
    await palette(page, 'Plan Changes');
    await pickFolder();
    const pane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Object Changes' }) }).first();
    await pane
      .locator('.monaco-list-row', { hasText: /outside-untrusted|refused/ })
      .first()
      .waitFor({ timeout: 20_000 })
      .catch(async () => {
        throw new Error(`the plan does not name the entry: ${await pane.innerText().catch(() => '')}`);
      });
    await palette(page, 'Pull Again');
    await pickFolder();
    // Files edited by an earlier check: keep them (a modal asks).
    const keep = page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Keep My Edits' }).first();
    if (
      await keep.waitFor({ timeout: 3_000 }).then(
        () => true,
        () => false,
      )
    )
      await keep.click();
    const said = await notification(page, /outside-untrusted\/x/);
    const text = await said.innerText();
    if (!text.includes(floor1.Key) || !/refused/.test(text)) throw new Error(`the message does not name the entry: ${text}`);
    await page.keyboard.press('Escape');
    if (snapshot(outside) !== before) throw new Error('something outside the pulled folder changed');
    if (fs.existsSync(path.join(outside, 'x'))) throw new Error('the pull wrote outside the pulled folder');
  } finally {
    fs.writeFileSync(file, original);
    fs.rmSync(outside, { recursive: true, force: true });
    await input(page)
      .press('Escape')
      .catch(() => undefined);
  }
}

/** The creates of a plan as the Object Changes view shows them: its Create group's count and how many of them are ticked. */
async function shownCreates(page: Page): Promise<{ shown: number; ticked: number } | undefined> {
  const group = planRow(page, /^\s*Create \(\d+\)/);
  if (!(await group.count())) return undefined;
  // "Create (12): 12 of 12 ticked"
  const m = /\((\d+)\): (\d+) of/.exec((await group.getAttribute('aria-label')) ?? '');
  return m ? { shown: Number(m[1]), ticked: Number(m[2]) } : undefined;
}

/**
 * 150 new scanner files, Apply Ticked Changes, and Developer: Reload Window while the sandbox holds some of them (its
 * answers slowed by a fault rule, so that the reload lands mid-apply). The plan after the reload offers only the
 * creates that did not land (those whose answers the reload lost are adopted: their files take their Keys); a
 * second apply sends those, and the server then holds each object once.
 */
async function applyCutByReload(page: Page, env: Env, diag: string): Promise<void> {
  const total = 150;
  const root = await pulledFolder(page, env);
  const { floor1 } = await floors(env);
  const scanners = () => get(env, `/api/f/${floor1.Key}/inputscanners?pageSize=1000`) as Promise<any[]>;
  const stamp = Date.now();
  const prefix = `Reload ${stamp} `;
  const mine = async () => (await scanners()).filter((s) => String(s.CommonName).startsWith(prefix));
  // The new files (reload-7.json), and those that took their Keys (reload-<stamp>-007.<Key>.json).
  const newFiles = () => fs.readdirSync(dir).filter((f) => /^reload-\d+\.json$/.test(f)).length;
  const keyedFiles = () => fs.readdirSync(dir).filter((f) => f.startsWith(`reload-${stamp}-`)).length;
  const folder = fs.readdirSync(root).find((d) => d.endsWith(`.${floor1.Key}`));
  if (!folder) throw new Error('no directory of Floor 1 in the pulled folder');
  const dir = path.join(root, folder, 'inputscanners');
  const like = JSON.parse(
    fs.readFileSync(
      path.join(
        dir,
        fs.readdirSync(dir).find((f) => f.endsWith('.json'))!,
      ),
      'utf8',
    ),
  );
  delete like.Key;
  for (let i = 1; i <= total; i++) {
    fs.writeFileSync(path.join(dir, `reload-${i}.json`), JSON.stringify({ ...like, CommonName: `${prefix}${String(i).padStart(3, '0')}` }, null, 2) + '\n');
  }
  const numbers: Record<string, unknown> = { total };
  const write = () => fs.writeFileSync(path.join(diag, 'reload-apply.json'), JSON.stringify(numbers, null, 2) + '\n');
  const objects = page.locator('.part.sidebar .pane-header', { hasText: 'Objects' }).first();
  try {
    await planChangesOf(page, 'oms/sandbox');
    await until(`Create (${total}) in the plan`, async () => (await shownCreates(page))?.ticked === total, 30_000);
    // The Objects view folded: the Object Changes view gets the side bar.
    await objectsView(page, false);

    // Each answer of the folder's scanners 1.5 s late (the create itself is made at once): about 3 creates a second, and
    // those in flight when the window reloads are on the server, their answers lost.
    await send(env, 'POST', '/sandbox/faults', { path: `/api/f/${floor1.Key}/inputscanners`, delayMs: 1_500, count: 100_000 });
    await planAction(page, 'Apply Ticked Changes');
    const go = pick(page, 'continue after errors');
    await go.waitFor({ timeout: 10_000 });
    await go.click();
    numbers.atReload = await until(
      'some creates on the server',
      async () => {
        const n = (await mine()).length;
        return n >= 10 && n;
      },
      30_000,
    );
    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    await palette(page, 'Developer: Reload Window');
    await reloaded;
    numbers.afterReloadCommand = (await mine()).length;
    // The reloaded window's extension host is a new one; the old one's requests in flight end with it. Landed: what the
    // server holds once its count stays the same for 3 s.
    let landed = -1;
    await until(
      "the server's count to settle after the reload",
      async () => {
        const before = landed;
        await page.waitForTimeout(3_000);
        landed = (await mine()).length;
        return landed === before;
      },
      60_000,
    );
    numbers.landed = landed;
    const pendingFile = path.join(root, 'oms.pending.jsonl');
    const lines = fs.existsSync(pendingFile) ? fs.readFileSync(pendingFile, 'utf8').split('\n').filter(Boolean) : [];
    numbers.pending = { sent: lines.filter((l) => l.startsWith('{"create"')).length, settled: lines.filter((l) => l.startsWith('{"settled"')).length };
    numbers.keyedBeforePlan = keyedFiles();
    write();
    if (landed <= 0 || landed >= total) throw new Error(`the reload did not land mid-apply: ${landed} of ${total} created`);
    await send(env, 'DELETE', '/sandbox/faults');

    // Plan Changes… after the reload: only the creates that did not land, all ticked.
    await page.locator('.part.activitybar, .part.sidebar').first().waitFor({ timeout: 30_000 });
    await planChangesOf(page, 'oms/sandbox');
    if ((await objects.getAttribute('aria-expanded').catch(() => null)) !== 'false')
      await objects
        .locator('.title')
        .first()
        .click()
        .catch(() => undefined);
    const offered = await until('the plan after the reload', () => shownCreates(page), 30_000);
    numbers.offered = offered;
    const adopted = await notification(page, /answer was lost/).then(
      (n) => n.innerText(),
      () => '',
    );
    numbers.adoptedMessage = adopted.replace(/\s+/g, ' ').slice(0, 300);
    await page.keyboard.press('Escape');
    write();
    await page.screenshot({ path: `${diag}/reload-plan.png` });
    if (offered.shown !== total - landed || offered.ticked !== total - landed) {
      throw new Error(`after ${landed} of ${total} landed, the plan offers ${offered.shown} creates (${offered.ticked} ticked), expected ${total - landed}`);
    }
    numbers.keyedAfterPlan = keyedFiles();
    write();
    if (newFiles() !== total - landed) throw new Error(`${newFiles()} new files left without a Key after the plan, expected ${total - landed}`);

    // Apply again: every object once.
    await planAction(page, 'Apply Ticked Changes');
    await go.waitFor({ timeout: 10_000 });
    await go.click();
    await until(`${total} on the server`, async () => (await mine()).length >= total, 60_000);
    await page.waitForTimeout(2_000);
    const all = await mine();
    numbers.atEnd = all.length;
    numbers.distinctNames = new Set(all.map((s) => s.CommonName)).size;
    write();
    if (all.length !== total || numbers.distinctNames !== total) {
      throw new Error(`${all.length} objects on the server (${String(numbers.distinctNames)} names), expected ${total} once each`);
    }
    await until('every new file to hold its Key', () => Promise.resolve(newFiles() === 0 && keyedFiles() === total), 20_000);
    const keyed = new Set(fs.readdirSync(dir).map((f) => f.split('.').at(-2)));
    const missing = all.filter((s) => !keyed.has(s.Key));
    if (missing.length) throw new Error(`${missing.length} created objects have no file named with their Key`);
    await planChangesOf(page, 'oms/sandbox');
    await until('a plan with no create', async () => !(await shownCreates(page)), 20_000).catch(async () => {
      throw new Error(`a create is offered after the second apply: ${JSON.stringify(await shownCreates(page))}`);
    });
  } finally {
    write();
    await send(env, 'DELETE', '/sandbox/faults').catch(() => undefined);
    for (const s of await mine()) await send(env, 'DELETE', `/api/f/${floor1.Key}/inputscanners/${s.Key}`).catch(() => undefined);
    for (const f of fs.readdirSync(dir)) {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      if (text.includes(prefix)) fs.rmSync(path.join(dir, f));
    }
    if ((await objects.getAttribute('aria-expanded').catch(() => null)) === 'false')
      await objects
        .locator('.title')
        .first()
        .click()
        .catch(() => undefined);
  }
}

export const untrustedChecks: UiCheckList = (page, env, diag) => [
  [
    'ui: a pulled folder whose manifest points outside: Pull Again refuses that entry, naming it, and nothing outside changes',
    () => manifestPointingOutside(page, env),
  ],
  [
    'ui: an apply of 150 creates cut short by Developer: Reload Window: the next plan offers only those that did not land, the next apply makes none twice',
    () => applyCutByReload(page, env, diag),
  ],
];
