// The run shell where a person sees it: an Apply of a pulled folder with a failure, then Retry
// Failed from the run's notification, by mouse; what was sent read from the sandbox. Runs after
// the plan checks (plan.ts), in the folder they pulled (oms/sandbox of the workspace).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { get, send, until, notification, floors, type Env, type UiCheckList } from './helpers';
import { planAction, planChangesOf, planRow } from './plan';

const pick = (page: Page, text: string) => page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();

/** Apply with one object answered 500, then Retry Failed from the notification: each object written exactly once. */
async function applyThenRetry(page: Page, env: Env): Promise<void> {
  const root = path.join(env.OMS_WORKSPACE, 'oms', 'sandbox');
  if (!fs.existsSync(path.join(root, 'oms.manifest.json'))) throw new Error('no pulled folder: run after the plan checks');
  const { floor1 } = await floors(env);
  const at = (key: string) => `/api/f/${floor1.Key}/inputscanners/${key}`;
  const dir = path.join(root, fs.readdirSync(root).find((d) => d.endsWith(`.${floor1.Key}`))!, 'inputscanners');
  const files = fs.readdirSync(dir).slice(0, 2);
  const keys = files.map((f) => /\.([^.]+)\.json$/.exec(f)![1]);
  const was = await Promise.all(keys.map((k) => get(env, at(k))));
  files.forEach((f, i) => {
    const o = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    o.NonSettlingErrorPriority = (was[i].NonSettlingErrorPriority % 9) + 1;
    fs.writeFileSync(path.join(dir, f), JSON.stringify(o, null, 2) + '\n');
  });
  await planChangesOf(page, 'oms/sandbox');
  await planRow(page, 'Update (2)').waitFor({ timeout: 20_000 });
  await send(env, 'POST', '/sandbox/faults', { path: at(keys[1]), status: 500, count: 1 });
  await planAction(page, 'Apply Ticked Changes');
  await pick(page, 'continue after errors').waitFor({ timeout: 10_000 });
  await pick(page, 'continue after errors').click();
  await until('the first applied', async () => (await get(env, at(keys[0]))).ConcurrencyVersion === was[0].ConcurrencyVersion + 1, 20_000);
  const report = await notification(page, /1 applied · 1 failed/);
  await report.locator('.monaco-button', { hasText: 'Retry Failed' }).first().click();
  await pick(page, 'continue after errors').waitFor({ timeout: 10_000 });
  await pick(page, 'continue after errors').click();
  await until('the failed one sent again', async () => (await get(env, at(keys[1]))).ConcurrencyVersion === was[1].ConcurrencyVersion + 1, 20_000);
  await page.waitForTimeout(1_000);
  for (const [i, k] of keys.entries()) {
    const now = await get(env, at(k));
    if (now.ConcurrencyVersion !== was[i].ConcurrencyVersion + 1) throw new Error(`${now.CommonName}: version ${was[i].ConcurrencyVersion} → ${now.ConcurrencyVersion}, not exactly once`);
    if (now.NonSettlingErrorPriority !== (was[i].NonSettlingErrorPriority % 9) + 1) throw new Error(`${now.CommonName}: not as the file says`);
  }
  await page.keyboard.press('Escape');
}

export const runChecks: UiCheckList = (page, env) => [
  ['ui: runs: an Apply with a failure, then Retry Failed from its notification, sends exactly the failed one', () => applyThenRetry(page, env)],
];
