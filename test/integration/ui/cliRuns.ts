// A run is one thing wherever it ran: a run of `oms apply` (one object answered 500 by the sandbox's
// fault rules) shown with Show Run…, its failure sent again with Retry Failed from the run's
// notification, and the run undone with its retry by Undo Run…, by mouse and keyboard in the editor;
// then an Apply made in the editor undone by `oms undo`. What was sent is read from the sandbox.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { createScanner, get, send, until, notification, floors, palette, pick, pickShown, quickInputText, type Env, type UiCheckList } from './helpers';
import { planAction, planChangesOf, planRow } from './plan';

/** The repository (its dist/oms.cjs, built by `npm run package`), found upwards from here. */
function omsFile(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'dist', 'oms.cjs');
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(file)) return file;
  }
  throw new Error('no dist/oms.cjs above the UI checks: npm run package first');
}

/** `oms …` as a CI job runs it: the sandbox's token in OMS_TOKEN, its URL in OMS_URL; its exit code and output. */
function oms(env: Env, args: string[], cwd?: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const options = { cwd, env: { ...process.env, OMS_TOKEN: env.OMS_SANDBOX_TOKEN, OMS_URL: env.OMS_SANDBOX_URL }, timeout: 60_000 };
    execFile(process.execPath, [omsFile(), ...args], options, (e, stdout, stderr) => {
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, out: `${stdout}${stderr}` });
    });
  });
}

const root = (env: Env) => path.join(env.OMS_WORKSPACE, 'cli-runs');

/** Two scanners of their own in Floor 1, pulled by `oms pull` into the workspace's cli-runs/, and their files. */
async function pulledPair(env: Env, stamp: number): Promise<{ at: (key: string) => string; objects: any[]; fileOf: (key: string) => string }> {
  const { floor1 } = await floors(env);
  const at = (key: string) => `/api/f/${floor1.Key}/inputscanners/${key}`;
  const [like] = await get(env, `/api/f/${floor1.Key}/inputscanners?pageSize=1`);
  const objects = [await createScanner(env, floor1.Key, like, `CLI Run A ${stamp}`), await createScanner(env, floor1.Key, like, `CLI Run B ${stamp}`)];
  const pulled = await oms(env, ['pull', root(env), '--url', env.OMS_SANDBOX_URL, '--folder', floor1.Key, '--kinds', 'inputScanner']);
  if (pulled.code !== 0) throw new Error(`oms pull: exit ${pulled.code}: ${pulled.out}`);
  const fileOf = (key: string) => {
    for (const dir of fs
      .readdirSync(root(env))
      .map((d) => path.join(root(env), d, 'inputscanners'))
      .filter((d) => fs.existsSync(d))) {
      const name = fs.readdirSync(dir).find((f) => f.endsWith(`.${key}.json`));
      if (name) return path.join(dir, name);
    }
    throw new Error(`no pulled file of ${key}`);
  };
  return { at, objects, fileOf };
}

const priority = (o: any) => (o.NonSettlingErrorPriority % 9) + 1;

function setPriority(file: string, value: number): void {
  fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), NonSettlingErrorPriority: value }, null, 2) + '\n');
}

async function cliRunInEditor(page: Page, env: Env, diag: string): Promise<void> {
  const stamp = Date.now();
  const {
    at,
    objects: [a, b],
    fileOf,
  } = await pulledPair(env, stamp);
  let step = 'oms apply with a failure';
  try {
    setPriority(fileOf(a.Key), priority(a));
    setPriority(fileOf(b.Key), priority(b));
    await send(env, 'POST', '/sandbox/faults', { path: at(b.Key), method: 'PUT', status: 500, count: 1 });
    const applied = await oms(env, ['apply', root(env), '--auto-approve']);
    if (applied.code !== 2) throw new Error(`oms apply: exit ${applied.code}, not 2: ${applied.out}`);
    if ((await get(env, at(b.Key))).NonSettlingErrorPriority === priority(b)) throw new Error('the failing one was written');

    step = 'Show Run…';
    await palette(page, 'OMS: Show Run');
    const run = await pickShown(page, 'cli-runs: 0 to create, 2 to update', 15_000);
    await page.screenshot({ path: `${diag}/ui-cli-run-pick.png` });
    await run.click();
    await until(
      'the results',
      async () =>
        (
          await page
            .locator('.editor-group-container.active .view-lines')
            .first()
            .innerText()
            .catch(() => '')
        ).includes('failed'),
      15_000,
    );
    const report = await notification(page, /cli-runs: 0 to create, 2 to update, 0 to delete: 1 applied · 1 failed/, 15_000);
    await page.screenshot({ path: `${diag}/ui-cli-run-shown.png` });
    const text = await page.locator('.editor-group-container.active .view-lines').first().innerText();
    if (/notSent/.test(text)) throw new Error(`Show Run prints a raw outcome key: ${text}`);

    step = 'Retry Failed from the notification';
    await report.locator('.monaco-button', { hasText: 'Retry Failed' }).first().click();
    await pick(page, 'Send, continue after errors').waitFor({ timeout: 15_000 });
    const title = await quickInputText(page, '.quick-input-title');
    if (!/1 object sent before \(failed or no answer\)/.test(title)) throw new Error(`the retry says "${title}"`);
    await pick(page, 'Send, continue after errors').click();
    await until('the failed one sent again', async () => (await get(env, at(b.Key))).NonSettlingErrorPriority === priority(b), 20_000);
    if ((await get(env, at(a.Key))).ConcurrencyVersion !== a.ConcurrencyVersion + 1) throw new Error('the applied one was written again');

    step = 'Undo Run… of the run and its retry';
    await until('the plan after the retry', async () => !(await page.locator('.quick-input-widget').first().isVisible()), 10_000).catch(() => undefined);
    await page.waitForTimeout(1_500);
    await palette(page, 'OMS: Undo Run');
    await pick(page, 'cli-runs: 0 to create, 2 to update').click({ timeout: 15_000 });
    const putBack = await pickShown(page, 'Put back 2 objects, continue after errors', 20_000);
    const undoTitle = await quickInputText(page, '.quick-input-title');
    if (!/and its Retry Failed run/.test(undoTitle)) throw new Error(`the undo's preview says "${undoTitle}"`);
    await page.screenshot({ path: `${diag}/ui-cli-run-undo.png` });
    await putBack.click();
    for (const o of [a, b]) {
      await until(`${o.CommonName} put back`, async () => (await get(env, at(o.Key))).NonSettlingErrorPriority === o.NonSettlingErrorPriority, 20_000);
    }
  } catch (e) {
    throw new Error(`${step}: ${(e as Error).message}`, { cause: e });
  } finally {
    await page.keyboard.press('Escape');
    for (const o of [a, b]) await send(env, 'DELETE', at(o.Key));
  }
}

/** The editor's Apply of the pulled folder, then `oms undo <run id>` in the folder: the value is back. */
async function editorRunUndoneByCli(page: Page, env: Env, diag: string): Promise<void> {
  const stamp = Date.now();
  const {
    at,
    objects: [a, b],
    fileOf,
  } = await pulledPair(env, stamp);
  let step = "the editor's Apply";
  try {
    setPriority(fileOf(a.Key), priority(a));
    await planChangesOf(page, 'cli-runs');
    await planRow(page, 'Update (1)').waitFor({ timeout: 20_000 });
    await planAction(page, 'Apply Ticked Changes');
    await pick(page, 'continue after errors').waitFor({ timeout: 10_000 });
    await pick(page, 'continue after errors').click();
    await until('the apply sent', async () => (await get(env, at(a.Key))).NonSettlingErrorPriority === priority(a), 20_000);
    await notification(page, /Apply cli-runs: 1 to update: 1 applied/, 15_000);
    await page.screenshot({ path: `${diag}/ui-editor-run-applied.png` });

    step = 'oms undo';
    const runs = path.join(root(env), '.oms', 'runs');
    const runId = fs
      .readdirSync(runs)
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
      .at(-1)!
      .replace(/\.jsonl$/, '');
    const undone = await oms(env, ['undo', runId, '--auto-approve'], root(env));
    if (undone.code !== 0) throw new Error(`oms undo ${runId}: exit ${undone.code}: ${undone.out}`);
    if (!/Undo of “Apply cli-runs: 1 to update”: 1 applied/.test(undone.out)) throw new Error(`oms undo said: ${undone.out}`);
    const now = await get(env, at(a.Key));
    if (now.NonSettlingErrorPriority !== a.NonSettlingErrorPriority) throw new Error(`not put back: ${now.NonSettlingErrorPriority}`);
    if (now.ConcurrencyVersion !== a.ConcurrencyVersion + 2)
      throw new Error(`version ${a.ConcurrencyVersion} → ${now.ConcurrencyVersion}: not the apply and the undo once each`);
  } catch (e) {
    throw new Error(`${step}: ${(e as Error).message}`, { cause: e });
  } finally {
    await page.keyboard.press('Escape');
    for (const o of [a, b]) await send(env, 'DELETE', at(o.Key));
  }
}

export const cliRunChecks: UiCheckList = (page, env, diag) => [
  [
    'ui: runs: a run of oms apply with a failure is shown (Show Run…), retried from its notification and undone with its retry (Undo Run…) in the editor',
    () => cliRunInEditor(page, env, diag),
  ],
  ['ui: runs: oms undo puts back an Apply made in the editor', () => editorRunUndoneByCli(page, env, diag)],
];
