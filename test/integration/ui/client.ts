// UI checks of the client, as a new user meets them: a sandbox whose token
// is `t2`, added and signed in to by palette and keyboard; an address that answers with a web page.
import { createServer } from 'http';
import type { AddressInfo } from 'net';
import type { Page } from 'playwright-core';
import { startSandbox } from '../../../src/sandbox/server';
import { fromMenu, input, palette, quickInputStep, until, type UiCheckList } from './helpers';

const row = (page: Page, text: string | RegExp) => page.locator('.part.sidebar .monaco-list-row', { hasText: text }).first();
/** Expands a tree row as a person would: a click where it is collapsed (a click on an expanded one would collapse it). */
async function expand(page: Page, name: string): Promise<void> {
  await row(page, name).waitFor({ timeout: 15_000 });
  await until(`"${name}" expanded`, async () => {
    if ((await row(page, name).getAttribute('aria-expanded')) === 'true') return true;
    await row(page, name).click();
    await page.waitForTimeout(500);
    return false;
  });
}

const validation = (page: Page) => page.locator('.quick-input-widget .quick-input-message').first();

/** OMS: Add Connection… by palette: URL, name, no root folder, then "Paste an access token" and `token`, typed. */
async function addConnection(page: Page, url: string, name: string, token: string, onTokenBox?: () => Promise<void>): Promise<void> {
  // The tree's rows are drawn only where they show: collapsed, the new connection is in view.
  await page
    .locator('.part.sidebar .action-label[aria-label^="Collapse All"]')
    .first()
    .click()
    .catch(() => undefined);
  await palette(page, 'OMS: Add Connection…');
  for (const [i, answer] of [url, name, ''].entries()) {
    await quickInputStep(page, `${i + 1}/3`, false);
    await input(page).fill(answer);
    await page.keyboard.press('Enter');
  }
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Paste an access token' }).first().waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget input[type="password"]').first().waitFor({ timeout: 10_000 });
  await onTokenBox?.();
  await input(page).fill('');
  await page.keyboard.type(token);
  await page.waitForTimeout(500);
  const refused = (await validation(page).isVisible()) ? await validation(page).innerText() : '';
  if (/token|space|character/i.test(refused)) throw new Error(`"${token}" refused at the token prompt: ${refused}`);
  await page.keyboard.press('Enter');
}

/** Right-click the connection, Remove Connection, confirm. */
async function removeConnection(page: Page, name: string): Promise<void> {
  await fromMenu(page, row(page, name), 'Remove Connection');
  await page
    .locator('.monaco-dialog-box .monaco-button', { hasText: /^Remove$/ })
    .first()
    .click();
  await row(page, name).waitFor({ state: 'hidden', timeout: 10_000 });
}

async function shortToken(page: Page): Promise<void> {
  const sandbox = await startSandbox({ port: 0, token: 't2', seed: 'demo', instanceName: 'Instance of t2' });
  try {
    await addConnection(page, sandbox.url, 'Token t2', 't2', async () => {
      // The real reason where something is refused: a space, said as such (typed into the box itself: keys
      // typed as it appears could reach the widget before its box holds the focus).
      await input(page).pressSequentially('t 2');
      const said = () =>
        validation(page)
          .innerText()
          .catch(() => '');
      await until('the reason under the token box', async () => /no spaces or line breaks.*character 2/.test(await said())).catch(async () => {
        throw new Error(`"t 2" is refused with: ${await said()}`);
      });
    });
    await expand(page, 'Token t2');
    await row(page, 'Instance of t2').waitFor({ timeout: 15_000 });
  } finally {
    await removeConnection(page, 'Token t2').catch(() => undefined);
    await sandbox.close();
  }
}

async function webPage(page: Page, diag: string): Promise<void> {
  const html = `<!DOCTYPE html><html><head><title>404 Not Found</title></head><body>${'<p>Not here.</p>'.repeat(300)}</body></html>`;
  const server = createServer((_req, res) => res.writeHead(404, { 'Content-Type': 'text/html' }).end(html));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await addConnection(page, url, 'Web page', 'some-token-0123');
    await expand(page, 'Web page');
    const expected = `Failed to load: ${url} answered with a web page (404), not the service: check the connection's URL`;
    const shown = await until(
      'the reason in the tree',
      async () => {
        const text = await row(page, /answered with a web page/)
          .innerText()
          .catch(() => '');
        return text.trim() || false;
      },
      15_000,
    ).finally(() => page.screenshot({ path: `${diag}/ui-client-web-page.png` }));
    if (shown !== expected) throw new Error(`the tree shows "${shown.slice(0, 300)}"`);
  } finally {
    await removeConnection(page, 'Web page').catch(() => undefined);
    server.closeAllConnections();
    server.close();
  }
}

export const clientChecks: UiCheckList = (page, _env, diag) => [
  [
    'ui: client: a sandbox whose token is t2: Add Connection, type t2 at the token prompt (a space is refused as such), the tree shows its instance',
    () => shortToken(page),
  ],
  ['ui: client: an address that answers with a web page (404) says so in one line in the tree', () => webPage(page, diag)],
];
