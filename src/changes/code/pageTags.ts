/**
 * The tags (ETags) of a pulled folder's list pages as the last pull read them,
 * in the local cache (`.oms/pages`, out of git), a line per page: with each,
 * the Keys it listed and a hash of their manifest entries once the pull had
 * written them. A pull asks for each page with its tag: the server's 304 says
 * the page is what it was, and when the manifest still holds those entries and
 * every file, by its stat, still what was pulled (pullThread.ts), nothing of
 * the page is parsed, read or written; a plan takes its objects to be at their
 * pulled versions (plan.ts). The file is untrusted input: a line of
 * any other shape is ignored, and a tag is only ever sent back to the server
 * in If-None-Match (printable ASCII, quoted, bounded).
 */
import { createHash } from 'node:crypto';
import { renameSync } from 'node:fs';
import type { KindId } from '../../model/kinds';
import { cachePath, ManifestObject } from './manifest';
import { readBytesNoFollow, writeNoFollow } from './safePaths';
import { inSlices } from './slices';

const fileName = 'pages';

export interface PageTag {
  etag: string;
  /** Objects on the page. */
  listed: number;
  /** Its size as sent: a first page tells whether the objects are small (pull.ts). */
  bytes: number;
  keys: string[];
  /** Hash of the Keys' manifest entries once the page was pulled (`entriesHash`). */
  entries: string;
}

interface Line extends PageTag {
  folderKey: string;
  kind: KindId;
  page: number;
  size: number;
}

const etagShape = /^(W\/)?"[\x21\x23-\x7e]{0,200}"$/;

export class PageTags {
  private readonly tags = new Map<string, Line>();
  private changed = false;

  constructor(private readonly root: string) {}

  /** The records of the last pull (none when it was cancelled before writing them, or the file is not there). */
  async read(): Promise<this> {
    let text: string | undefined;
    try {
      text = (await readBytesNoFollow(cachePath(this.root, fileName), `.oms/${fileName}`))?.toString();
    } catch {
      text = undefined; // a link or unreadable: every page is read whole
    }
    // A line per page of 500 or 1,000 Keys: 200 lines, 2.7 MB for 100,000 objects.
    await inSlices(text?.split('\n') ?? [], (line) => {
      let value: unknown;
      try {
        value = line ? JSON.parse(line) : undefined;
      } catch {
        return;
      }
      if (isLine(value)) this.tags.set(idOf(value.folderKey, value.kind, value.page, value.size), value);
    });
    return this;
  }

  get(folderKey: string, kind: KindId, page: number, size: number): PageTag | undefined {
    return this.tags.get(idOf(folderKey, kind, page, size));
  }

  /** The page that starts at the `from`th object of a list, with its number and size, when a pull recorded one. */
  at(folderKey: string, kind: KindId, from: number): { tag: PageTag; number: number; size: number } | undefined {
    if (!this.starts) {
      this.starts = new Map();
      for (const t of this.tags.values()) this.starts.set(JSON.stringify([t.folderKey, t.kind, t.page * t.size]), t);
    }
    const line = this.starts.get(JSON.stringify([folderKey, kind, from]));
    return line && { tag: line, number: line.page, size: line.size };
  }
  private starts?: Map<string, Line>;

  set(folderKey: string, kind: KindId, page: number, size: number, tag: PageTag | undefined): void {
    const id = idOf(folderKey, kind, page, size);
    const was = this.tags.get(id);
    // A page answered 304 and recorded as it was: the file is not written again for it.
    if (tag && was && was.etag === tag.etag && was.entries === tag.entries && was.listed === tag.listed && was.bytes === tag.bytes) return;
    if (tag) this.tags.set(id, { folderKey, kind, page, size, ...tag });
    else if (!this.tags.delete(id)) return;
    this.changed = true;
  }

  /**
   * Writes the records, when any changed (a temporary file renamed over the old: a reader never sees half of it),
   * printed a slice at a time: 100,000 objects' Keys printed at once held the extension host up 30 ms.
   */
  async write(): Promise<void> {
    if (!this.changed) return;
    const lines: string[] = [];
    await inSlices([...this.tags.values()], (t) => lines.push(JSON.stringify(t) + '\n'));
    const file = cachePath(this.root, fileName);
    const temp = `${file}.${process.pid}.tmp`;
    writeNoFollow(temp, lines.join(''), `.oms/${fileName}`);
    renameSync(temp, file);
    this.changed = false;
  }
}

/** The hash a page's record holds: of its Keys' manifest entries (a missing one counts too). */
export function entriesHash(keys: readonly string[], entryOf: (key: string) => ManifestObject | undefined): string {
  const h = createHash('sha256');
  for (const key of keys) {
    const e = entryOf(key);
    h.update(`${key}\0${e ? `${e.path}\0${e.kind}\0${e.folderKey}\0${e.version}\0${e.hash}` : '-'}\n`);
  }
  return h.digest('hex').slice(0, 32);
}

function idOf(folderKey: string, kind: string, page: number, size: number): string {
  return JSON.stringify([folderKey, kind, page, size]);
}

function isLine(v: unknown): v is Line {
  const l = v as Line | null;
  const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  return (
    !!l &&
    typeof l === 'object' &&
    typeof l.folderKey === 'string' &&
    typeof l.kind === 'string' &&
    count(l.page) &&
    count(l.size) &&
    typeof l.etag === 'string' &&
    etagShape.test(l.etag) &&
    count(l.listed) &&
    count(l.bytes) &&
    typeof l.entries === 'string' &&
    Array.isArray(l.keys) &&
    l.keys.length === l.listed &&
    l.keys.every((k) => typeof k === 'string')
  );
}
