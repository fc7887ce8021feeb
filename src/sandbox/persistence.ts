/**
 * Durable JSON file: each write goes to a temp file that is fsynced, renamed
 * over the target, and the directory fsynced. Writes are serialised by a queue
 * that coalesces: a request made while a write runs is served by the next
 * write, which snapshots the state as it is when it starts, so it holds every
 * change made before the request.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export async function writeFileDurably(file: string, text: string): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  const handle = await fs.open(temp, 'w');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temp, file);
  await syncDirectory(dir);
}

async function syncDirectory(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Directories cannot be opened or fsynced on some platforms (Windows); the rename is still atomic there.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Reads a JSON file; undefined when it does not exist. Throws when it exists but is not JSON. */
export async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new Error(`The sandbox data file ${file} is not valid JSON (${(e as Error).message}); fix or remove it`, { cause: e });
  }
}

interface Waiter {
  promise: Promise<void>;
  resolve: () => void;
  reject: (e: unknown) => void;
}

function waiter(): Waiter {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

export class WriteQueue {
  private pending: Waiter | undefined;
  private running: Promise<void> | undefined;

  /** `snapshot` is called when a write starts; `write` stores its text. */
  constructor(private readonly snapshot: () => string, private readonly write: (text: string) => Promise<void>) {}

  /** Resolves once a write that started after this call has completed. */
  request(): Promise<void> {
    if (!this.pending) this.pending = waiter();
    const promise = this.pending.promise;
    if (!this.running) this.running = this.drain();
    return promise;
  }

  /** Resolves when no write is running or waiting. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.pending) {
      const batch = this.pending;
      this.pending = undefined;
      try {
        await this.write(this.snapshot());
        batch.resolve();
      } catch (e) {
        batch.reject(e);
      }
    }
    this.running = undefined;
  }
}
