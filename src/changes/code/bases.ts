/**
 * The merge bases of a pulled folder: each object's file text as last pulled,
 * applied or merged, found by the hash the manifest records for the object.
 * One append-only file in the local cache (`.oms/bases`, out of git) rather
 * than a file per object: a pull of 10,000 objects creates 10,000 files, not
 * 20,000. A record is a record separator (U+001E, which canonical JSON text
 * never holds raw: JSON escapes control characters), the hash, a space and
 * the text as it is, so nothing is escaped on write or parsed on read. A
 * record is appended before the manifest step naming its hash, so every hash
 * the manifest names has its record; one cut short by a crash is a record no
 * manifest names (a hash is checked when read), and the next append starts a
 * record of its own. Records no object names any more are dropped once they
 * outnumber the rest (`compact`).
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { hashOf } from './fileForm';
import { writeNoFollow } from './safePaths';
import { tempPathFor } from '../../util/privateFile';
import { l10n } from '../../l10n';

const fileName = 'bases';
const separator = '\u001e';
const hashLength = 32;

/** What a record starts with: separator, hash and space (all ASCII: as many bytes as characters). */
function header(hash: string): string {
  return `${separator}${hash} `;
}
const headerBytes = 1 + hashLength + 1;

/** A record's text holds no separator of its own (canonical JSON never does: JSON escapes control characters). */
function checkText(text: string): string {
  if (text.includes(separator)) throw new Error(l10n.t('A merge base must be canonical JSON text'));
  return text;
}

/**
 * Records for `file`, encoded into one buffer and appended in one write (a pull's page: pullThread.ts).
 * Each text is encoded to UTF-8 once, there: its hash is taken of those bytes, and the object's file is
 * written from them.
 */
export class BaseRecords {
  private buffer = Buffer.alloc(0);
  private used = 0;
  count = 0;

  /** `expectedBytes`: what the buffer starts with, once a record is added. */
  constructor(private readonly expectedBytes: number) {}

  /** Adds `text` (canonical) as a record; its bytes stay valid until the next `add`, when the buffer may grow. */
  add(text: string, hash?: string): { bytes: Buffer; hash: string } {
    checkText(text);
    const most = headerBytes + 3 * text.length; // UTF-8: at most 3 bytes per UTF-16 unit
    if (this.used + most > this.buffer.length) {
      const larger = Buffer.allocUnsafe(Math.max(2 * this.buffer.length, this.used + most, this.expectedBytes));
      this.buffer.copy(larger, 0, 0, this.used);
      this.buffer = larger;
    }
    const start = this.used + headerBytes;
    const end = start + this.buffer.write(text, start, 'utf8');
    const bytes = this.buffer.subarray(start, end);
    hash ??= hashOf(bytes);
    this.buffer.write(header(hash), this.used, 'latin1');
    this.used = end;
    this.count++;
    return { bytes, hash };
  }

  /** Appends the records to `file`; their size in bytes. */
  appendTo(file: string): number {
    if (this.used) appendFileSync(file, this.buffer.subarray(0, this.used));
    return this.used;
  }
}

export class Bases {
  /** Hash → its text (read on first use: most plans need no base); '' for one written since, read again when asked for. */
  private texts?: Map<string, string>;
  /** Records not written yet, each as two pieces (separator, hash and space; the text): the text is not copied into a new string. */
  private pending: string[] = [];
  /** Records and characters written by this instance: what `compact` estimates a record's size from. */
  private written = { records: 0, chars: 0 };
  readonly file: string;

  constructor(root: string) {
    this.file = path.join(root, '.oms', fileName);
  }

  /** False when this machine has no bases of this folder (a fresh clone, or `.oms/` removed): the pull writes them all. */
  exists(): boolean {
    return existsSync(this.file);
  }

  /** The base text with this hash, if this machine has it. */
  get(hash: string): string | undefined {
    this.flush();
    let text = this.all().get(hash);
    if (text === '') {
      this.texts = undefined; // written since the file was read
      text = this.all().get(hash);
    }
    return text && hashOf(text) === hash ? text : undefined;
  }

  /** Keeps `text` (canonical, whose hash is `hash`) as a base; written by `flush`. Kept twice is harmless: the file is not read to check. */
  add(hash: string, text: string): void {
    this.texts?.set(hash, text);
    this.pending.push(header(hash), checkText(text)); // two pieces: the text is not copied into a new string
  }

  /** Records appended to `file` by another writer (a pull's thread): what `compact` estimates from. */
  noteWritten(records: number, size: number): void {
    this.written.records += records;
    this.written.chars += size; // bytes: as many as characters in JSON text, unless names are not ASCII
    if (records) this.texts = undefined; // read again when asked for
  }

  /** Appends what was added, in one write: before the manifest step that names it. */
  flush(): void {
    const pieces = this.pending;
    if (!pieces.length) return;
    if (!this.written.records) mkdirSync(path.dirname(this.file), { recursive: true });
    appendFileSync(this.file, pieces.join(''));
    for (let i = 0; i < pieces.length; i += 2) {
      this.written.records++;
      this.written.chars += pieces[i].length + pieces[i + 1].length;
      // Not kept in memory: a pull's 10,000 texts would stay there until it ends.
      this.texts?.set(pieces[i].slice(1, 1 + hashLength), '');
    }
    this.pending = [];
  }

  /**
   * Rewrites the file with only the bases of `wanted` hashes once it is about twice their size
   * (estimated from the records written here: without new records there is no new garbage, and the file is not read).
   * `count`: how many hashes are wanted, as known without gathering them (one per object of the manifest: each file's
   * text holds its Key). A hand-edited manifest naming one text twice may leave the file larger until a later pull.
   */
  async compact(count: number, wantedHashes: () => Promise<ReadonlySet<string>>): Promise<void> {
    this.flush();
    if (!this.written.records) return;
    const size = statSync(this.file, { throwIfNoEntry: false })?.size ?? 0; // none when a pull's first write failed
    const due = (wanted: number) => size >= 2 * wanted * (this.written.chars / this.written.records) + 100_000;
    if (!due(count)) return; // a first pull's 100,000 hashes are not gathered (100 ms) to find the file holds one base each
    const wanted = await wantedHashes(); // only now: a pull that wrote nothing does not gather 100,000 hashes
    if (!due(wanted.size)) return;
    this.texts = undefined;
    const kept = [...this.all()].filter(([hash]) => wanted.has(hash));
    const temp = tempPathFor(this.file); // a name no one could leave a link at
    writeNoFollow(temp, kept.map(([hash, text]) => header(hash) + text).join(''));
    renameSync(temp, this.file);
    this.texts = new Map(kept);
  }

  private all(): Map<string, string> {
    if (this.texts) return this.texts;
    this.texts = new Map();
    let content = '';
    try {
      content = readFileSync(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    for (const record of content.split(separator)) {
      if (record.charAt(hashLength) !== ' ') continue;
      const hash = record.slice(0, hashLength);
      const before = this.texts.get(hash);
      // The same base twice (a pull resumed after a crash): the whole one, not one cut short.
      if (before === undefined || hashOf(before) !== hash) this.texts.set(hash, record.slice(hashLength + 1));
    }
    return this.texts;
  }
}
