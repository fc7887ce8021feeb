// Checks made as a person would, in the page after the Mocha run: mouse and
// keyboard only, the result read from the sandbox. Each one counts as a test.
import type { Page } from 'playwright-core';

export interface UiCheck {
  title: string;
  ok: boolean;
  message?: string;
}

type Env = Record<string, string>;

async function get(env: Env, path: string): Promise<any> {
  const res = await fetch(env.OMS_SANDBOX_URL + path, { headers: { Authorization: `Bearer ${env.OMS_SANDBOX_TOKEN}` } });
  return res.json();
}

async function send(env: Env, method: string, path: string, body?: unknown): Promise<void> {
  const res = await fetch(env.OMS_SANDBOX_URL + path, {
    method,
    headers: { Authorization: `Bearer ${env.OMS_SANDBOX_TOKEN}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`);
}

const outbox = async (env: Env) => JSON.stringify(await get(env, '/sandbox/outbox'));

/** Chooses an entry of the open context menu as a keyboard user would: point at it, Enter. */
async function menuItem(page: Page, label: string): Promise<void> {
  const item = page.locator('.context-view .action-menu-item', { hasText: label }).first();
  await item.waitFor({ timeout: 10_000 });
  await item.hover();
  await page.waitForTimeout(200);
  await page.keyboard.press('Enter');
}

/** Right-click an engage site in the tree, "Invite User to Engage Site…", type an address, Enter. */
async function inviteFromTree(page: Page, env: Env): Promise<void> {
  const email = `ui.${Date.now()}@example.com`;
  const group = page.locator('.part.sidebar .monaco-list-row[aria-level="3"]', { hasText: /^\s*Engage sites/ }).first();
  if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
  // The root folder's first site, by its name as the server has it.
  const root = await get(env, '/api');
  const sites = await get(env, `/api/f/${root.Key}/engagesites`);
  const site = page.locator('.part.sidebar .monaco-list-row[aria-level="4"]', { hasText: sites[0].CommonName }).first();
  await site.waitFor({ timeout: 15_000 });
  await site.click({ button: 'right' });
  await menuItem(page, 'Invite User to Engage Site');
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ timeout: 10_000 });
  await input.pressSequentially('not-an-address');
  const complaint = page.locator('.quick-input-widget .quick-input-message');
  await complaint.filter({ hasText: /e-mail|address/i }).first().waitFor({ timeout: 5_000 });
  await input.fill(email);
  await page.keyboard.press('Enter');
  for (let i = 0; i < 40; i++) {
    if ((await outbox(env)).includes(email)) return;
    await page.waitForTimeout(250);
  }
  throw new Error(`${email} did not reach the sandbox's outbox`);
}

/**
 * The service refuses the token during an invite from the tree: the failure
 * report every command shares names what failed and offers Sign In (the
 * connection is known), and nothing reaches the outbox.
 */
async function refusedTokenOffersSignIn(page: Page, env: Env, diag: string): Promise<void> {
  const root = await get(env, '/api');
  const [site] = await get(env, `/api/f/${root.Key}/engagesites`);
  await send(env, 'POST', '/sandbox/faults', { path: `/api/f/${root.Key}/engagesites/${site.Key}/invite`, status: 401, count: 1 });
  try {
    const email = `refused.${Date.now()}@example.com`;
    await page.locator('.part.sidebar .monaco-list-row[aria-level="4"]', { hasText: site.CommonName }).first().click({ button: 'right' });
    await menuItem(page, 'Invite User to Engage Site');
    const input = page.locator('.quick-input-widget input').first();
    await input.waitFor({ timeout: 10_000 });
    await input.fill(email);
    await page.keyboard.press('Enter');
    // As a toast, or (when the workbench keeps it there) in the notification centre behind the bell.
    const hasText = 'Could not invite user';
    let message = page.locator('.notifications-toasts .notification-list-item', { hasText }).first();
    if (!(await message.waitFor({ timeout: 5_000 }).then(() => true, () => false))) {
      await page.locator('[id="status.notifications"]').first().click();
      message = page.locator('.notifications-center .notification-list-item', { hasText }).first();
      await message.waitFor({ timeout: 10_000 });
    }
    await message.click();
    await message.locator('.monaco-button', { hasText: 'Sign In' }).first().waitFor({ timeout: 5_000 });
    await message.locator('.monaco-button', { hasText: 'Show Log' }).first().waitFor({ timeout: 5_000 });
    await page.screenshot({ path: `${diag}/ui-refused-token.png` });
    if ((await outbox(env)).includes(email)) throw new Error('the refused invite is in the outbox');
    await message.locator('.codicon-notifications-clear').first().click({ timeout: 5_000 }).catch(() => undefined);
    await page.keyboard.press('Escape');
  } finally {
    await send(env, 'DELETE', '/sandbox/faults');
  }
}

/** Right-click the input scanner open in the editor, "Edit Scanner Priorities…", Enter, type a priority, keep the status. */
async function editPriorityFromTree(page: Page, env: Env): Promise<void> {
  const root = await get(env, '/api');
  const head = (await get(env, `/api/f/${root.Key}/folders`)).find((f: any) => f.CommonName === 'Head Office');
  const floor = (await get(env, `/api/f/${head.Key}/folders`)).find((f: any) => f.CommonName === 'Floor 1');
  const [scanner] = await get(env, `/api/f/${floor.Key}/inputscanners`);
  const wanted = (scanner.InputScannerReportingPriorities[0].Priority + 1) % 10;
  await page.locator('.part.sidebar .monaco-list-row', { hasText: scanner.CommonName }).first().click({ button: 'right' });
  await menuItem(page, 'Edit Scanner Priorities');
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ timeout: 10_000 });
  await page.waitForTimeout(500);
  await page.keyboard.press('Enter'); // the first of the eight ranges
  await page.waitForTimeout(500);
  await input.fill(String(wanted)); // its new priority
  await page.keyboard.press('Enter');
  await page.waitForTimeout(500);
  await page.keyboard.press('Enter'); // the status as it is
  for (let i = 0; i < 40; i++) {
    const now = await get(env, `/api/f/${floor.Key}/inputscanners/${scanner.Key}`);
    if (now.InputScannerReportingPriorities[0].Priority === wanted) {
      if (now.ConcurrencyVersion !== scanner.ConcurrencyVersion + 1) throw new Error(`version ${now.ConcurrencyVersion}, expected ${scanner.ConcurrencyVersion + 1}`);
      return;
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`the scanner's first priority did not become ${wanted}`);
}

export async function runUiChecks(page: Page, env: Env, diag: string): Promise<UiCheck[]> {
  const checks: Array<[string, () => Promise<void>]> = [
    ['ui: invite from the tree with mouse and keyboard; a bad address is flagged as typed', () => inviteFromTree(page, env)],
    ['ui: a refused token is reported with Sign In and Show Log; nothing is sent', () => refusedTokenOffersSignIn(page, env, diag)],
    ['ui: edit a scanner priority from the tree with the keyboard; the server holds it', () => editPriorityFromTree(page, env)],
  ];
  const results: UiCheck[] = [];
  for (const [title, check] of checks) {
    try {
      await check();
      results.push({ title, ok: true });
    } catch (e) {
      const shot = `${diag}/ui-failed-${results.length + 1}.png`;
      await page.screenshot({ path: shot }).catch(() => undefined);
      results.push({ title, ok: false, message: `${(e as Error).message.split('\n')[0]} (screenshot ${shot})` });
      await page.keyboard.press('Escape').catch(() => undefined);
    }
  }
  return results;
}
