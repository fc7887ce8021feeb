/**
 * The journal of the sandbox's store: a change is one line appended to
 * `<file>.journal` (format in `logFormat.ts`); the answer waits for its
 * fdatasync, and changes made while a write runs share the next one (group
 * commit), so a write costs the same with 100 or 100,000 objects. When the
 * journal outgrows the snapshot it is compacted in the background
 * (`compaction.ts`). Every change line carries a sequence number and the
 * snapshot the last one it holds, so a crash at any instant loads the newest
 * snapshot and replays the lines after it (`recovery.ts`), losing nothing confirmed.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makePrivateDir } from '../../util/privateFile';
import { defaultCompactAtBytes, rotateJournal, writeCompacted, writeSnapshot } from './compaction';
import { defaultIo, exists, JournalIo, journalFile, oldJournalFile, openJournal, removeLeftovers, syncDirectory } from './dataFiles';
import { Change, changeLine, Snapshot } from './logFormat';

export interface JournalOptions {
  io?: JournalIo;
  /** Compact once the journal is larger than this and than the snapshot; default 32 MiB. */
  compactAtBytes?: number;
}

/** Writes slower than this make a small batch wait for its peers, at most `maxGatherMs`. */
const minGatherWriteMs = 1;
const maxGatherMs = 2;

interface Waiter {
  seq: number;
  resolve: () => void;
  reject: (e: unknown) => void;
}

export class Journal {
  private handle!: fs.FileHandle;
  private size = 0;
  private snapshotBytes = 0;
  /** Last sequence number given out, and the last one written (or given up on). */
  private seq: number;
  private written: number;
  private lines: string[] = [];
  private undos: Array<() => void> = [];
  private waiters: Waiter[] = [];
  private running: Promise<void> | undefined;
  private compacting: Promise<void> | undefined;
  private damaged = false;
  /** Size and duration of the last write: a smaller batch on a slow disk waits briefly for its peers (see `drain`). */
  private lastBatch = 1;
  private lastWriteMs = 0;
  private wake: (() => void) | undefined;

  private readonly io: JournalIo;
  private readonly compactAtBytes: number;

  private constructor(
    private readonly file: string,
    seq: number,
    private readonly snapshot: () => Snapshot,
    options: JournalOptions,
  ) {
    this.seq = this.written = seq;
    this.io = options.io ?? defaultIo;
    this.compactAtBytes = options.compactAtBytes ?? defaultCompactAtBytes;
  }

  /**
   * Starts a journal for `file` whose state is `snapshot()`: everything loaded
   * and replayed, up to sequence number `seq`. Unless `clean` (a current
   * snapshot and no journal), writes that state as the new snapshot; removes
   * old journals and temp files, and opens an empty journal.
   */
  static async open(file: string, seq: number, snapshot: () => Snapshot, clean: boolean, options: JournalOptions = {}): Promise<Journal> {
    const dir = path.dirname(file);
    await makePrivateDir(dir);
    await removeLeftovers(file);
    const journal = new Journal(file, seq, snapshot, options);
    journal.snapshotBytes = clean ? (await fs.lstat(file)).size : await writeSnapshot(file, seq, snapshot());
    await fs.rm(oldJournalFile(file), { force: true });
    journal.handle = await openJournal(journalFile(file));
    await syncDirectory(dir);
    return journal;
  }

  /**
   * Queues the line of a change (or of its JSON text); `undo` puts memory
   * back if it cannot be written. Throws (and queues nothing) when the change cannot be serialised.
   * The caller then makes the change in memory and awaits `durable()`.
   */
  append(change: Change | string, undo: () => void): void {
    const text = typeof change === 'string' ? change : JSON.stringify(change);
    const line = changeLine(this.seq + 1, text);
    this.seq++;
    this.lines.push(line);
    this.undos.push(undo);
    if (this.wake && this.lines.length >= this.lastBatch) this.wake();
    this.running ??= this.drain();
  }

  /** Resolves once every change appended so far is on disk; rejects if the write of one of them failed. */
  durable(): Promise<void> {
    if (this.written >= this.seq) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ seq: this.seq, resolve, reject }));
  }

  /** Finishes pending writes and any compaction, then closes the file. */
  async close(): Promise<void> {
    while (this.running || this.compacting) await Promise.all([this.running, this.compacting]);
    await this.handle.close();
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (!this.compacting && this.size > Math.max(this.compactAtBytes, this.snapshotBytes)) await this.startCompaction();
      if (!this.lines.length) break;
      // Clients answered by the last write send their next change within a moment: when a write
      // costs more than that, waiting for them (bounded) lets one write carry them all.
      if (this.lines.length < this.lastBatch && this.lastWriteMs >= minGatherWriteMs) await this.gather();
      const lines = this.lines;
      const undos = this.undos;
      this.lines = [];
      this.undos = [];
      const last = this.written + lines.length;
      let failure: unknown;
      try {
        // After a write that could not be cut back, start on a fresh line so the torn one stays alone.
        // Encoded once: the write and the size both use the bytes.
        const bytes = Buffer.from((this.damaged ? '\n' : '') + lines.join(''));
        const started = performance.now();
        await this.io.append(this.handle, bytes);
        this.lastWriteMs = performance.now() - started;
        this.lastBatch = lines.length;
        this.size += bytes.length;
        this.damaged = false;
      } catch (e) {
        failure = e;
        await this.handle.truncate(this.size).catch(() => {
          this.damaged = true;
        });
        for (let i = undos.length - 1; i >= 0; i--) undos[i]();
      }
      this.written = last;
      this.settle(last, failure);
    }
    this.running = undefined;
  }

  /** Resolves once as many lines wait as the last write carried, or after half a write's time (at most `maxGatherMs`). */
  private gather(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.min(maxGatherMs, this.lastWriteMs / 2));
      this.wake = done;
    });
  }

  private settle(upTo: number, failure: unknown): void {
    const done = this.waiters.filter((w) => w.seq <= upTo);
    this.waiters = this.waiters.filter((w) => w.seq > upTo);
    for (const w of done) {
      if (failure === undefined) w.resolve();
      else w.reject(failure);
    }
  }

  /**
   * Runs inside `drain`, between two batches: moves the journal aside, starts
   * a new one, and takes the state with its sequence number at one instant.
   * Lines queued meanwhile go to the new journal (replayed over the snapshot
   * only while it is older than them). The snapshot is written in the background.
   */
  private async startCompaction(): Promise<void> {
    try {
      if (!(await exists(oldJournalFile(this.file)))) {
        this.handle = await rotateJournal(this.file, this.handle);
        this.size = 0;
      }
    } catch {
      // Appends to a closed or missing journal fail their requests; nothing is confirmed that is not on disk.
      return;
    }
    const seq = this.seq;
    const state = this.snapshot();
    this.compacting = (async () => {
      try {
        this.snapshotBytes = await writeCompacted(this.file, seq, state);
      } catch {
        // Kept for the next compaction: the old journal and the snapshot still hold everything.
        this.snapshotBytes = Math.max(this.snapshotBytes, this.size);
      } finally {
        this.compacting = undefined;
      }
    })();
  }
}
