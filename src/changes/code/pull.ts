/**
 * Pull as Files: a folder's objects (and its subfolders', when asked) written
 * one file per object, read a page of 1000 at a time. A file is written only
 * when its text changes, so a pull with nothing changed leaves git clean. An
 * edited file is kept unless the user chose to overwrite edits. The manifest
 * moves forward a page at a time: a cancelled pull keeps what it wrote, and
 * the next pull writes only what is still missing. Per object one file is
 * created and nothing read that is not there: the merge bases go to one
 * cache file (bases.ts). Files and bases are written on the writer's thread
 * (fileWriter.ts), 250 objects at a time, while the rest is read and
 * serialised; their manifest steps are recorded once they are written.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import type { OmsClient, Page } from '../../api/client';
import { Kind, kind as kindOf, supports } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import { Bases } from './bases';
import { FileWriter, WriteBatch } from './fileWriter';
import { canonicalText, fileForm, hashOf, objectFileName, slug } from './fileForm';
import { l10n } from '../../l10n';
import {
  checkBinding, ConnectionBinding, ensureCache, journalSync, JournalStep, Manifest, ManifestObject, PullScope, readManifest, writeManifest,
} from './manifest';

const pageSize = 1000;
/** Objects handed to the writer at a time: it starts on a page before the page is all serialised, and the last wait is short. */
const chunkSize = 250;
/** Chunks at most on their way to the disk (memory stays bounded when the disk is the slower). */
const inFlight = 4;

export interface PullProgress {
  folders: number;
  objects: number;
  written: number;
}

export interface PullOptions {
  /** What to pull; a pulled folder's own scope when absent. */
  scope?: PullScope;
  /** Overwrite files edited since the last pull (else they are kept and listed). */
  overwriteEdits?: boolean;
  /** Pull only these objects (Keys); the rest of the manifest stays as it is. */
  only?: ReadonlySet<string>;
  signal?: AbortSignal;
  onProgress?(p: PullProgress): void;
}

export interface PullReport extends PullProgress {
  /** Files removed because their object is gone from the server. */
  removed: number;
  bytesWritten: number;
  /** Paths of edited (or deleted) files kept as they are. */
  keptEdits: string[];
  cancelled: boolean;
}

/** The connection as a pulled folder records it: label and URL, with the instance read from the service. */
export async function bindingOf(client: OmsClient, label: string, url: string): Promise<ConnectionBinding> {
  const instance = await client.instance();
  if (!instance.Key) throw new Error(l10n.t('The service did not return its instance key'));
  return { label, url, instanceKey: instance.Key };
}

export async function pull(client: OmsClient, root: string, connection: ConnectionBinding, options: PullOptions): Promise<PullReport> {
  const existing = await readManifest(root);
  if (existing) checkBinding(existing, connection);
  const scope = options.scope ?? existing?.scope;
  if (!scope) throw new Error(l10n.t('Nothing was pulled into this folder yet: choose what to pull'));
  const bases = new Bases(root);
  const freshCache = !bases.exists();
  await ensureCache(root);
  const manifest: Manifest = existing && sameScope(existing.scope, scope)
    ? { ...existing, connection }
    : { format: 1, connection, scope, folders: existing?.folders ?? {}, objects: existing?.objects ?? {} };
  const report: PullReport = { folders: 0, objects: 0, written: 0, removed: 0, bytesWritten: 0, keptEdits: [], cancelled: false };
  const seen = new Set<string>();

  /** Per directory, the names in it when first written to (a new file is not read first: no failed read per object). */
  const present = new Map<string, Set<string>>();
  const namesIn = (dir: string) => {
    let names = present.get(dir);
    if (!names) {
      names = new Set(existsSync(dir) ? readdirSync(dir) : []);
      if (!names.size) mkdirSync(dir, { recursive: true });
      present.set(dir, names);
    }
    return names;
  };
  // Synchronous reads (an object pulled before): several times faster than the thread pool's for many small files.
  let batch: WriteBatch = { files: [], appends: [] };
  /** One object of a page listed into `dir` (relative, with `/`; `absDir` the same, absolute), whose names are `names`. */
  const writeObject = (obj: BaseInfo, folderKey: string, k: Kind, dir: string, absDir: string, names: Set<string>): JournalStep | undefined => {
    const key = obj.Key;
    if (!key) return undefined;
    seen.add(key);
    if (options.only && !options.only.has(key)) return undefined;
    const text = canonicalText(k, fileForm(k, obj));
    const hash = hashOf(text);
    const name = objectFileName(obj);
    const entry: ManifestObject = { path: `${dir}/${name}`, kind: k.id, folderKey, version: obj.ConcurrencyVersion ?? null, hash };
    const prev = manifest.objects[key];
    const file = absDir + path.sep + name;
    const known = prev || names.has(name);
    let current = known ? readText(path.join(root, prev?.path ?? entry.path)) : undefined;
    if (prev && current !== text) {
      const edited = current === undefined || (hashOf(current) !== prev.hash && localHash(prev, current) !== prev.hash);
      if (edited && !options.overwriteEdits) {
        if (freshCache && hash === prev.hash) bases.add(hash, text); // the server still holds what was pulled: that is the base
        report.keptEdits.push(prev.path);
        return undefined;
      }
    }
    if (prev && prev.path !== entry.path) {
      rmSync(path.join(root, prev.path), { force: true });
      current = undefined;
    }
    if (current !== text) {
      names.add(name);
      batch.files.push([file, text]);
    }
    if (freshCache || prev?.hash !== hash) bases.add(hash, text);
    return prev && sameEntry(prev, entry) ? undefined : { key, object: entry };
  };

  const writer = new FileWriter();
  /** The chunks handed to the writer and not yet recorded; each is recorded, in order, once written. */
  const queued: Array<Promise<void>> = [];
  let recorded: Promise<void> = Promise.resolve();
  /** Hands a chunk's files and bases to the writer; resolves once no more than `inFlight` chunks are on their way. */
  const record = async (steps: JournalStep[], listed: number): Promise<void> => {
    const records = bases.take(); // before the steps that name them
    if (records) batch.appends.push([bases.file, records]);
    const files = batch.files.length;
    const written = writer.write(batch);
    written.catch(() => undefined); // awaited below, unless a chunk before it failed
    batch = { files: [], appends: [] };
    const previous = recorded;
    recorded = (async () => {
      await previous;
      report.bytesWritten += await written;
      report.written += files;
      journalSync(root, manifest, steps);
      report.objects += listed;
      options.onProgress?.({ folders: report.folders, objects: report.objects, written: report.written });
    })();
    recorded.catch(() => undefined); // awaited below or at the end
    queued.push(recorded);
    if (queued.length > inFlight) await queued.shift();
  };

  try {
    const rootFolder = await client.folder(scope.folderKey);
    const queue = [{ folderKey: scope.folderKey, dir: manifest.folders[scope.folderKey] ?? `${slug(rootFolder.CommonName)}.${scope.folderKey}` }];
    while (queue.length) {
      const { folderKey, dir } = queue.shift()!;
      if (manifest.folders[folderKey] !== dir) journalSync(root, manifest, [{ folderKey, dir }]);
      if (scope.recursive) {
        for (const child of await client.listAll(kindOf('folder'), folderKey, pageSize, options.signal)) {
          if (child.Key) queue.push({ folderKey: child.Key, dir: manifest.folders[child.Key] ?? `${dir}/${slug(child.CommonName)}.${child.Key}` });
        }
      }
      for (const kindId of scope.kinds) {
        const k = kindOf(kindId);
        if (!supports(k, 'list')) continue;
        // The next page is on its way while this one is written.
        const fetchPage = (page: number) => {
          const p = client.list(k, folderKey, page, pageSize, options.signal);
          p.catch(() => undefined); // awaited below; never an unhandled rejection if writing fails first
          return p;
        };
        for (let pending: Promise<Page<BaseInfo>> | undefined = fetchPage(0); pending;) {
          const result: Page<BaseInfo> = await pending;
          options.signal?.throwIfAborted();
          pending = result.next === undefined ? undefined : fetchPage(result.next);
          const kindDir = `${dir}/${k.collection}`, absDir = path.join(root, kindDir);
          const names = result.items.length ? namesIn(absDir) : new Set<string>();
          for (let i = 0; i < result.items.length; i += chunkSize) {
            const chunk = result.items.slice(i, i + chunkSize);
            const steps = chunk.map((obj) => writeObject(obj, folderKey, k, kindDir, absDir, names));
            await record(steps.filter((s): s is JournalStep => s !== undefined), chunk.length);
          }
        }
      }
      report.folders++;
    }
    await recorded;
    removeGone(root, manifest, seen, options, report);
  } catch (e) {
    if (!options.signal?.aborted) throw e;
    report.cancelled = true;
  } finally {
    // What was pulled so far is recorded, cancelled or not: the chunks handed to the writer first.
    await recorded.catch(() => undefined);
    await writer.close();
    await writeManifest(root, manifest);
    bases.compact(new Set(Object.values(manifest.objects).map((o) => o.hash)));
  }
  return report;
}

/** Objects of the manifest no longer on the server: their unedited files go, edited ones stay (the plan names them). */
function removeGone(root: string, manifest: Manifest, seen: Set<string>, options: PullOptions, report: PullReport): void {
  const steps: JournalStep[] = [];
  for (const [key, entry] of Object.entries(manifest.objects)) {
    if (seen.has(key) || (options.only && !options.only.has(key))) continue;
    const current = readText(path.join(root, entry.path));
    const edited = current !== undefined && hashOf(current) !== entry.hash && localHash(entry, current) !== entry.hash;
    if (edited && !options.overwriteEdits) {
      report.keptEdits.push(entry.path);
      continue;
    }
    rmSync(path.join(root, entry.path), { force: true });
    steps.push({ key, object: null });
    report.removed++;
  }
  journalSync(root, manifest, steps);
}

/** The hash of a file's text as the plan sees it (canonical), so a reformatted file is not an edit. */
function localHash(entry: ManifestObject, text: string): string | undefined {
  const parsed = parseLoose(text);
  return parsed && hashOf(canonicalText(kindOf(entry.kind), parsed));
}

function parseLoose(text: string): BaseInfo | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as BaseInfo) : undefined;
  } catch {
    return undefined;
  }
}

function sameScope(a: PullScope, b: PullScope): boolean {
  return a.folderKey === b.folderKey && a.recursive === b.recursive && a.kinds.join() === b.kinds.join();
}

function sameEntry(a: ManifestObject, b: ManifestObject): boolean {
  return a.path === b.path && a.kind === b.kind && a.folderKey === b.folderKey && a.version === b.version && a.hash === b.hash;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** Paths of files edited or deleted since the last pull (a pull keeps them unless told to overwrite). */
export async function editsSincePull(root: string): Promise<string[]> {
  const manifest = await readManifest(root);
  if (!manifest) return [];
  const entries = Object.values(manifest.objects);
  const edited = entries.map((entry) => {
    const text = readText(path.join(root, entry.path));
    return text === undefined || (hashOf(text) !== entry.hash && localHash(entry, text) !== entry.hash) ? entry.path : undefined;
  });
  return edited.filter((p): p is string => p !== undefined);
}
