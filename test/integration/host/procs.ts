// Child processes the runner starts, so that a timeout or an error can stop
// exactly those (each in its own process group, killed by its id) and nothing else.
import { ChildProcess, spawn, SpawnOptions } from 'child_process';
import * as fs from 'fs';

const started = new Set<ChildProcess>();
const cleanups: Array<() => Promise<void> | void> = [];

export function log(msg: string): void {
  process.stdout.write(`[integration] ${msg}\n`);
}

/** Spawns `cmd` in its own process group; stdout/stderr are appended to `logFile`. */
export function startProcess(cmd: string, args: string[], opts: SpawnOptions & { logFile: string }): ChildProcess {
  // Only the user may read the logs: a child's output may hold a URL or a name worth keeping private.
  const out = fs.createWriteStream(opts.logFile, { flags: 'a', mode: 0o600 });
  const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout?.on('data', (d) => out.write(d));
  child.stderr?.on('data', (d) => out.write(d));
  child.on('exit', () => {
    started.delete(child);
    out.end();
  });
  started.add(child);
  return child;
}

/** Resolves with the first stdout line matching `pattern`; rejects if the process exits or time runs out. */
export function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => done(new Error(`${what}: no output matching ${pattern} within ${timeoutMs} ms`)), timeoutMs);
    const onData = (d: Buffer) => {
      buffered += d.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl).replace(/\r$/, '');
        buffered = buffered.slice(nl + 1);
        if (pattern.test(line)) return done(undefined, line);
      }
    };
    const onExit = (code: number | null, signal: string | null) => done(new Error(`${what} exited before it was ready (code ${code}, signal ${signal})`));
    const done = (err?: Error, line?: string) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(line!);
    };
    child.stdout?.on('data', onData);
    child.on('exit', onExit);
  });
}

export function onCleanup(fn: () => Promise<void> | void): void {
  cleanups.push(fn);
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}

/** Stops one process group started here (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  killGroup(child, 'SIGTERM');
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Runs registered cleanups (last first), then stops every process group still running. */
export async function stopAll(): Promise<void> {
  for (const fn of cleanups.splice(0).reverse()) {
    try {
      await Promise.race([fn(), new Promise((r) => setTimeout(r, 10_000))]);
    } catch (e) {
      log(`cleanup error: ${(e as Error).message}`);
    }
  }
  const live = [...started];
  for (const c of live) killGroup(c, 'SIGTERM');
  const deadline = Date.now() + 5_000;
  while ([...started].length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  for (const c of [...started]) killGroup(c, 'SIGKILL');
}
