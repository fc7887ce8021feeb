/** Runs the BUILT command line (dist/oms.cjs, built once per test file with `node esbuild.js --cli`) as a child process. */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

// Where `oms` records the folders this user pulled (src/cli/pulledFrom.ts): this test process's own, for every run it starts.
process.env.XDG_STATE_HOME = mkdtempSync(path.join(tmpdir(), 'oms-test-state-'));
process.once('exit', () => rmSync(process.env.XDG_STATE_HOME!, { recursive: true, force: true }));

export const repo = path.resolve(__dirname, '../../..');
export const omsFile = path.join(repo, 'dist', 'oms.cjs');

let built = false;

export function buildOms(): void {
  if (built) return;
  execFileSync(process.execPath, ['esbuild.js', '--cli'], { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] });
  built = true;
}

export interface OmsRun {
  code: number | null;
  /** The signal that ended it, if one did. */
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
  ms: number;
}

export interface OmsOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Text for standard input, then it is closed. */
  stdin?: string;
  /** A standard input that stays open, nothing ever written to it. */
  stdinOpen?: boolean;
  /** Handed the child once it runs (a test that kills it part way). */
  started?(child: ChildProcess): void;
}

/** Every output of every run of this process, so a test can check a secret never appeared in any. */
export const allOutput: string[] = [];

export function oms(args: string[], options: OmsOptions = {}): Promise<OmsRun> {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.OMS_TOKEN;
  delete env.OMS_URL;
  Object.assign(env, options.env);
  const started = Date.now();
  const child = spawn(process.execPath, [omsFile, ...args], { cwd: options.cwd ?? repo, env, stdio: ['pipe', 'pipe', 'pipe'] });
  if (!options.stdinOpen) child.stdin.end(options.stdin ?? '');
  options.started?.(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`oms ${args.join(' ')} did not end in 60 s\n${out}\n${err}`));
    }, 60_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (options.stdinOpen) child.stdin.destroy();
      allOutput.push(out, err);
      resolve({ code, signal, out, err, ms: Date.now() - started });
    });
  });
}

export interface TerminalRun {
  code: number | null;
  /** stdout and stderr together, as a terminal shows them. */
  out: string;
  asked: boolean;
}

/** util-linux `script`: runs a command in a pseudo-terminal. */
const scriptBin = '/usr/bin/script';
export const hasScript = existsSync(scriptBin);

/**
 * `oms <args>` in a pseudo-terminal (not a CI job: no `CI`, no `OMS_URL` unless `env` gives them), `answer` typed once a
 * question is shown (once): what it showed, and whether it asked.
 */
export function omsOnTerminal(args: string[], answer: string, env: Record<string, string | undefined>): Promise<TerminalRun> {
  const command = [process.execPath, omsFile, ...args].map((a) => `'${a}'`).join(' ');
  const child = spawn(scriptBin, ['-qec', command, '/dev/null'], {
    env: { ...process.env, CI: undefined, OMS_URL: undefined, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let asked = false;
  const seen = (d: Buffer) => {
    out += d.toString();
    if (!asked && out.includes('Only "yes" is accepted')) {
      asked = true;
      child.stdin.write(`${answer}\n`);
    }
  };
  child.stdout.on('data', seen);
  child.stderr.on('data', seen);
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ code, out, asked });
    }),
  );
}
