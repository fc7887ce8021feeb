// The desktop host: a local VS Code (Electron) binary driven by @vscode/test-electron.
// Used only when one is available; nothing is downloaded.
import * as fs from 'fs';
import * as path from 'path';
import type { HostRun } from './chromium';

/** $VSCODE_EXECUTABLE, or the Electron binary behind a desktop `code` on PATH. */
export function findDesktopVSCode(): string | undefined {
  const fromEnv = process.env.VSCODE_EXECUTABLE;
  if (fromEnv) {
    if (!fs.existsSync(fromEnv)) throw new Error(`VSCODE_EXECUTABLE=${fromEnv} does not exist`);
    return fromEnv;
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const cli = path.join(dir, 'code');
    if (!dir || !fs.existsSync(cli)) continue;
    const real = fs.realpathSync(cli);
    // Remote / server CLIs (code-server, vscode-server remote-cli) are not a desktop build.
    if (/vscode-server|remote-cli|code-server/.test(real)) continue;
    // Desktop layout: <install>/bin/code (script) next to <install>/code (Electron).
    if (path.basename(path.dirname(real)) !== 'bin') continue;
    const electron = path.join(path.dirname(path.dirname(real)), 'code');
    if (fs.existsSync(electron) && fs.statSync(electron).isFile()) return electron;
  }
  return undefined;
}

export async function runInElectron(executable: string, run: HostRun): Promise<number> {
  const { runTests } = await import('@vscode/test-electron');
  try {
    return await runTests({
      vscodeExecutablePath: executable,
      extensionDevelopmentPath: run.extensionPath,
      extensionTestsPath: run.testsEntry,
      extensionTestsEnv: run.env,
      launchArgs: [
        run.workspace,
        '--user-data-dir',
        path.join(run.tmp, 'user'),
        '--extensions-dir',
        path.join(run.tmp, 'extensions'),
        '--logsPath',
        path.join(run.diag, 'vscode-logs'),
        '--disable-workspace-trust',
        '--disable-telemetry',
        '--skip-welcome',
        '--skip-release-notes',
      ],
    });
  } catch (e) {
    // runTests rejects with "Test run failed with code N" on failures.
    const m = /code (\d+)/.exec((e as Error).message);
    if (m) return Number(m[1]);
    throw e;
  }
}
