/**
 * A pull thread (pullWriter.ts starts two; esbuild bundles this module as
 * dist/pullThread.js). Each page of a listing arrives as the server's bytes
 * and leaves as files, merge bases and the manifest steps the pull records
 * once they are on disk. Parsing the page, the files' canonical text and
 * hash, and the writes all happen here: on the extension host's thread they
 * took longer than reading the pages (bench/objectsAsCode.bench.ts), and held
 * up every extension meanwhile.
 */
import { BigIntStats, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { MessagePort, parentPort } from 'node:worker_threads';
import { listItems } from '../../api/listItems';
import { Kind, kind as kindOf, KindId } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import { BaseRecords } from './bases';
import { canonicalText, fileForm, hashOf, objectFileName, TooDeep } from './fileForm';
import { FileStats, StatCheck, statsHold } from './fileStats';
import { editedSincePull, maxDepth, readText } from './localFiles';
import { ManifestHead, ManifestObject, ObjectStep, readManifest, writeManifestLines } from './manifest';
import { printed } from './manifestText';
import { removeOwnFile } from './ownFiles';
import { entriesHash } from './pageTags';
import { makeDirInside, PathRefused, writeNoFollow } from './safePaths';
import { l10n } from '../../l10n';

/** What the thread is told once, before the first page. */
export interface PullStart {
  root: string;
  /** The merge bases' file, appended to. */
  basesFile: string;
  /** This machine has no bases of the folder yet: every object's is written. */
  freshCache: boolean;
  overwriteEdits: boolean;
  /** Only these Keys are written (the rest only listed). */
  only?: string[];
}

export interface PageJob {
  id: number;
  /** The page as the server sent it. */
  bytes: Uint8Array;
  kind: KindId;
  folderKey: string;
  /** The kind's directory, relative to the pulled folder, with `/`. */
  dir: string;
}

export interface PageDone {
  id: number;
  /** Objects on the page. */
  listed: number;
  /** Their Keys. */
  keys: string[];
  /** The manifest's steps for the files written (or unchanged but moved on); recorded by the pull. */
  steps: ObjectStep[];
  /** Each step's entry as JSON (`printed`): the pull's journal and manifest lines are made of these, not printed there again. */
  texts: string[];
  /** Paths of edited (or deleted) files kept as they are. */
  keptEdits: string[];
  /** Objects that could not be files here (or whose old file was left), one line each with the reason. */
  refused: string[];
  written: number;
  bytes: number;
  /** Merge bases appended: records and their bytes. */
  bases: { records: number; bytes: number };
  /**
   * Hash of the Keys' manifest entries as this page left them, when they are all what the server listed (no edit kept,
   * nothing refused, every object pulled): a page tag may then stand for the page (pageTags.ts).
   */
  entries?: string;
}

/**
 * A pull starts (its state), hands a page, has files checked by their stats (a page the server answered 304 to),
 * hands its manifest's object lines a part at a time and then has the manifest written (its head: all but the
 * objects), or ends; several pulls may share the thread.
 */
export type ToThread = { pull: number } & (
  { start: PullStart } | { page: PageJob } | { check: StatCheck; id: number } | { lines: string[] } | { manifest: ManifestHead; id: number } | { end: true }
);

/** Whether the checked files hold what they held when recorded. */
export interface StatsChecked {
  id: number;
  holds: boolean;
}

/** The manifest was written (`error`: it was not). */
export interface ManifestWritten {
  id: number;
  manifest: true;
  error?: string;
}

/** Told as soon as the page is parsed, before its files are written: whether to ask for the next page. */
export interface PageCounted {
  id: number;
  counted: number;
}

/** `notAList`: the page's text (the pull reads it for the client's own error). */
export type PageFailed = { id: number; notAList: string } | { id: number; error: { message: string; code?: string } };

class PageWriter {
  private readonly only?: ReadonlySet<string>;
  /** Per directory, the names in it when first written to (a new file is not read first: no failed read per object). */
  private readonly present = new Map<string, Set<string> | PathRefused>();
  /**
   * The manifest's objects by Key (a Map: a Key such as `constructor` is an entry like any other), read here as
   * the pull starts (not sent by the extension's thread: at 100,000 objects that held it up).
   */
  private objects = new Map<string, ManifestObject>();
  /** Per directory, the Keys held by files no manifest entry names (renamed by hand). */
  private readonly unnamed = new Map<string, Map<string, string>>();
  private readonly stats: FileStats;
  private loaded?: Promise<void>;
  readonly root: string;
  /** The object lines of the pull's manifest, handed a part at a time once its pages are written. */
  readonly manifestLines: string[] = [];

  constructor(private readonly start: PullStart) {
    this.root = start.root;
    this.only = start.only && new Set(start.only);
    this.stats = new FileStats(start.root);
  }

  /** Resolves once the manifest and the files' stats are read, on the first page (a pull whose pages are all unchanged hands none). */
  get ready(): Promise<void> {
    this.loaded ??= Promise.all([readManifest(this.root), this.stats.load()]).then(([m]) => {
      if (m) this.objects = m.objects;
    });
    return this.loaded;
  }

  page(job: PageJob, counted: (listed: number) => void): PageDone | PageFailed {
    const pageText = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength).toString();
    let items: unknown[] | undefined;
    try {
      items = listItems(JSON.parse(pageText));
    } catch {
      items = undefined;
    }
    if (!items) return { id: job.id, notAList: pageText };
    counted(items.length);
    const done: PageDone = {
      id: job.id,
      listed: items.length,
      keys: [],
      steps: [],
      texts: [],
      keptEdits: [],
      refused: [],
      written: 0,
      bytes: 0,
      bases: { records: 0, bytes: 0 },
    };
    // Pretty-printed files run to about twice the page's compact text.
    const bases = new BaseRecords(2 * job.bytes.byteLength);
    const names = items.length ? this.namesIn(job.dir) : new Set<string>();
    for (const obj of items as BaseInfo[]) {
      const key = obj?.Key;
      if (!key) continue;
      if (typeof key !== 'string') {
        done.refused.push(l10n.t('An object of {0} was skipped: its Key is not text', job.dir));
        continue;
      }
      done.keys.push(key);
      if (this.only && !this.only.has(key)) continue;
      if (names instanceof PathRefused) {
        done.refused.push(l10n.t('{0} was not pulled: {1}', key, names.message));
        continue;
      }
      try {
        this.object(job, obj, key, names, bases, done);
      } catch (e) {
        // One odd object never stops a pull: it is named, and the rest goes on.
        done.refused.push(l10n.t('{0} was not pulled: {1}', typeof obj.CommonName === 'string' ? `${obj.CommonName} (${key})` : key, (e as Error).message));
      }
    }
    // Before the steps that name them (the pull records those once this page is done).
    done.bases = { records: bases.count, bytes: bases.appendTo(this.start.basesFile) };
    this.stats.flush(); // after the files it describes
    if (!this.only && !done.refused.length && !done.keptEdits.length && done.keys.length === items.length) done.entries = this.entriesHash(done.keys);
    return done;
  }

  /** Of the Keys' entries as this thread has them. */
  private entriesHash(keys: readonly string[]): string {
    return entriesHash(keys, (key) => this.objects.get(key));
  }

  private object(job: PageJob, obj: BaseInfo, key: string, names: Set<string>, bases: BaseRecords, done: PageDone): void {
    const k = kindOf(job.kind);
    const root = this.start.root;
    const name = objectFileName(obj);
    const rel = `${job.dir}/${name}`;
    let prev = this.objects.get(key);
    // Unchanged on the server and, by its stat, in the file: not read at all (most objects of a pull again).
    if (prev && !this.start.freshCache && samePlace(prev, obj, rel, job.folderKey) && this.stats.holds(prev.path, prev.hash)) return;
    // The manifest's paths were checked as it was read, this directory as it was first used; the file itself is opened without following a link.
    let current = prev || names.has(name) ? readText(path.join(root, prev?.path ?? rel)) : undefined;
    const renamed = prev && current === undefined ? this.renamedFile(job.dir, names, key) : undefined;
    if (prev && renamed) {
      // Renamed here: the object's file is found by its Key, whatever its name (never two files with one Key).
      prev = { ...prev, path: renamed };
      current = readText(path.join(root, renamed));
      step(done, key, prev);
    }
    if (prev && current !== undefined && this.unchanged(prev, obj, rel, job.folderKey, current)) {
      if (this.start.freshCache) bases.add(current, prev.hash);
      this.stats.record(prev.path, prev.hash);
      return;
    }
    const text = textOf(k, obj);
    // Encoded once, as a base record: hashed, written and kept as the base from there. A record
    // not needed as a base (a file moved) is harmless: the same hash twice, or one no entry names.
    const { bytes, hash } = bases.add(text);
    const entry: ManifestObject = { path: rel, kind: k.id, folderKey: job.folderKey, version: obj.ConcurrencyVersion ?? null, hash };
    if (prev && current !== text && editedSincePull(prev, current) && !this.start.overwriteEdits) {
      // Its record is the base when the server still holds what was pulled; else one no entry names.
      done.keptEdits.push(prev.path);
      return;
    }
    // Renamed on the server: the file moves to its new name, written before the old one goes (never neither).
    const moved = prev !== undefined && prev.path !== entry.path;
    let stat: BigIntStats | undefined;
    if (moved || current !== text) {
      stat = writeNoFollow(path.join(root, rel), bytes, rel);
      names.add(name);
      done.written++;
      done.bytes += bytes.length;
    }
    this.stats.record(entry.path, hash, stat);
    const left = moved ? removeOwnFile(root, key, prev!, current) : undefined;
    if (left) done.refused.push(left);
    // The same Key again (the server's order moved between pages) finds what this pull wrote, on this thread.
    this.objects.set(key, entry);
    if (!(prev && sameEntry(prev, entry))) step(done, key, entry);
  }

  /**
   * Neither side moved since the pull: the server's version and the object's place are the pulled
   * ones (the service raises the version with every change), and the file is byte for byte what was
   * pulled. Nothing is written, and the object's text is not built again (most objects of a pull again;
   * so a change of the canonical form in fileForm.ts needs a new manifest format).
   */
  private unchanged(prev: ManifestObject, obj: BaseInfo, rel: string, folderKey: string, current: string): boolean {
    return samePlace(prev, obj, rel, folderKey) && hashOf(current) === prev.hash;
  }

  /** A file of `dir` no manifest entry names that holds `key` (the directory's such files are read once, on the first need). */
  private renamedFile(dir: string, names: Set<string>, key: string): string | undefined {
    let byKey = this.unnamed.get(dir);
    if (!byKey) {
      byKey = new Map();
      const named = new Set([...this.objects.values()].map((o) => o.path));
      for (const name of names) {
        const rel = `${dir}/${name}`;
        if (!name.endsWith('.json') || named.has(rel)) continue;
        try {
          const held = (JSON.parse(readText(path.join(this.start.root, rel)) ?? 'null') as { Key?: unknown } | null)?.Key;
          if (typeof held === 'string' && !byKey.has(held)) byKey.set(held, rel);
        } catch {
          // not an object's file: the plan names it
        }
      }
      this.unnamed.set(dir, byKey);
    }
    const found = byKey.get(key);
    byKey.delete(key);
    return found;
  }

  /** The names in a kind's directory (created, none of it a link), or why it may not be used. */
  private namesIn(rel: string): Set<string> | PathRefused {
    let names = this.present.get(rel);
    if (!names) {
      try {
        names = new Set(readdirSync(makeDirInside(this.start.root, rel)));
      } catch (e) {
        if (!(e instanceof PathRefused)) throw e;
        names = e;
      }
      this.present.set(rel, names);
    }
    return names;
  }
}

/** Its file's text; an object nested more than `maxDepth` levels could not be read back from its file (localFiles.ts). */
function textOf(k: Kind, obj: BaseInfo): string {
  try {
    return canonicalText(k, fileForm(k, obj), maxDepth);
  } catch (e) {
    throw e instanceof TooDeep ? new Error(l10n.t('it nests more than {0} levels deep', maxDepth)) : e;
  }
}

/** The server's version and the object's place are the pulled ones (the service raises the version with every change). */
function samePlace(prev: ManifestObject, obj: BaseInfo, rel: string, folderKey: string): boolean {
  const version = obj.ConcurrencyVersion ?? null;
  return version !== null && version === prev.version && prev.path === rel && prev.folderKey === folderKey;
}

function step(done: PageDone, key: string, object: ManifestObject): void {
  done.steps.push({ key, object });
  done.texts.push(printed(object));
}

function sameEntry(a: ManifestObject, b: ManifestObject): boolean {
  return a.path === b.path && a.kind === b.kind && a.folderKey === b.folderKey && a.version === b.version && a.hash === b.hash;
}

if (parentPort) {
  const port = parentPort;
  const pulls = new Map<number, PageWriter>();
  port.on('message', (m: ToThread) => {
    if ('start' in m) pulls.set(m.pull, new PageWriter(m.start));
    else if ('end' in m) pulls.delete(m.pull);
    else if ('check' in m) port.postMessage({ id: m.id, holds: statsHold(m.check) } satisfies StatsChecked);
    else if ('lines' in m) {
      // Each part sorted as it comes, while the next is made: the sort of them all then merges these runs (100,000 lines sorted at once: 200 ms).
      const lines = pulls.get(m.pull)!.manifestLines;
      for (const line of m.lines.sort()) lines.push(line);
    } else if ('manifest' in m)
      void writeManifestOf(pulls.get(m.pull)!, m.manifest).then((error) => port.postMessage({ id: m.id, manifest: true, error } satisfies ManifestWritten));
    else {
      const writer = pulls.get(m.pull)!;
      // Pages in order, each once the pull's manifest is read (a failed read fails each page).
      void writer.ready
        .then(
          () => pageOf(writer, m.page, port),
          (e: NodeJS.ErrnoException) => failure(m.page, e),
        )
        .then((r) => port.postMessage(r));
    }
  });
}

function pageOf(writer: PageWriter, job: PageJob, port: MessagePort): PageDone | PageFailed {
  try {
    return writer.page(job, (counted) => port.postMessage({ id: job.id, counted } satisfies PageCounted));
  } catch (e) {
    return failure(job, e as NodeJS.ErrnoException);
  }
}

/** The pull's manifest: its head and the object lines handed before it, sorted and written here, off the extension host's thread. */
async function writeManifestOf(writer: PageWriter, head: ManifestHead): Promise<string | undefined> {
  try {
    await writeManifestLines(writer.root, head, writer.manifestLines.splice(0));
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

function failure(job: PageJob, { message, code }: NodeJS.ErrnoException): PageFailed {
  return { id: job.id, error: { message, code } };
}
