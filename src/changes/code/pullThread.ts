/**
 * A pull thread (pullWriter.ts starts two; esbuild bundles this module as
 * dist/pullThread.js). Each page of a listing arrives as the server's bytes
 * and leaves as files, merge bases and the manifest steps the pull records
 * once they are on disk. Parsing the page, the files' canonical text and
 * hash, and the writes all happen here: on the extension host's thread they
 * took longer than reading the pages (bench/objectsAsCode.bench.ts), and held
 * up every extension meanwhile.
 */
import { BigIntStats, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { MessagePort, parentPort } from 'node:worker_threads';
import { listItems } from '../../api/listItems';
import { kind as kindOf, KindId } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import { BaseRecords } from './bases';
import { canonicalText, fileForm, hashOf, objectFileName } from './fileForm';
import { FileStats, writeFileStat } from './fileStats';
import { editedSincePull, readText } from './localFiles';
import { JournalStep, Manifest, ManifestObject, readManifest, replayJournal, writeManifest } from './manifest';

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
  steps: JournalStep[];
  /** Paths of edited (or deleted) files kept as they are. */
  keptEdits: string[];
  written: number;
  bytes: number;
  /** Merge bases appended: records and their bytes. */
  bases: { records: number; bytes: number };
}

/** A pull starts (its state), hands a page, has its manifest written (its head: all but the objects), or ends; several pulls may share the thread. */
export type ToThread = { pull: number } & ({ start: PullStart } | { page: PageJob } | { manifest: ManifestHead; id: number } | { end: true });

export type ManifestHead = Omit<Manifest, 'objects'>;

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
  private readonly present = new Map<string, Set<string>>();
  /** The manifest's objects as the pull starts, read here (not sent by the extension's thread: at 100,000 objects that held it up). */
  private objects: Record<string, ManifestObject> = {};
  private readonly stats: FileStats;
  /** Resolves once the manifest and the files' stats are read; pages wait for it. */
  readonly ready: Promise<void>;

  readonly root: string;

  constructor(private readonly start: PullStart) {
    this.root = start.root;
    this.only = start.only && new Set(start.only);
    this.stats = new FileStats(start.root);
    this.ready = Promise.all([readManifest(start.root), this.stats.load()]).then(([m]) => { this.objects = m?.objects ?? {}; });
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
    const k = kindOf(job.kind);
    const done: PageDone = { id: job.id, listed: items.length, keys: [], steps: [], keptEdits: [], written: 0, bytes: 0, bases: { records: 0, bytes: 0 } };
    // Pretty-printed files run to about twice the page's compact text.
    const bases = new BaseRecords(2 * job.bytes.byteLength);
    const absDir = path.join(this.start.root, job.dir);
    const names = items.length ? this.namesIn(absDir) : new Set<string>();
    for (const obj of items as BaseInfo[]) {
      const key = obj.Key;
      if (!key) continue;
      done.keys.push(key);
      if (this.only && !this.only.has(key)) continue;
      const name = objectFileName(obj);
      const prev = this.objects[key];
      // Unchanged on the server and, by its stat, in the file: not read at all (most objects of a pull again).
      if (prev && !this.start.freshCache && samePlace(prev, obj, `${job.dir}/${name}`, job.folderKey) && this.stats.holds(prev.path, prev.hash)) continue;
      const current = prev || names.has(name) ? readText(path.join(this.start.root, prev?.path ?? `${job.dir}/${name}`)) : undefined;
      if (prev && current !== undefined && this.unchanged(prev, obj, `${job.dir}/${name}`, job.folderKey, current)) {
        if (this.start.freshCache) bases.add(current, prev.hash);
        this.stats.record(prev.path, prev.hash);
        continue;
      }
      const text = canonicalText(k, fileForm(k, obj));
      // Encoded once, as a base record: hashed, written and kept as the base from there. A record
      // not needed as a base (a file moved) is harmless: the same hash twice, or one no entry names.
      const { bytes, hash } = bases.add(text);
      const entry: ManifestObject = { path: `${job.dir}/${name}`, kind: k.id, folderKey: job.folderKey, version: obj.ConcurrencyVersion ?? null, hash };
      if (prev && current !== text && editedSincePull(prev, current) && !this.start.overwriteEdits) {
        // Its record is the base when the server still holds what was pulled; else one no entry names.
        done.keptEdits.push(prev.path);
        continue;
      }
      // Renamed on the server: the file moves to its new name, written before the old one goes (never neither).
      const moved = prev !== undefined && prev.path !== entry.path;
      let stat: BigIntStats | undefined;
      if (moved || current !== text) {
        names.add(name);
        stat = writeFileStat(absDir + path.sep + name, bytes);
        done.written++;
        done.bytes += bytes.length;
      }
      this.stats.record(entry.path, hash, stat);
      if (moved) rmSync(path.join(this.start.root, prev.path), { force: true });
      // The same Key again (the server's order moved between pages) finds what this pull wrote, on this thread.
      this.objects[key] = entry;
      if (!(prev && sameEntry(prev, entry))) done.steps.push({ key, object: entry });
    }
    // Before the steps that name them (the pull records those once this page is done).
    done.bases = { records: bases.count, bytes: bases.appendTo(this.start.basesFile) };
    this.stats.flush(); // after the files it describes
    return done;
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

  private namesIn(dir: string): Set<string> {
    let names = this.present.get(dir);
    if (!names) {
      names = new Set(existsSync(dir) ? readdirSync(dir) : []);
      if (!names.size) mkdirSync(dir, { recursive: true });
      this.present.set(dir, names);
    }
    return names;
  }
}

/** The server's version and the object's place are the pulled ones (the service raises the version with every change). */
function samePlace(prev: ManifestObject, obj: BaseInfo, rel: string, folderKey: string): boolean {
  const version = obj.ConcurrencyVersion ?? null;
  return version !== null && version === prev.version && prev.path === rel && prev.folderKey === folderKey;
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
    else if ('manifest' in m) void writeWhole(pulls.get(m.pull)!.root, m.manifest).then((error) => port.postMessage({ id: m.id, manifest: true, error } satisfies ManifestWritten));
    else {
      const writer = pulls.get(m.pull)!;
      // Pages in order, each once the pull's manifest is read (a failed read fails each page).
      void writer.ready.then(() => pageOf(writer, m.page, port), (e: NodeJS.ErrnoException) => failure(m.page, e)).then((r) => port.postMessage(r));
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

/** The manifest as the journal moved it, with the pull's head: read and printed here, off the extension host's thread. */
async function writeWhole(root: string, head: ManifestHead): Promise<string | undefined> {
  try {
    const recorded = await readManifest(root) ?? await replayJournal(root, { ...head, objects: {} }); // a first pull: the journal alone
    await writeManifest(root, { ...head, objects: recorded.objects });
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

function failure(job: PageJob, { message, code }: NodeJS.ErrnoException): PageFailed {
  return { id: job.id, error: { message, code } };
}
