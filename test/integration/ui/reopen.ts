// An object editor open when the window reloads (Developer: Reload Window) shows the object once the connection is
// restored (the sandbox connection handed over again, its token read), not "The editor could not be opened". Signed
// out first, so that no token is stored until the hand-over gives it again: the editor's read must wait for that.
import type { Page } from 'playwright-core';
import { fromMenu, get, until, palette, floors, goToObject, editorText, type Env, type UiCheckList } from './helpers';

async function editorAfterReload(page: Page, env: Env, diag: string): Promise<void> {
  const { floor1 } = await floors(env);
  const [scanner] = await get(env, `/api/f/${floor1.Key}/inputscanners`);
  await palette(page, 'View: Close All Editors');
  await goToObject(page, scanner.CommonName);
  await until('the object shown', async () => (await editorText(page).catch(() => '')).includes(scanner.CommonName), 10_000);
  const objects = page.locator('.part.sidebar .pane-header', { hasText: 'Objects' }).first();
  if ((await objects.getAttribute('aria-expanded')) === 'false') await objects.locator('.title').first().click();
  await fromMenu(page, page.locator('.part.sidebar .monaco-list-row[aria-level="1"]', { hasText: /^\s*Sandbox\b/ }).first(), 'Sign Out');
  // The status bar says so for a few seconds; the secret store has forgotten the token by then.
  await page
    .locator('.statusbar', { hasText: 'Signed out of' })
    .first()
    .waitFor({ timeout: 5_000 })
    .catch(() => page.waitForTimeout(2_000));
  const reloaded = page.waitForEvent('load', { timeout: 30_000 });
  await palette(page, 'Developer: Reload Window');
  await reloaded;
  const failed = page.locator('.editor-group-container', { hasText: /could not be opened|unexpected error/i }).first();
  await until(
    'the object shown again after the reload',
    async () => {
      if (await failed.isVisible().catch(() => false)) {
        await page.screenshot({ path: `${diag}/reopen-failed.png` });
        throw new Error(`the editor says: ${(await failed.innerText()).replace(/\s+/g, ' ').slice(0, 200)} (reopen-failed.png)`);
      }
      return (await editorText(page).catch(() => '')).includes(scanner.CommonName);
    },
    60_000,
  );
  await page.screenshot({ path: `${diag}/reopen-after-reload.png` });
  await palette(page, 'View: Close All Editors');
}

export const reopenChecks: UiCheckList = (page, env, diag) => [
  [
    'ui: an object editor open across Developer: Reload Window (signed out before) shows the object once the connection is restored',
    () => editorAfterReload(page, env, diag),
  ],
];
