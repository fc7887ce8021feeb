/** The sandbox CLI in a process of its own (its memory measured apart from the test's), on a free port. */
import { spawn, ChildProcess } from 'node:child_process';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');

export interface Child {
  url: string;
  token: string;
  process: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
}

/** Starts `src/sandbox/cli.ts` with `args`; resolves once it prints its line (with the token). */
export function startCli(args: string[], env: Record<string, string> = {}): Promise<Child> {
  const clean = { ...process.env };
  delete clean.OMS_SANDBOX_TOKEN;
  delete clean.OMS_SANDBOX_PASSWORD;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/sandbox/cli.ts'), '--port', '0', '--print-token', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...clean, ...env },
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${err}`)));
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (\S+) instance=\S+ token=(\S+)/.exec(out);
      if (!m) return;
      resolve({
        url: m[1],
        token: m[2],
        process: child,
        stderr: () => err,
        async stop() {
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}

/** The CLI run to its end: exit code and what it wrote. */
export function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/sandbox/cli.ts'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}
