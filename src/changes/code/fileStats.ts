/**
 * What this machine knows of a pulled folder's files without reading them, as
 * git's index does: per file the size, modification time and inode it had
 * when it last held a known text (the hash), written by a pull or apply or
 * found so by reading it. A file whose stat still matches holds that text: a
 * no-op pull or a plan of 100,000 files reads none of them. One append-only
 * file in the local cache (`.oms/stats`, out of git), a line per record, the
 * last one of a path counting. A file changed within the same tick of the
 * file system's clock as its record (a "racily clean" file) could keep its
 * stat: a record counts only for a file last modified before the stats file
 * itself was, else the file is read. Once it holds more than twice the lines
 * it needs (and a thousand), it is written anew with a line per file.
 */
import { appendFileSync, BigIntStats, existsSync, renameSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { readBytesNoFollow, writeNoFollow } from './safePaths';
import { Slices } from './slices';

const fileName = 'stats';
const newline = 0x0a;
/** Bytes decoded at a time (about 1 ms). */
const partBytes = 1 << 20;

interface Known {
  hash: string;
  size: string;
  mtime: string;
  ino: string;
}

export class FileStats {
  readonly file: string;
  private known = new Map<string, Known>();
  /** The stats file's own modification time when read (ns): records of files modified since are not trusted. */
  private readAt = -1n;
  private pending: string[] = [];
  /** Lines in the stats file: records of files recorded again since are stale ones. */
  private lines = 0;

  constructor(private readonly root: string) {
    this.file = path.join(root, '.oms', fileName);
  }

  /** Reads the records (once), letting others run between slices of a large file (100,000 records: 16 MB). */
  async load(): Promise<this> {
    const at = statSync(this.file, { bigint: true, throwIfNoEntry: false });
    if (!at) return this;
    const bytes = await readBytesNoFollow(this.file);
    this.readAt = at.mtimeNs;
    const slices = new Slices();
    // Decoded a part of whole lines at a time: 16 MB decoded at once held this thread up 20 ms.
    for (let from = 0; bytes && from < bytes.length;) {
      const partEnd = bytes.lastIndexOf(newline, from + partBytes) + 1;
      const to = partEnd > from ? partEnd : bytes.indexOf(newline, from) + 1 || bytes.length;
      const text = bytes.toString('utf8', from, to);
      for (let start = 0; start < text.length;) {
        const end = text.indexOf('\n', start);
        if (end < 0) break; // a line cut short by a crash
        // `hash size mtime ino path`: the path last, whatever it holds.
        const s1 = text.indexOf(' ', start),
          s2 = text.indexOf(' ', s1 + 1),
          s3 = text.indexOf(' ', s2 + 1),
          s4 = text.indexOf(' ', s3 + 1);
        if (s1 > 0 && s4 > 0 && s4 < end) {
          const stat = { hash: text.slice(start, s1), size: text.slice(s1 + 1, s2), mtime: text.slice(s2 + 1, s3), ino: text.slice(s3 + 1, s4) };
          this.known.set(text.slice(s4 + 1, end), stat);
          this.lines++;
        }
        start = end + 1;
        if (slices.due()) await slices.pause();
      }
      from = to;
    }
    return this;
  }

  /** Whether the file at `rel` still holds the text of `hash`, by its stat alone (false: read it). */
  holds(rel: string, hash: string): boolean {
    const known = this.known.get(rel);
    return !!known && known.hash === hash && stillHolds(this.root, this.readAt, rel, known);
  }

  /**
   * The check of `files` (each a path and the hash its manifest entry names) by their stats alone, for a thread
   * (`statsHold`); undefined when one of them is not known to hold that text (read them).
   */
  checkOf(files: ReadonlyArray<{ path: string; hash: string }>): StatCheck | undefined {
    const out: StatCheck['files'] = [];
    for (const { path: rel, hash } of files) {
      const known = this.known.get(rel);
      if (!known || known.hash !== hash) return undefined;
      out.push([rel, known.size, known.mtime, known.ino]);
    }
    return { root: this.root, readAt: String(this.readAt), files: out };
  }

  /** Records that the file at `rel` holds the text of `hash` (its stat read now, unless given); written by `flush`. */
  record(rel: string, hash: string, stat?: BigIntStats): void {
    if (rel.includes('\n')) return; // not a line of its own: read every time
    const now = stat ?? statSync(path.join(this.root, rel), { bigint: true, throwIfNoEntry: false });
    if (!now) return;
    const before = this.known.get(rel);
    // Known and trusted already; a racily clean one is recorded again, so the stats file's time moves past it.
    if (before && before.hash === hash && same(before, now) && now.mtimeNs < this.readAt) return;
    const known = { hash, size: String(now.size), mtime: String(now.mtimeNs), ino: String(now.ino) };
    this.known.set(rel, known);
    this.pending.push(line(rel, known));
  }

  /** Appends the records made since, in one write (after the files they describe are written). */
  flush(): void {
    if (!this.pending.length) return;
    // Only into a cache folder the pull made (with its .gitignore): never a new folder git would see.
    if (existsSync(path.dirname(this.file))) {
      this.lines += this.pending.length;
      if (this.lines > 2 * this.known.size + 1000) {
        // Renamed over the old one: a crash leaves either whole, and a link there is replaced, not followed.
        writeNoFollow(`${this.file}.new`, [...this.known].map(([rel, known]) => line(rel, known)).join(''));
        renameSync(`${this.file}.new`, this.file);
        this.lines = this.known.size;
      } else {
        appendFileSync(this.file, this.pending.join(''));
      }
    }
    this.pending = [];
  }
}

/**
 * Moves the stats file's modification time past the files it records: the file system stamps both with a
 * coarse clock (a tick of up to 10 ms), so the last files a pull writes share the tick of its last record
 * nineteen times in twenty, and would be read again by the next pull or plan as racily clean. An empty line,
 * read as nothing, is appended until the clock has moved on (within a tick).
 */
export async function stampStats(root: string): Promise<void> {
  const file = path.join(root, '.oms', fileName);
  const recorded = statSync(file, { bigint: true, throwIfNoEntry: false })?.mtimeNs;
  if (recorded === undefined) return;
  for (let tries = 0; tries < 50; tries++) {
    appendFileSync(file, '\n');
    if (statSync(file, { bigint: true }).mtimeNs > recorded) return;
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** Files to check by their stats alone, as a thread can: each with its size, modification time (ns) and inode when recorded. */
export interface StatCheck {
  root: string;
  /** The stats file's modification time when read (ns): a file modified since is not trusted. */
  readAt: string;
  files: Array<[rel: string, size: string, mtime: string, ino: string]>;
}

/** Whether every file of `check` still holds the text it held when recorded, by its stat alone; not when a stat fails (read them). */
export function statsHold(check: StatCheck): boolean {
  try {
    const readAt = BigInt(check.readAt);
    return check.files.every(([rel, size, mtime, ino]) => stillHolds(check.root, readAt, rel, { size, mtime, ino }));
  } catch {
    return false;
  }
}

function stillHolds(root: string, readAt: bigint, rel: string, known: Omit<Known, 'hash'>): boolean {
  const now = statSync(path.join(root, rel), { bigint: true, throwIfNoEntry: false });
  return !!now && now.mtimeNs < readAt && same(known, now);
}

const line = (rel: string, known: Known) => `${known.hash} ${known.size} ${known.mtime} ${known.ino} ${rel}\n`;

function same(known: Omit<Known, 'hash'>, now: BigIntStats): boolean {
  return known.size === String(now.size) && known.mtime === String(now.mtimeNs) && known.ino === String(now.ino);
}
