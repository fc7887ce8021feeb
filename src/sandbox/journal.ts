/**
 * Durable storage of the sandbox: a snapshot file plus an append-only journal
 * of changes. A change is one line appended to `<file>.journal`; the answer
 * waits for its fdatasync, and changes made while a sync runs share the next
 * one (group commit), so a write costs the same with 100 or 100,000 objects.
 * When the journal outgrows the snapshot it is compacted in the background:
 * the journal is renamed to `.journal.old`, a new one started, the state
 * written to `<file>.tmp` in slices (fsync, rename over `<file>`), then the
 * old journal removed. Every change line carries a sequence number and the
 * snapshot the last one it holds, so a crash at any instant loads the newest
 * snapshot, replays the journal lines after it and loses nothing confirmed.
 * A torn last line was never confirmed and is skipped. Start-up folds
 * everything into a fresh snapshot and removes what a crash left behind.
 *
 * Files: line 1 of the snapshot is a header (`format`, `version`, `instanceKey`,
 * `seq`); each further line is one stored object or outbox entry. Version 1
 * files (one JSON document with `objects` and `outbox`) are still read.
 */
import { constants as fsConstants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createTemp, isLinkRefusal, makePrivateDir, openNoFollow } from '../util/privateFile';

/** One stored object or outbox entry as it is written, in order. */
export type Record = { kind: string; object: unknown } | { outbox: unknown };

/** What the journal records; applied in order on load. */
export type Change =
  | { op: 'put'; kind: string; object: unknown }
  | { op: 'delete'; key: string }
  | { op: 'outbox'; entry: unknown }
  | { op: 'clearOutbox' };

interface Loaded {
  instanceKey: string;
  records: Record[];
  changes: Change[];
  /** Sequence number of the last change held. */
  seq: number;
  /** A current snapshot and nothing to replay: no need to write it again. */
  clean: boolean;
}

export interface Snapshot {
  instanceKey: string;
  /** Called once; yields the JSON text of each record, in order. */
  records: () => Iterable<string>;
}

const format = 'oms-sandbox';
/**
 * Journal bigger than this and than the snapshot: compact. Compaction rewrites
 * every object while changes keep coming, so a small store is left to grow a
 * journal of this size first (a batch add of 10,000 people writes 12 MB;
 * compacting at 4 MiB cost it 10% of its time). Start-up replays at most
 * this, or the snapshot's size.
 */
export const defaultCompactAtBytes = 32 * 1024 * 1024;
/** Writes slower than this make a small batch wait for its peers, at most `maxGatherMs`. */
const minGatherWriteMs = 1;
const maxGatherMs = 2;
/** Records serialised between two turns of the event loop while compacting. */
const slice = 500;

const journalFile = (file: string) => `${file}.journal`;
const oldJournalFile = (file: string) => `${file}.journal.old`;

/**
 * Reads the snapshot and the journals of `file` as they are on disk, without
 * changing anything; undefined when there is no snapshot. Throws when the file
 * is not sandbox data.
 */
export async function readStoreFiles(file: string): Promise<Loaded | undefined> {
  const snapshot = await readSnapshot(file);
  if (!snapshot) {
    if (await exists(journalFile(file))) throw new Error(`${journalFile(file)} exists but ${file} does not: restore ${file} or remove the journal`);
    return undefined;
  }
  const changes: Change[] = [];
  for (const journal of [oldJournalFile(file), journalFile(file)]) {
    await eachLine(journal, (line) => {
      const entry = parseLine(line) as { s?: unknown; c?: Change } | undefined;
      // A line that does not parse is a torn write, never confirmed.
      if (entry && typeof entry.s === 'number' && entry.s > snapshot.seq && entry.c) {
        changes.push(entry.c);
        snapshot.seq = entry.s;
      }
    });
  }
  return {
    instanceKey: snapshot.instanceKey, records: snapshot.records, changes, seq: snapshot.seq,
    clean: snapshot.version === 2 && changes.length === 0,
  };
}

async function readSnapshot(file: string): Promise<{ instanceKey: string; seq: number; version: unknown; records: Record[] } | undefined> {
  let header: { format?: unknown; version?: unknown; instanceKey?: unknown; seq?: unknown; objects?: unknown; outbox?: unknown } | undefined;
  const records: Record[] = [];
  const found = await eachLine(file, (line, n) => {
    if (n === 0) {
      try {
        header = JSON.parse(line) as typeof header;
      } catch (e) {
        throw new Error(`The sandbox data file ${file} is not valid JSON (${(e as Error).message}); fix or remove it`, { cause: e });
      }
      if (!header || header.format !== format || typeof header.instanceKey !== 'string') {
        throw new Error(`${file} is not an OMS sandbox data file (expected "format": "${format}")`);
      }
      return;
    }
    const record = parseLine(line);
    if (!record) throw new Error(`The sandbox data file ${file} has a damaged line ${n + 1}; fix or remove it`);
    records.push(record as Record);
  });
  if (!found) return undefined;
  if (!header) throw new Error(`The sandbox data file ${file} is empty; remove it to start afresh`);
  if (header.version === 1) {
    if (!Array.isArray(header.objects)) throw new Error(`${file} is not an OMS sandbox data file (no "objects")`);
    records.push(...(header.objects as Record[]));
    if (Array.isArray(header.outbox)) records.push(...header.outbox.map((outbox: unknown) => ({ outbox })));
  }
  return { instanceKey: header.instanceKey as string, seq: typeof header.seq === 'number' ? header.seq : 0, version: header.version, records };
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/** Calls `fn` for each non-empty line; false when the file does not exist. Never follows a symbolic link. */
async function eachLine(file: string, fn: (line: string, n: number) => void): Promise<boolean> {
  let handle: fs.FileHandle;
  try {
    handle = await openNoFollow(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    if (isLinkRefusal(e)) throw new Error(`${file} is a symbolic link: the sandbox does not follow links to its data files (give the real path)`, { cause: e });
    throw e;
  }
  const stream = handle.createReadStream({ encoding: 'utf8' });
  let n = 0;
  try {
    for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
      if (line.trim()) fn(line.replace(/^\uFEFF/, ''), n++);
    }
  } finally {
    stream.destroy(); // closes the file, also when `fn` threw
  }
  return true;
}

/** True when something (a dangling link included) is at `file`. */
async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(() => true, () => false);
}

/** Writes a snapshot durably: new temp file (random name, exclusive) in slices, fsync, rename, directory fsync. Returns its size. */
async function writeSnapshot(file: string, seq: number, snapshot: Snapshot): Promise<number> {
  const { path: temp, handle } = await createTemp(file);
  let bytes = 0;
  try {
    let text = `${JSON.stringify({ format, version: 2, instanceKey: snapshot.instanceKey, seq })}\n`;
    let n = 0;
    for (const record of snapshot.records()) {
      text += `${record}\n`;
      if (++n % slice === 0) {
        bytes += (await handle.write(text)).bytesWritten;
        text = '';
        await nextTurn();
      }
    }
    bytes += (await handle.write(text)).bytesWritten;
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temp, file);
  await syncDirectory(path.dirname(file));
  return bytes;
}

async function syncDirectory(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Directories cannot be opened or fsynced on some platforms (Windows); renames are still atomic there.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** What the journal needs from the files; tests swap in one that fails. */
interface JournalIo {
  append(handle: fs.FileHandle, bytes: Buffer): Promise<void>;
}

export interface JournalOptions {
  io?: JournalIo;
  /** Compact once the journal is larger than this and than the snapshot; default 32 MiB. */
  compactAtBytes?: number;
}

/**
 * A new, empty journal file, appended to only: created under a random name
 * (exclusive, 0600) and renamed into place. Where the platform has O_DSYNC
 * each write returns once its data is on disk: one call per batch instead of
 * a write and an fdatasync.
 */
const { O_APPEND, O_DSYNC } = fsConstants;

async function openJournal(file: string): Promise<fs.FileHandle> {
  const { path: temp, handle } = await createTemp(file, O_APPEND | (O_DSYNC ?? 0));
  try {
    await fs.rename(temp, file);
  } catch (e) {
    await handle.close();
    await fs.rm(temp, { force: true });
    throw e;
  }
  return handle;
}

const defaultIo: JournalIo = {
  async append(handle, bytes) {
    await handle.write(bytes);
    if (O_DSYNC === undefined) await handle.datasync();
  },
};

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

  private constructor(private readonly file: string, seq: number, private readonly snapshot: () => Snapshot, options: JournalOptions) {
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
    const line = `{"s":${this.seq + 1},"c":${text}}\n`;
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
        await this.handle.truncate(this.size).catch(() => { this.damaged = true; });
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
        await this.handle.close();
        await fs.rename(journalFile(this.file), oldJournalFile(this.file));
        this.handle = await openJournal(journalFile(this.file));
        this.size = 0;
        await syncDirectory(path.dirname(this.file));
      }
    } catch {
      // Appends to a closed or missing journal fail their requests; nothing is confirmed that is not on disk.
      return;
    }
    const seq = this.seq;
    const state = this.snapshot();
    this.compacting = (async () => {
      try {
        this.snapshotBytes = await writeSnapshot(this.file, seq, state);
        await fs.rm(oldJournalFile(this.file), { force: true });
      } catch {
        // Kept for the next compaction: the old journal and the snapshot still hold everything.
        this.snapshotBytes = Math.max(this.snapshotBytes, this.size);
      } finally {
        this.compacting = undefined;
      }
    })();
  }
}

/**
 * Temp files of an interrupted snapshot or journal start (`{name}.{random}.tmp`,
 * `{name}.journal.{random}.tmp`), and those of earlier versions (`{name}.tmp`, `.{name}.{pid}.tmp`).
 */
async function removeLeftovers(file: string): Promise<void> {
  const dir = path.dirname(file);
  const base = path.basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const leftover = new RegExp(`^(${base}(\\.journal)?(\\.[0-9a-f]+)?|\\.${base}\\.\\d+)\\.tmp$`);
  for (const name of await fs.readdir(dir)) {
    if (leftover.test(name)) await fs.rm(path.join(dir, name), { force: true });
  }
}
