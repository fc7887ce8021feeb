// Bulk edit, Retry Failed and Undo Run where a person sees them: Go to Object, the
// preview's counts, apply, the sandbox's fault injection; every result read from the sandbox.
import type { Page } from 'playwright-core';
import {
  waitForTitle,
  fromMenu,
  get,
  send,
  until,
  input,
  palette,
  notification,
  query,
  floors,
  activeTab,
  goToObject,
  statusVersion,
  cursorAfter,
  typeEdit,
  activeTabDirty,
  revertActive,
  closeFind,
  pickTyped,
  type Env,
  type UiCheckList,
} from './helpers';

const range = { min: 850, max: 1150 };
async function folderKeys(env: Env): Promise<string[]> {
  const root = await get(env, '/api');
  const out = [root.Key as string];
  for (let i = 0; i < out.length; i++) for (const f of await get(env, `/api/f/${out[i]}/folders?pageSize=1000`)) out.push(f.Key);
  return out;
}

/** Every scanner whose name holds every word of `text`, as the server has it now. */
async function scannersNamed(env: Env, text: string): Promise<any[]> {
  const words = text.toLowerCase().split(/\s+/);
  const out: any[] = [];
  for (const f of await folderKeys(env)) {
    for (const s of await get(env, `/api/f/${f}/inputscanners?pageSize=1000`))
      if (words.every((w) => String(s.CommonName).toLowerCase().includes(w))) out.push(s);
  }
  return out;
}

const rowOf = (s: any) => s.InputScannerReportingPriorities.find((r: any) => r.MinResistanceCode === range.min && r.MaxResistanceCode === range.max);
const at = (s: any) => s.Href as string;

/** A value of the row's `field` that none of the scanners has yet. */
function unusedValue(scanners: any[], field: string): number {
  const used = new Set(scanners.map((s) => rowOf(s)[field]));
  for (let v = 0; ; v++) if (!used.has(v)) return v;
}

/** Go to Object, the query, the picker's "Bulk Edit All Results" button, then the row, the field and the value by keyboard. */
async function bulkSetRow(page: Page, text: string, field: 'Priority' | 'StatusCode', value: number, keepEditors = false): Promise<string> {
  if (!keepEditors) await palette(page, 'View: Close All Editors');
  await query(page, text);
  await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 15_000 });
  await page
    .locator('.quick-input-widget .action-label[aria-label="Bulk Edit All Results"], .quick-input-widget .action-label[title="Bulk Edit All Results"]')
    .first()
    .click();
  await waitForTitle(page, 'operation');
  await page.keyboard.press('Enter'); // Set a reporting priority row…
  await waitForTitle(page, 'Which row');
  await pickTyped(page, `${range.min} – ${range.max}`);
  await waitForTitle(page, 'Which value of the row');
  if (field === 'StatusCode') await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await waitForTitle(page, `New ${field}`);
  await input(page).fill(String(value));
  await page.keyboard.press('Enter');
  return waitForTitle(page, / to change · /);
}

/** The preview's first item, once highlighted: apply, continue after errors. */
export async function applyAll(page: Page): Promise<void> {
  const row = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'continue after errors' }).first();
  await row.waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  // The preview closes on Enter: one still open means the key went elsewhere, said with where the focus was.
  await row.waitFor({ state: 'hidden', timeout: 10_000 }).catch(async () => {
    const at = await page.evaluate<string>('`${document.activeElement?.tagName} ${document.activeElement?.className}`');
    throw new Error(`the preview stayed open after Enter on "continue after errors"; the focus was on ${at}`);
  });
}

/** Thirty "Door Bulk" scanners in a folder the tree never opened in this window, beside the demo's (made once). */
async function doorBulkScanners(env: Env): Promise<any[]> {
  const made = await scannersNamed(env, 'door bulk');
  if (made.length) return made;
  const root = await get(env, '/api');
  const warehouse = (await get(env, `/api/f/${root.Key}/folders`)).find((f: any) => f.CommonName === 'Warehouse');
  const [model] = await scannersNamed(env, '');
  const { Key: _k, Href: _h, ConcurrencyVersion: _v, Notes: _n, Links: _l, InFolderKey: _f, InFolderHref: _fh, ...body } = model;
  for (let i = 0; i < 30; i++) await send(env, 'POST', `/api/f/${warehouse.Key}/inputscanners`, { ...body, ObjectLinks: [], CommonName: `Door Bulk ${i}` });
  return scannersNamed(env, 'door bulk');
}

async function bulkSetPriority(page: Page, env: Env, diag: string): Promise<void> {
  await doorBulkScanners(env);
  const before = await scannersNamed(env, 'door');
  const value = unusedValue(before, 'Priority');
  const summary = await bulkSetRow(page, 'Door', 'Priority', value);
  await page.waitForTimeout(1_000);
  await page.screenshot({ path: `${diag}/readme-bulk-preview.png` });
  const expected = `${before.length} to change · 0 no-op · 0 invalid · 0 not applicable`;
  if (!summary.includes(expected)) throw new Error(`preview says "${summary}", REST says ${expected}`);
  await applyAll(page);
  const movedOn = async (s: (typeof before)[number]) => (await get(env, at(s))).ConcurrencyVersion === s.ConcurrencyVersion + 1;
  const moved = async () => (await Promise.all(before.map(movedOn))).every(Boolean);
  await until('every matching scanner one version up', moved, 60_000);
  await page.waitForTimeout(2_000);
  for (const s of before) {
    const now = await get(env, at(s));
    if (now.ConcurrencyVersion !== s.ConcurrencyVersion + 1)
      throw new Error(`${s.CommonName}: version ${s.ConcurrencyVersion} → ${now.ConcurrencyVersion}, not exactly one up`);
    if (rowOf(now).Priority !== value) throw new Error(`${s.CommonName}: Priority ${rowOf(now).Priority}, not ${value}`);
  }
}

/** Undo Run…, the run picked by the words of its title: the preview's summary. */
export async function undoRunPreview(page: Page, run: string): Promise<string> {
  await palette(page, 'Undo Run…');
  await waitForTitle(page, 'Undo which run?');
  await pickTyped(page, run);
  return waitForTitle(page, / to change · /);
}

/** Undo of the "Door" run: values back; one edited over REST after the run is stale and keeps its edit. */
async function undoKeepsLaterEdit(page: Page, env: Env): Promise<void> {
  const after = await scannersNamed(env, 'door');
  const value = rowOf(after[0]).Priority;
  const edited = after[after.length - 1];
  await send(env, 'PUT', at(edited), { ...edited, CommonName: `${edited.CommonName} (edited over REST)` });
  await palette(page, 'View: Close All Editors');
  const summary = await undoRunPreview(page, `Priority = ${value}`);
  const expected = `${after.length - 1} to change · 0 no-op · 0 invalid · 0 not applicable · 1 stale`;
  if (!summary.includes(expected)) throw new Error(`undo preview says "${summary}", expected ${expected}`);
  await applyAll(page);
  const others = after.filter((s) => s.Key !== edited.Key);
  await until(
    'the run undone',
    async () => (await Promise.all(others.map(async (s) => (await get(env, at(s))).ConcurrencyVersion === s.ConcurrencyVersion + 1))).every(Boolean),
    60_000,
  );
  for (const s of others) {
    const now = await get(env, at(s));
    if (rowOf(now).Priority === value) throw new Error(`${s.CommonName}: Priority still ${value} after the undo`);
  }
  const kept = await get(env, at(edited));
  if (kept.ConcurrencyVersion !== edited.ConcurrencyVersion + 1 || !kept.CommonName.endsWith('(edited over REST)') || rowOf(kept).Priority !== value) {
    throw new Error(`the scanner edited after the run was overwritten: ${JSON.stringify({ v: kept.ConcurrencyVersion, name: kept.CommonName })}`);
  }
  await notification(page, /changed by someone since the run/);
  await page.keyboard.press('Escape');
}

/** 500 to ten requests, continue on error: ten failed with the service's text; Retry Failed sends exactly those ten. */
async function faultsThenRetry(page: Page, env: Env): Promise<void> {
  const before = await scannersNamed(env, 'door bulk');
  const value = unusedValue(before, 'StatusCode');
  const summary = await bulkSetRow(page, 'Door Bulk', 'StatusCode', value);
  if (!summary.includes(`${before.length} to change`)) throw new Error(`preview says "${summary}"`);
  // Item requests of the scanners' folder only (the preview listed them already): the next ten answer 500.
  await send(env, 'POST', '/sandbox/faults', { path: `/api/f/${before[0].InFolderKey}/inputscanners/`, status: 500, count: 10 });
  await applyAll(page);
  // The report, not the run's progress ("25/30 · 10 failed"), which ends as the click comes.
  const report = await notification(page, /applied · 10 failed/);
  const versions = async () => Promise.all(before.map(async (s) => (await get(env, at(s))).ConcurrencyVersion - s.ConcurrencyVersion));
  const firstRun = await versions();
  if (firstRun.filter((d) => d === 1).length !== before.length - 10 || firstRun.filter((d) => d === 0).length !== 10)
    throw new Error(`versions moved by ${firstRun.join(',')}`);
  await report.locator('.monaco-button', { hasText: 'Show Results' }).first().click();
  const text = await until('the results document', async () => {
    const t = (
      await page
        .locator('.editor-instance .view-lines')
        .first()
        .innerText()
        .catch(() => '')
    ).replace(/\u00a0/g, ' ');
    return t.includes('failed') && t;
  });
  const failedLines = text.split('\n').filter((l) => l.startsWith('failed'));
  if (failedLines.length !== 10 || !failedLines.every((l) => l.includes('Injected fault: status 500'))) throw new Error(`results: ${failedLines.join(' | ')}`);

  await palette(page, 'View: Close All Editors');
  await palette(page, 'Retry Failed…');
  // Runs from every place are offered, newest first: this one's is highlighted, Enter takes it.
  await waitForTitle(page, 'Retry which run?');
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: '10 objects sent before' }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  const retry = await waitForTitle(page, / to change · /);
  if (!retry.includes('10 to change')) throw new Error(`retry preview says "${retry}"`);
  await applyAll(page);
  await until('the ten sent again', async () => (await versions()).every((d) => d === 1), 60_000);
  await page.waitForTimeout(2_000);
  const final = await versions();
  if (!final.every((d) => d === 1)) throw new Error(`versions moved by ${final.join(',')}: not exactly once each`);
  for (const s of before) if (rowOf(await get(env, at(s))).StatusCode !== value) throw new Error(`${s.CommonName}: StatusCode not ${value}`);
}

/** How many times the active editor holds `text` (its find widget's count); the widget closed again. */
async function occurrences(page: Page, text: string): Promise<number> {
  const widget = page.locator('.editor-widget.find-widget.visible');
  await page.keyboard.press('Control+f');
  await widget.locator('textarea:focus').first().waitFor({ timeout: 5_000 });
  await page.keyboard.press('Control+a');
  await page.keyboard.type(text);
  const count = widget.locator('.matchesCount', { hasText: /of \d+|No results/ }).first();
  await count.waitFor({ timeout: 5_000 });
  const shown = await count.innerText();
  await closeFind(page);
  return Number(/of (\d+)/.exec(shown)?.[1] ?? 0);
}

/**
 * An editor open on a scanner follows a bulk run made elsewhere (the run's new version in
 * the status bar, its value in the text, still clean); with edits, it keeps them and its base through
 * the run's Undo, and Revert then shows the server's text.
 */
async function editorFollowsRuns(page: Page, env: Env, diag: string): Promise<void> {
  const all = await doorBulkScanners(env);
  const scanner = all.find((s) => s.CommonName === 'Door Bulk 3') ?? all[0];
  const used = new Set(scanner.InputScannerReportingPriorities.map((r: any) => r.Priority));
  let value = 600 + (Date.now() % 300);
  while (used.has(value) || all.some((s) => rowOf(s).Priority === value)) value++;
  const shows = `"Priority": ${value},`;
  await palette(page, 'View: Close All Editors');
  await goToObject(page, scanner.CommonName);
  const tab = page.locator('.tabs-container .tab', { hasText: `${scanner.CommonName}.json` }).first();
  await tab.waitFor({ timeout: 10_000 });
  // Go to Object opens a preview tab, which the run's preview would take over: kept, as a person keeps it open.
  await palette(page, 'View: Keep Editor');
  await until(`the status bar at v${scanner.ConcurrencyVersion}`, async () => (await statusVersion(page)).includes(`v${scanner.ConcurrencyVersion}`));

  await bulkSetRow(page, scanner.CommonName, 'Priority', value, true);
  await applyAll(page);
  const run = await until(
    'the run to reach the scanner',
    async () => {
      const now = await get(env, at(scanner));
      return now.ConcurrencyVersion === scanner.ConcurrencyVersion + 1 && now;
    },
    60_000,
  );
  await tab.click();
  await page.locator('.editor-instance .view-lines').first().click();
  await until(`the status bar at v${run.ConcurrencyVersion}`, async () => (await statusVersion(page)).includes(`v${run.ConcurrencyVersion}`));
  await until("the editor to show the run's value", async () => (await occurrences(page, shows)) === 1, 15_000);
  if (await activeTabDirty(page)) throw new Error('the editor became dirty after the run');
  await page.screenshot({ path: `${diag}/ui-bulk-editor-follows.png` });

  // With edits: Undo Run (made elsewhere) leaves them and the base; Revert shows the undone text.
  await cursorAfter(page, `"CommonName": "${scanner.CommonName}`);
  await typeEdit(page, ' typed');
  await undoRunPreview(page, `Priority = ${value}`);
  await applyAll(page);
  const undone = await until(
    'the undo to reach the scanner',
    async () => {
      const now = await get(env, at(scanner));
      return now.ConcurrencyVersion === run.ConcurrencyVersion + 1 && now;
    },
    60_000,
  );
  if (rowOf(undone).Priority !== rowOf(scanner).Priority) throw new Error(`the undo left Priority ${rowOf(undone).Priority}, not ${rowOf(scanner).Priority}`);
  await tab.click();
  await until('its tab active', async () => (await tab.getAttribute('class'))?.includes('active'));
  if (!(await activeTabDirty(page))) throw new Error('the edited editor lost its edits to the undo');
  if (!(await statusVersion(page)).includes(`v${run.ConcurrencyVersion}`)) throw new Error(`the edited editor moved its base: ${await statusVersion(page)}`);
  if ((await occurrences(page, `${scanner.CommonName} typed`)) !== 1) throw new Error('the typed edit is gone');
  await revertActive(page);
  await until(`the status bar at v${undone.ConcurrencyVersion}`, async () => (await statusVersion(page)).includes(`v${undone.ConcurrencyVersion}`));
  if ((await occurrences(page, shows)) !== 0) throw new Error("after Revert the editor still shows the run's value");
}

const row = (page: Page, level: number, label: string) =>
  page
    .locator(`.part.sidebar .monaco-list-row[aria-level="${level}"]`)
    .filter({ hasText: new RegExp(`^\\s*${label}`) })
    .first();

async function expand(page: Page, level: number, label: string): Promise<void> {
  const r = row(page, level, label);
  await r.waitFor({ timeout: 15_000 });
  if ((await r.getAttribute('aria-expanded')) !== 'true') await r.click();
  await until(`${label} expanded`, async () => (await r.getAttribute('aria-expanded')) === 'true');
}

/** From the preview up (the tree's Bulk Edit… already chosen): a tag operation by keyboard, the preview's count, apply. */
async function tagRun(
  page: Page,
  operation: 'Add a tag' | 'Remove a tag',
  tag: string,
  expected: { change: number; noop: number; token?: string },
): Promise<void> {
  await waitForTitle(page, 'operation');
  await pickTyped(page, operation);
  await waitForTitle(page, operation);
  await input(page).fill(tag);
  await page.keyboard.press('Enter');
  const summary = await waitForTitle(page, / to change · /);
  const counts = `${expected.change} to change · ${expected.noop} no-op · 0 invalid · 0 not applicable`;
  if (!summary.includes(counts)) throw new Error(`preview says "${summary}", REST says ${counts}`);
  if (expected.token) await requestsShown(page, expected.change, expected.token);
  await applyAll(page);
}

/** "Show requests": one PUT per change, each reading the token from $TOKEN, the token itself nowhere; then the preview again. */
async function requestsShown(page: Page, puts: number, token: string): Promise<void> {
  await pickTyped(page, 'Show requests');
  await activeTab(page).filter({ hasText: 'requests.sh' }).waitFor({ timeout: 10_000 });
  const text = (await page.locator('.editor-instance .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
  const sent = text.split('\n').filter((l) => l.includes('-X PUT'));
  if (sent.length !== puts || !sent.every((l) => l.includes('"$TOKEN"')))
    throw new Error(`requests.sh has ${sent.length} PUTs (${puts} expected), each reading "$TOKEN": ${sent.map((l) => l.slice(0, 80)).join(' | ')}`);
  if (text.includes(token)) throw new Error('requests.sh holds the token');
  await waitForTitle(page, / to change · /).catch(() => {
    throw new Error('the preview did not come back after Show requests');
  });
}

const tagged = (s: any, tag: string) => (s.Tags ?? []).includes(tag);

/**
 * Bulk Edit… from the tree's context menu, on a group, a multi-selection (Ctrl+click) and a folder
 * with its subfolders; REST then shows exactly the objects each selection named changed.
 */
async function bulkFromTree(page: Page, env: Env): Promise<void> {
  const { floor1 } = await floors(env);
  const group = `/api/f/${floor1.Key}/inputscanners?pageSize=1000`;
  const scanners: any[] = await get(env, group);
  const tag = `tree-${Date.now().toString(36)}`;

  // A group: Floor 1's input scanners.
  await expand(page, 3, 'Head Office');
  await expand(page, 4, 'Floor 1');
  await fromMenu(page, row(page, 5, 'Input scanners'), 'Bulk Edit');
  await tagRun(page, 'Add a tag', tag, { change: scanners.length, noop: 0, token: env.OMS_SANDBOX_TOKEN });
  await until('the group tagged', async () => (await get(env, group)).every((s: any) => tagged(s, tag)), 60_000);

  // A multi-selection: two scanners of the group, Ctrl+click.
  await expand(page, 5, 'Input scanners');
  const [first, second] = scanners.map((s) => s.CommonName as string).sort();
  await row(page, 6, first).click();
  await row(page, 6, second).click({ modifiers: ['Control'] });
  await fromMenu(page, row(page, 6, second), 'Bulk Edit');
  await tagRun(page, 'Remove a tag', tag, { change: 2, noop: 0 });
  await until('the two untagged', async () => (await get(env, group)).filter((s: any) => !tagged(s, tag)).length === 2, 60_000);
  const untagged = (await get(env, group))
    .filter((s: any) => !tagged(s, tag))
    .map((s: any) => s.CommonName)
    .sort();
  if (untagged.join('|') !== [first, second].join('|')) throw new Error(`untagged: ${untagged.join(', ')}; selected: ${first}, ${second}`);
  await palette(page, 'View: Close All Editors');

  // A folder with its subfolders: every input scanner under Head Office.
  const under: any[] = [];
  for (const folders = [floor1.InFolderKey as string]; folders.length;) {
    const f = folders.shift()!;
    under.push(
      ...(await get(env, `/api/f/${f}/inputscanners?pageSize=1000`)).map((s: any) => ({ at: `/api/f/${f}/inputscanners/${s.Key}`, tagged: tagged(s, tag) })),
    );
    folders.push(...(await get(env, `/api/f/${f}/folders?pageSize=1000`)).map((x: any) => x.Key));
  }
  await fromMenu(page, row(page, 3, 'Head Office'), 'Bulk Edit');
  await waitForTitle(page, 'which objects of this folder and its subfolders');
  await pickTyped(page, 'Input scanners');
  await tagRun(page, 'Add a tag', tag, { change: under.filter((s) => !s.tagged).length, noop: under.filter((s) => s.tagged).length });
  await until(
    'every scanner under Head Office tagged',
    async () => (await Promise.all(under.map(async (s) => tagged(await get(env, s.at), tag)))).every(Boolean),
    60_000,
  );
}

export const bulkChecks: UiCheckList = (page, env, diag) => [
  [
    'ui: bulk: Go to Object "Door", Bulk Edit All Results, set one priority: the preview counts match REST; apply: every scanner one version up',
    () => bulkSetPriority(page, env, diag),
  ],
  ['ui: bulk: Undo Run puts the values back; a scanner edited over REST after the run is stale and keeps its edit', () => undoKeepsLaterEdit(page, env)],
  [
    'ui: bulk: Bulk Edit… from the tree on a group, a Ctrl+click multi-selection and a folder with its subfolders: REST shows exactly those objects changed',
    () => bulkFromTree(page, env),
  ],
  [
    'ui: bulk: an editor open on a scanner follows a bulk run (status bar version, text, clean); with edits it keeps them and its base through Undo Run',
    () => editorFollowsRuns(page, env, diag),
  ],
  [
    "ui: bulk: 500 to ten requests, continue on error: ten failed with the service's text; Retry Failed sends exactly those ten",
    () => faultsThenRetry(page, env),
  ],
];
