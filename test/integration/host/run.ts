// Integration runner: runs the Mocha suite in test/integration inside a real VS Code,
// against the packaged .vsix, with the project's sandbox service started for the run.
//
//   npm run package && npm run test:integration
//
// Host: a desktop VS Code when $VSCODE_EXECUTABLE is set or a desktop `code` is on PATH
// (@vscode/test-electron), else the offline VS Code server build in headless Chromium
// (scripts/install-host.sh). Force one with OMS_IT_HOST=electron|chromium.
// Other knobs: OMS_VSIX (a .vsix to test), OMS_TEST_GREP (mocha grep), OMS_IT_UI_ONLY=1 (no Mocha
// test, the UI checks only), OMS_UI_GREP (UI checks), OMS_IT_LOCALE=qps-ploc (pseudo-localized),
// OMS_IT_TIMEOUT_MS (whole run, default 1200000), OMS_IT_NO_SANDBOX=1 (development only).
// Diagnostics go to .diagnostics/integration/ (replaced on each run).
import * as esbuild from 'esbuild';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { ActivationRecord, IntegrationResults } from '../index';
import { hostNode, HostRun, installHost, Manifest, runInChromium } from './chromium';
import type { UiCheck } from '../ui/checks';
import { findDesktopVSCode, runInElectron } from './electron';
import { log, stopAll } from './procs';
import { trustPrivateCa } from './privateCa';
import { startSandbox } from './sandbox';
import { extractZip } from './zip';
import { addPseudoBundles, pseudoLocale, readManifest } from './l10n';

const repo = path.resolve(__dirname, '..', '..', '..');
// The pseudo-localized pass keeps its own, so the run before it keeps its screenshots.
const diag = path.join(repo, '.diagnostics', pseudoLocale ? 'integration-qps-ploc' : 'integration');
const timeoutMs = Number(process.env.OMS_IT_TIMEOUT_MS ?? 1_200_000);

function findVsix(): string {
  if (process.env.OMS_VSIX) return path.resolve(process.env.OMS_VSIX);
  const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { name: string; version: string };
  const vsix = path.join(repo, `${pkg.name}-${pkg.version}.vsix`);
  if (!fs.existsSync(vsix)) throw new Error(`${path.basename(vsix)} not found: run \`npm run package\` first`);
  return vsix;
}

function newestMtime(dir: string): number {
  let newest = 0;
  if (!fs.existsSync(dir)) return 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) newest = Math.max(newest, fs.statSync(path.join(e.parentPath, e.name)).mtimeMs);
  }
  return newest;
}

function warnIfStale(vsix: string): void {
  const built = fs.statSync(vsix).mtimeMs;
  const sources = Math.max(newestMtime(path.join(repo, 'src')), newestMtime(path.join(repo, 'schemas')), fs.statSync(path.join(repo, 'package.json')).mtimeMs);
  if (sources > built) log(`warning: ${path.basename(vsix)} is older than src/, schemas/ or package.json; run \`npm run package\` to test the current code`);
}

/** Bundles test/integration/index.ts and every *.test.ts below test/integration (host/ excluded) into outDir. */
async function compileTests(outDir: string): Promise<string> {
  const root = path.join(repo, 'test', 'integration');
  const entryPoints: Record<string, string> = { index: path.join(root, 'index.ts') };
  for (const e of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    const full = path.join(e.parentPath, e.name);
    const rel = path.relative(root, full);
    if (!e.isFile() || !rel.endsWith('.test.ts') || rel.split(path.sep)[0] === 'host') continue;
    entryPoints[rel.slice(0, -'.ts'.length).split(path.sep).join('.')] = full;
  }
  const tests = Object.keys(entryPoints).filter((k) => k !== 'index');
  if (tests.length === 0) throw new Error(`no *.test.ts files under ${path.relative(repo, root)}`);
  await esbuild.build({
    entryPoints,
    outdir: outDir,
    bundle: true,
    platform: 'node',
    target: 'node18',
    format: 'cjs',
    // mocha resolves from the repository's node_modules (outDir is inside the repo).
    external: ['vscode', 'mocha'],
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  log(`compiled ${tests.length} test file(s): ${tests.map((t) => `${t}.js`).join(', ')}`);
  return path.join(outDir, 'index');
}

function readResults(): IntegrationResults | undefined {
  const file = path.join(diag, 'results.json');
  if (!fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, 'utf8')) as IntegrationResults;
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((l) => by + l)
    .join('\n');
}

async function main(): Promise<number> {
  const t0 = Date.now();
  fs.rmSync(diag, { recursive: true, force: true });
  fs.mkdirSync(diag, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'oms-it-'));
  const outDir = path.join(repo, 'out', 'integration', `run-${process.pid}`);
  let ok = false;
  try {
    const vsix = findVsix();
    warnIfStale(vsix);
    const unpacked = path.join(tmp, 'vsix');
    const files = extractZip(vsix, unpacked);
    const extensionPath = path.join(unpacked, 'extension');
    if (pseudoLocale) addPseudoBundles(repo, extensionPath);
    const manifest = readManifest<Manifest>(extensionPath);
    log(`testing ${path.relative(repo, vsix) || vsix} (${files.length} files) unpacked in ${tmp}`);

    const testsEntry = await compileTests(outDir);
    const workspace = path.join(tmp, 'workspace');
    fs.mkdirSync(workspace);

    const env: Record<string, string> = { OMS_TEST_DIAGNOSTICS: diag, OMS_WORKSPACE: workspace };
    if (process.env.OMS_TEST_GREP) env.OMS_TEST_GREP = process.env.OMS_TEST_GREP;
    if (process.env.OMS_IT_UI_ONLY) env.OMS_IT_UI_ONLY = process.env.OMS_IT_UI_ONLY;
    const forced = process.env.OMS_IT_HOST;
    const desktop = forced === 'chromium' ? undefined : findDesktopVSCode();
    if (forced === 'electron' && !desktop) throw new Error('OMS_IT_HOST=electron but no VSCODE_EXECUTABLE / desktop `code` found');
    const hostDir = desktop ? undefined : installHost(repo);

    if (process.env.OMS_IT_NO_SANDBOX === '1') {
      log('warning: OMS_IT_NO_SANDBOX=1, no sandbox started (development only)');
    } else {
      // On the VS Code server's Node.js, the runtime the extension's embedded sandbox runs on in that host
      // (a desktop VS Code's is Electron's: there, this runner's Node.js).
      const sandbox = await startSandbox(repo, tmp, path.join(diag, 'sandbox.log'), hostDir ? hostNode(hostDir) : process.execPath);
      log(`sandbox ${sandbox.url} instance ${sandbox.instance} on Node.js ${sandbox.nodeVersion}`);
      Object.assign(env, {
        OMS_SANDBOX_URL: sandbox.url,
        OMS_SANDBOX_TOKEN: sandbox.token,
        OMS_SANDBOX_INSTANCE: sandbox.instance,
        OMS_SANDBOX_PASSWORD: sandbox.password,
      });
    }

    // A company's private CA, trusted by the host as the system's own (network.test.ts serves HTTPS with it).
    Object.assign(env, trustPrivateCa(path.join(tmp, 'ca')));

    const run: HostRun = { repo, tmp, diag, workspace, extensionPath, vsix, testsEntry, env, manifest };

    let exitCode: number;
    let look: (() => Promise<UiCheck[]>) | undefined;
    if (desktop) {
      log(`host: desktop VS Code ${desktop} (@vscode/test-electron)`);
      exitCode = await runInElectron(desktop, run);
    } else {
      log('host: VS Code server build in headless Chromium');
      ({ exitCode, look } = await runInChromium(run, hostDir!));
    }

    const results = readResults();
    // Checks by mouse and keyboard (Chromium host only).
    const ui = look ? await look() : [];
    if (!look) log('no screenshot or mouse-and-keyboard checks in the desktop host');
    if (results) {
      for (const c of ui) {
        results.tests.push({ fullTitle: c.title, state: c.ok ? 'passed' : 'failed' });
        if (c.ok) results.passed++;
        else {
          results.failed++;
          results.failures.push({ fullTitle: c.title, message: c.message ?? 'failed' });
        }
      }
    }

    if (!results) {
      const written = path.relative(repo, path.join(diag, 'results.json'));
      log(`error: the test entry wrote no ${written} (host exit code ${exitCode}); see ${path.relative(repo, diag)}/`);
      console.log('0 passed, 0 failed');
      return 1;
    }
    console.log('');
    for (const t of results.tests) console.log(`  ${t.state === 'passed' ? 'ok  ' : t.state === 'failed' ? 'FAIL' : 'skip'} ${t.fullTitle}`);
    for (const [i, f] of results.failures.entries()) {
      console.log(`\n  ${i + 1}) ${f.fullTitle}`);
      const lines = f.message.split('\n');
      console.log(indent(lines.slice(0, 30).join('\n'), '       '));
      if (lines.length > 30) console.log(`       ... ${lines.length - 30} more line(s) in results.json`);
      const where = f.stack?.split('\n').find((l) => /\.test\.(js|ts)/.test(l));
      if (where) console.log(`       ${where.trim()}`);
    }
    console.log('');
    const times = path.join(diag, 'activation-times.json');
    if (fs.existsSync(times)) {
      const t = JSON.parse(fs.readFileSync(times, 'utf8')) as ActivationRecord;
      const before = t.quiet ? `; machine ${Math.round(t.quiet.busy * 100)}% busy just before, after waiting ${t.quiet.waitedMs} ms for it to settle` : '';
      const sum = t.codeLoadingTime + t.activateCallTime + t.activateResolvedTime;
      log(
        `activation as VS Code recorded it: load code ${t.codeLoadingTime} ms + call activate ${t.activateCallTime} ms + ` +
          `finish activate ${t.activateResolvedTime} ms = ${sum} ms (${t.event}${before})`,
      );
    }
    log(`finished in ${((Date.now() - t0) / 1000).toFixed(1)} s; diagnostics in ${path.relative(repo, diag)}/`);
    if (results.passed + results.failed === 0) log('error: no tests ran');
    if (exitCode !== 0 && results.failed === 0) log(`error: the host reported exit code ${exitCode} without a failing test (see the logs)`);
    console.log(`${results.passed} passed, ${results.failed} failed`);
    ok = results.failed === 0 && results.passed > 0 && exitCode === 0;
    return ok ? 0 : 1;
  } finally {
    await stopAll();
    fs.rmSync(outDir, { recursive: true, force: true });
    if (ok) fs.rmSync(tmp, { recursive: true, force: true });
    else log(`kept ${tmp} for inspection`);
  }
}

const timer = setTimeout(() => {
  log(`error: the run exceeded ${timeoutMs} ms; stopping everything`);
  void stopAll().finally(() => process.exit(1));
}, timeoutMs);
timer.unref();

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    log(`${sig}: stopping`);
    void stopAll().finally(() => process.exit(130));
  });
}

main().then(
  (code) => process.exit(code),
  async (e: Error) => {
    log(`error: ${e.stack ?? e.message}`);
    await stopAll();
    process.exit(1);
  },
);
