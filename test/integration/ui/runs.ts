// The run shell where a person sees it: an Apply of a pulled folder with a failure, then Retry
// Failed from the run's notification, by mouse; Undo Run… of an Apply that created, updated and
// deleted, from the palette; what was sent read from the sandbox. Runs after the plan checks
// (plan.ts), in the folder they pulled (oms/sandbox of the workspace).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { createScanner, get, send, until, notification, floors, input, palette, pick, pickShown, quickInputText, type Env, type UiCheckList } from './helpers';
import { includedDeletes, objectsView, planAction, planChangesOf, planPane, planRow, pullAgain, pullFloor1 } from './plan';

/** Apply with one object answered 500, then Retry Failed from the notification: each object written exactly once. */
async function applyThenRetry(page: Page, env: Env): Promise<void> {
  const root = path.join(env.OMS_WORKSPACE, 'oms', 'sandbox');
  if (!fs.existsSync(path.join(root, 'oms.manifest.json'))) throw new Error('no pulled folder: run after the plan checks');
  const { floor1 } = await floors(env);
  const at = (key: string) => `/api/f/${floor1.Key}/inputscanners/${key}`;
  const dir = path.join(
    root,
    fs.readdirSync(root).find((d) => d.endsWith(`.${floor1.Key}`))!,
    'inputscanners',
  );
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
    if (now.ConcurrencyVersion !== was[i].ConcurrencyVersion + 1)
      throw new Error(`${now.CommonName}: version ${was[i].ConcurrencyVersion} → ${now.ConcurrencyVersion}, not exactly once`);
    if (now.NonSettlingErrorPriority !== (was[i].NonSettlingErrorPriority % 9) + 1) throw new Error(`${now.CommonName}: not as the file says`);
  }
  await page.keyboard.press('Escape');
}

const status = async (env: Env, at: string) =>
  (await fetch(env.OMS_SANDBOX_URL + at, { headers: { Authorization: `Bearer ${env.OMS_SANDBOX_TOKEN}` } })).status;

/**
 * Apply "1 to create, 2 to update, 1 to delete" from the Object Changes view, then Undo Run… from the
 * palette: its preview offers all four, and putting them back deletes what the run created, creates again
 * what it deleted and gives the two updated objects their values back (read over REST).
 */
async function undoCreateUpdateDelete(page: Page, env: Env, diag: string): Promise<void> {
  const root = path.join(env.OMS_WORKSPACE, 'oms', 'sandbox');
  const { floor1 } = await floors(env);
  const at = (key: string) => `/api/f/${floor1.Key}/inputscanners/${key}`;
  const list = async (): Promise<any[]> => get(env, `/api/f/${floor1.Key}/inputscanners?pageSize=1000`);
  const [like] = await list();
  const stamp = Date.now();
  const [u1, u2, d] = [
    await createScanner(env, floor1.Key, like, `Undo U1 ${stamp}`),
    await createScanner(env, floor1.Key, like, `Undo U2 ${stamp}`),
    await createScanner(env, floor1.Key, like, `Undo D ${stamp}`),
  ];
  const newName = `Undo New ${stamp}`;
  let step = 'pull the three';
  try {
    // Their files: Pull Again of the folder the plan checks pulled (edits they left are overwritten), or a pull of its own.
    const dir = () =>
      path.join(
        root,
        fs.readdirSync(root).find((f) => f.endsWith(`.${floor1.Key}`))!,
        'inputscanners',
      );
    const fileOf = (key: string) => path.join(dir(), fs.readdirSync(dir()).find((f) => f.endsWith(`.${key}.json`)) ?? `missing.${key}.json`);
    const threePulled = () => [u1, u2, d].every((o) => fs.existsSync(fileOf(o.Key)));
    if (fs.existsSync(path.join(root, 'oms.manifest.json'))) await pullAgain(page, 'oms/sandbox', threePulled);
    else await pullFloor1(page, env, (await list()).length);
    await until('the three pulled', () => Promise.resolve(threePulled()), 20_000);

    step = 'edit two, delete one, add one';
    const priority = (o: any) => (o.NonSettlingErrorPriority % 9) + 1;
    for (const o of [u1, u2]) {
      const text = JSON.parse(fs.readFileSync(fileOf(o.Key), 'utf8'));
      fs.writeFileSync(fileOf(o.Key), JSON.stringify({ ...text, NonSettlingErrorPriority: priority(o) }, null, 2) + '\n');
    }
    const { Key: _key, ...copy } = JSON.parse(fs.readFileSync(fileOf(u1.Key), 'utf8'));
    fs.writeFileSync(
      path.join(dir(), 'undo-new.json'),
      JSON.stringify({ ...copy, CommonName: newName, NonSettlingErrorPriority: u1.NonSettlingErrorPriority }, null, 2) + '\n',
    );
    fs.rmSync(fileOf(d.Key));

    step = 'plan and apply';
    await planChangesOf(page, 'oms/sandbox');
    await planRow(page, 'Update (2)').waitFor({ timeout: 20_000 });
    await objectsView(page, false);
    const deletes = await includedDeletes(page, 1);
    if (!(await planPane(page).innerText()).includes('4 ticked to send'))
      await deletes.locator('.custom-view-tree-node-item-checkbox').first().click({ timeout: 10_000 });
    await until('4 ticked', async () => (await planPane(page).innerText()).includes('4 ticked to send')).catch(async () => {
      throw new Error(`the plan: ${(await planPane(page).innerText()).replace(/\s+/g, ' ')}`);
    });
    await planAction(page, 'Apply Ticked Changes');
    await pick(page, 'continue after errors').waitFor({ timeout: 10_000 });
    await pick(page, 'continue after errors').click();
    await until('the delete count box', async () => /Delete 1/.test(await quickInputText(page)));
    await input(page).pressSequentially('1');
    await page.keyboard.press('Enter');
    const created = await until(
      'the run applied',
      async () => {
        const made = (await list()).find((o) => o.CommonName === newName);
        return (
          made &&
          (await status(env, at(d.Key))) === 404 &&
          (await Promise.all([u1, u2].map(async (o) => (await get(env, at(o.Key))).NonSettlingErrorPriority === priority(o)))).every(Boolean) &&
          made
        );
      },
      20_000,
    );

    step = 'Undo Run…';
    // The plan made again after the run is drawn before the palette opens (its redraw would close the palette).
    await until('the plan after the run', async () => (await planPane(page).innerText()).includes('0 ticked to send'), 20_000);
    await palette(page, 'OMS: Undo Run');
    const run = pick(page, 'Apply oms/sandbox: 1 to create, 2 to update, 1 to delete');
    await run.waitFor({ timeout: 10_000 });
    await run.click();
    const putBack = await pickShown(page, 'Put back 4 objects, continue after errors', 20_000);
    const title = await quickInputText(page, '.quick-input-title');
    if (!/4 to change/.test(title)) throw new Error(`the preview says "${title}"`);
    await page.screenshot({ path: `${diag}/ui-undo-preview.png` });
    await putBack.click();

    step = 'what Undo put back';
    await until(
      'the undo sent',
      async () => (await status(env, at(created.Key))) === 404 && (await list()).some((o) => o.CommonName === d.CommonName),
      20_000,
    ).catch(async () => {
      const names = (await list()).map((o) => o.CommonName);
      throw new Error(
        `after Undo: ${newName} ${names.includes(newName) ? 'still there' : 'gone'}, ${d.CommonName} ${names.includes(d.CommonName) ? 'back' : 'not back'}`,
      );
    });
    for (const o of [u1, u2]) {
      const now = await get(env, at(o.Key));
      if (now.NonSettlingErrorPriority !== o.NonSettlingErrorPriority)
        throw new Error(`${o.CommonName}: priority ${now.NonSettlingErrorPriority}, not put back to ${o.NonSettlingErrorPriority}`);
      if (now.ConcurrencyVersion !== o.ConcurrencyVersion + 2)
        throw new Error(`${o.CommonName}: version ${o.ConcurrencyVersion} → ${now.ConcurrencyVersion}, not the apply and the undo once each`);
    }
    const back = (await list()).filter((o) => o.CommonName === d.CommonName);
    if (back.length !== 1) throw new Error(`${back.length} objects named ${d.CommonName} after Undo`);
    if (back[0].NonSettlingErrorPriority !== d.NonSettlingErrorPriority) throw new Error(`${d.CommonName} created again with other values`);
  } catch (e) {
    throw new Error(`${step}: ${(e as Error).message}`, { cause: e });
  } finally {
    await page.keyboard.press('Escape');
    await objectsView(page, true);
    for (const o of await list()) if ([u1.CommonName, u2.CommonName, d.CommonName, newName].includes(o.CommonName)) await send(env, 'DELETE', at(o.Key));
  }
}

export const runChecks: UiCheckList = (page, env, diag) => [
  ['ui: runs: an Apply with a failure, then Retry Failed from its notification, sends exactly the failed one', () => applyThenRetry(page, env)],
  [
    'ui: runs: Undo Run… of "Apply: 1 to create, 2 to update, 1 to delete" offers all four; it deletes the created one, creates the deleted one again ' +
      'and puts back the 2 updates',
    () => undoCreateUpdateDelete(page, env, diag),
  ],
];
