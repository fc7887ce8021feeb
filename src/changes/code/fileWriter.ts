/**
 * A pull's file writes, on a thread of their own. Creating 10,000 small files
 * takes the kernel from a third of the time listing them takes to several
 * times that, as the disk is busy (bench/objectsAsCode.bench.ts prints both);
 * on the extension host's thread every create would hold up reading and
 * serialising the next objects, and every extension with them. The thread
 * pool's async calls cost that thread ~5x more than handing the texts over
 * (three round trips and a promise per file). Batches are written in the
 * order given: a batch's files, then its appends, each settled once all of it
 * was written.
 */
import { Worker } from 'node:worker_threads';

/** Plain JavaScript run by the thread (`eval`): nothing to bundle beside the extension. */
const source = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
parentPort.on('message', ({ id, files, appends }) => {
  let bytes = 0;
  try {
    for (let i = 0; i < files.length; i += 2) {
      fs.writeFileSync(files[i], files[i + 1]);
      bytes += Buffer.byteLength(files[i + 1]);
    }
    for (let i = 0; i < appends.length; i += 2) fs.appendFileSync(appends[i], appends[i + 1].join(''));
    parentPort.postMessage({ id, bytes });
  } catch (e) {
    parentPort.postMessage({ id, error: { message: e.message, code: e.code } });
  }
});
`;

export interface WriteBatch {
  /** Absolute path → text, each file replaced whole. */
  files: Array<[string, string]>;
  /** Absolute path → texts appended (in one write), after the files. */
  appends: Array<[string, string[]]>;
}

export class FileWriter {
  // None of the host's own flags (a loader, an inspector port): the thread runs plain JavaScript.
  private readonly worker = new Worker(source, { eval: true, execArgv: [] });
  private readonly waiting = new Map<number, { resolve(bytes: number): void; reject(e: Error): void }>();
  private next = 0;
  private failed?: Error;

  constructor() {
    this.worker.on('message', (m: { id: number; bytes?: number; error?: { message: string; code?: string } }) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (!m.error) return w?.resolve(m.bytes ?? 0);
      w?.reject(Object.assign(new Error(m.error.message), { code: m.error.code }));
    });
    this.worker.on('error', (e) => this.fail(e));
    this.worker.on('exit', () => this.fail(new Error('The file writer stopped')));
  }

  /** Resolves with the bytes of the files written once the batch is written; rejects with the first failure. */
  write(batch: WriteBatch): Promise<number> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.next++;
    return new Promise<number>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, files: batch.files.flat(), appends: batch.appends.flat() });
    });
  }

  /** Stops the thread; call once every batch has settled. */
  async close(): Promise<void> {
    this.failed ??= new Error('The file writer is closed');
    await this.worker.terminate();
  }

  private fail(e: Error): void {
    this.failed ??= e;
    for (const w of this.waiting.values()) w.reject(this.failed);
    this.waiting.clear();
  }
}
