/**
 * The extension's side of the pull threads (pullThread.ts): hands them a
 * pull's pages as the server sent them, turn about, and settles each page
 * once its files and merge bases are on disk. The threads are shared by the
 * pulls of this process and stop after a minute without one: a thread that
 * has pulled before runs its code compiled (a first pull's pages cost about
 * twice as much), and a pull does not wait for threads to start.
 */
import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ManifestWritten, PageCounted, PageDone, PageFailed, PageJob, PullStart, StatsChecked, ToThread } from './pullThread';
import { Manifest, manifestLines, ManifestObject } from './manifest';
import type { StatCheck } from './fileStats';
import { l10n } from '../../l10n';

/** The page is not a list: the caller reads its text again for the client's own error. */
export class NotAList extends Error {
  constructor(readonly text: string) {
    super(l10n.t('Not a list'));
  }
}

const idleMs = 60_000;

interface Waiting {
  worker: Worker;
  counted(listed: number): void;
  /** The thread's answer: a page written, files checked, the manifest written. */
  resolve(answer: PageDone | StatsChecked | ManifestWritten): void;
  reject(e: Error): void;
}

/** A page handed to a thread. */
export interface PageWrite {
  /** Its objects, once parsed (before its files are written); 0 when it failed. */
  counted: Promise<number>;
  written: Promise<PageDone>;
}

let threads: Worker[] | undefined;
/** The thread's code handed in by a bundle that carries it (the command line is one file: dist/oms.cjs). */
let embedded: string | undefined;

export function useThreadCode(code: string): void {
  embedded = code;
}
let pulls = 0;
let idle: NodeJS.Timeout | undefined;
const waiting = new Map<number, Waiting>();
/** Threads that failed, with the failure: a page handed to one fails at once. */
const failed = new WeakMap<Worker, Error>();
let nextJob = 0;
let nextPull = 0;

/**
 * The thread's code: bundled beside the extension (dist/pullThread.js). Run from source (unit tests,
 * benches), the thread bundles it first with esbuild, as esbuild.js does: they run what ships.
 */
function threadCode(): string {
  if (embedded) return embedded;
  const bundled = path.join(__dirname, 'pullThread.js');
  if (existsSync(bundled)) return `require(${JSON.stringify(bundled)})`;
  const source = JSON.stringify(path.join(__dirname, 'pullThread.ts'));
  return `const { outputFiles } = require('esbuild').buildSync({ entryPoints: [${source}], bundle: true, platform: 'node', format: 'cjs', write: false });
new Function('require', 'module', 'exports', outputFiles[0].text)(require, module, module.exports);`;
}

function startThreads(): Worker[] {
  const code = threadCode();
  // Two share the work while this thread reads the next pages; one on a machine of one core.
  return Array.from({ length: Math.min(2, os.availableParallelism()) }, () => {
    // None of the host's own flags (a loader, an inspector port).
    const worker = new Worker(code, { eval: true, execArgv: [] });
    worker.on('message', (m: PageCounted | PageDone | PageFailed | ManifestWritten | StatsChecked) => {
      const w = waiting.get(m.id);
      if ('counted' in m) return w?.counted(m.counted);
      waiting.delete(m.id);
      if ('manifest' in m) return m.error ? w?.reject(new Error(m.error)) : w?.resolve(m);
      if ('notAList' in m) w?.reject(new NotAList(m.notAList));
      else if ('error' in m) w?.reject(Object.assign(new Error(m.error.message), { code: m.error.code }));
      else w?.resolve(m);
    });
    worker.on('error', (e) => lost(worker, e));
    worker.on('exit', () => lost(worker, new Error(l10n.t("The pull's file writer stopped"))));
    // An idle thread keeps no process alive (a pull refs it while it waits for its pages); after the listeners, which ref it again.
    worker.unref();
    return worker;
  });
}

/** A thread that failed (not a file it could not write: the thread answers those) fails its pages; the next pull starts new threads. */
function lost(worker: Worker, e: Error): void {
  if (!failed.has(worker)) failed.set(worker, e);
  if (threads?.includes(worker)) {
    const others = threads.filter((w) => w !== worker);
    threads = undefined;
    for (const w of others) void w.terminate();
  }
  for (const [id, w] of waiting) {
    if (w.worker !== worker) continue;
    waiting.delete(id);
    w.reject(e);
  }
}

/** Starts the threads ahead of a pull, while its questions are asked; they stop after a minute without one. */
export function startPullThreads(): void {
  threads ??= startThreads();
  if (!pulls) stopWhenIdle();
}

function stopWhenIdle(): void {
  clearTimeout(idle);
  idle = setTimeout(() => {
    const stopping = threads;
    threads = undefined;
    for (const w of stopping ?? []) void w.terminate();
  }, idleMs);
  idle.unref();
}

/** One pull's use of the threads. */
export class PullWriter {
  private readonly pull = nextPull++;
  private readonly workers: Worker[];
  private sent = 0;
  private closed = false;

  constructor(start: PullStart) {
    clearTimeout(idle);
    this.workers = threads ??= startThreads();
    pulls++;
    for (const w of this.workers) w.ref();
    for (const w of this.workers) w.postMessage({ pull: this.pull, start } satisfies ToThread);
  }

  /**
   * Hands a page to the next thread: `written` settles once its files and bases are, or with the failure.
   * Its bytes go to the thread, not a copy: `page.bytes` is empty here afterwards.
   */
  write(page: Omit<PageJob, 'id'>): PageWrite {
    let count!: (listed: number) => void;
    const counted = new Promise<number>((resolve) => {
      count = resolve;
    });
    // A buffer of its own moves to the thread; a small one may share Node's pool, and is copied.
    const own = page.bytes.byteOffset === 0 && page.bytes.byteLength === page.bytes.buffer.byteLength;
    const transfer = own ? [page.bytes.buffer as ArrayBuffer] : [];
    const written = this.ask<PageDone>((id) => ({ pull: this.pull, page: { ...page, id } }), { counted: count, transfer });
    written.catch(() => count(0)); // no page after a failed one is asked for
    return { counted, written };
  }

  /**
   * Whether the files of `check` hold what they held when recorded, by their stats, on a thread: a page the server
   * answered 304 to costs this thread a message, not a stat per file (100,000 of them took 0.25-0.7 s).
   */
  holds(check: StatCheck): Promise<boolean> {
    return this.ask<StatsChecked>((id) => ({ pull: this.pull, check, id })).then((m) => m.holds);
  }

  /**
   * Has a thread write the manifest: its object lines are made here a slice at a time and handed on as made, then
   * sorted and written there (printed there, from its objects copied to it, 100,000 took 0.1 s longer). False when
   * it could not (a thread stopped), and the caller writes it. Call once every page has settled. `texts`: entries
   * the threads printed already.
   */
  async writeManifest(manifest: Manifest, texts?: ReadonlyMap<ManifestObject, string>): Promise<boolean> {
    const worker = this.workers[0];
    if (failed.has(worker)) return false;
    try {
      const head = await manifestLines(manifest, (lines) => worker.postMessage({ pull: this.pull, lines } satisfies ToThread), texts);
      await this.ask<ManifestWritten>((id) => ({ pull: this.pull, manifest: head, id }), { worker });
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Sends a thread (the next one, unless given) the message `of` makes with a new id, moving `transfer` to it;
   * its answer, or its failure. `counted` hears a page's count before its answer.
   */
  private ask<T>(
    of: (id: number) => ToThread,
    {
      worker = this.workers[this.sent++ % this.workers.length],
      counted = () => undefined,
      transfer = [],
    }: { worker?: Worker; counted?: Waiting['counted']; transfer?: ArrayBuffer[] } = {},
  ): Promise<T> {
    const id = nextJob++;
    return new Promise<T>((resolve, reject) => {
      const error = failed.get(worker);
      if (error) return reject(error);
      waiting.set(id, { worker, counted, resolve: resolve as unknown as Waiting['resolve'], reject });
      worker.postMessage(of(id), transfer);
    });
  }

  /** Ends this pull's use of the threads; call once every page has settled. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.workers) w.postMessage({ pull: this.pull, end: true } satisfies ToThread);
    if (--pulls === 0) {
      for (const w of this.workers) w.unref();
      stopWhenIdle();
    }
  }
}
