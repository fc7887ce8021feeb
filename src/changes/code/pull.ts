/**
 * Pull as Files: a folder's objects (and its subfolders', when asked) written
 * one file per object, read a page of 500 at a time. A file is written only
 * when its text changes, so a pull with nothing changed leaves git clean. An
 * edited file is kept unless the user chose to overwrite edits. The manifest
 * moves forward a page at a time: a cancelled pull keeps what it wrote, and
 * the next pull writes only what is still missing. Per object one file is
 * created and nothing read that is not there: the merge bases go to one
 * cache file (bases.ts). This thread only reads the pages: each goes to one
 * of the pull threads as the server's bytes (pullThread.ts), which parses it
 * and writes its files and bases while the next pages are read; its manifest
 * steps are recorded here, in order, once they are written. Each page is asked
 * for with the tag the last pull recorded (pageTags.ts): a page the server
 * answers 304 to, whose objects are as pulled here, costs no more than that.
 */
import * as path from 'node:path';
import type { OmsClient } from '../../api/client';
import { Kind, kind as kindOf, supports } from '../../model/kinds';
import { keySegment } from '../../model/routes';
import { Bases } from './bases';
import { FileStats, stampStats, statsHold } from './fileStats';
import { editedSincePull, readText } from './localFiles';
import type { PageDone } from './pullThread';
import { NotAList, PageWrite, PullWriter } from './pullWriter';
import { folderDirName } from './fileForm';
import { l10n } from '../../l10n';
import {
  checkBinding,
  ConnectionBinding,
  emptyRecord,
  ensureCache,
  journalHolds,
  journalSync,
  JournalStep,
  Manifest,
  ManifestObject,
  PullScope,
  readManifest,
  refusalLines,
  writeManifest,
} from './manifest';
import { entriesHash, PageTag, PageTags } from './pageTags';
import { removeOwnFile } from './ownFiles';
import { inSlicesOf } from './slices';

/**
 * Half the largest page: the threads still write the last page once all are read, and a smaller
 * one ends the pull sooner (10,000 input scanners: 1.28x the listing, 1.40x with pages of 1,000).
 * Small objects go a page of 1,000 from the 1,000th on: there the requests, not the writes, take
 * the time (10,000 people: 1.44x the listing, 2.12x with pages of 500; bench/objectsAsCode.bench.ts).
 */
const pageSize = 500;
const largePageSize = 1000;
/** A first page of 500 under this (4 KB an object as sent: sandbox people 2.7 KB, input scanners 4.5 KB) is one of small objects. */
const smallPageBytes = 2 * 1024 * 1024;
/** Pages at most on their way to the disk (memory stays bounded when the disk is the slower). */
const inFlight = 3;
/**
 * Objects changed from which the manifest is written whole by a pull thread, its lines printed here a slice at a time
 * (`PullWriter.writeManifest`); fewer are patched into its file here. Written here at once, 100,000 held this thread up 0.1-0.9 s.
 */
const manyObjects = 2000;

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
  /**
   * The folder holds another scope's objects, and the user agreed that their unedited files go (`ScopeChange` asks).
   * Edited ones never go: the pull is refused until they are applied or restored.
   */
  replaceScope?: boolean;
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
  /** Entries refused (of the manifest, or objects the server sent that cannot be files here), one line each with the reason. */
  refused: string[];
  cancelled: boolean;
}

/** The connection as a pulled folder records it: label, URL and whether it is production, with the instance read from the service. */
export async function bindingOf(client: OmsClient, label: string, url: string, production = false): Promise<ConnectionBinding> {
  const instance = await client.instance();
  if (!instance.Key) throw new Error(l10n.t('The service did not return its instance key'));
  return { label, url, instanceKey: instance.Key, ...(production ? { production } : {}) };
}

export async function pull(client: OmsClient, root: string, connection: ConnectionBinding, options: PullOptions): Promise<PullReport> {
  const existing = await readManifest(root);
  if (existing) checkBinding(existing, connection);
  const given = options.scope ?? existing?.scope;
  if (!given) throw new Error(l10n.t('Nothing was pulled into this folder yet: choose what to pull'));
  // Chosen objects stay a folder's own: pulled again, just those (and one pulled into a whole scope keeps it whole).
  const chosen = options.only ? !existing || !!existing.scope.chosen || !sameScope(existing.scope, given) : !options.scope && !!existing?.scope.chosen;
  if (chosen && !options.only) options = { ...options, only: new Set(existing!.objects.keys()) };
  const { chosen: _was, ...whole } = given;
  const scope: PullScope = chosen ? { ...whole, chosen } : whole;
  const replacing = existing && !covers(scope, existing.scope);
  if (replacing) checkReplace(root, existing, scope, options);
  const bases = new Bases(root);
  const freshCache = !bases.exists();
  await ensureCache(root);
  // A fresh cache writes every object's base: no page is taken as it was.
  const tags = freshCache ? new PageTags(root) : await new PageTags(root).read();
  /** The manifest file says what this pull starts from: written again only when a step or its head moves it. */
  const sameHead =
    !!existing &&
    sameScope(existing.scope, scope) &&
    !existing.scope.chosen === !scope.chosen &&
    JSON.stringify(existing.connection) === JSON.stringify(connection);
  const manifest = startingManifest(existing, scope, connection, !!replacing);
  const report: PullReport = {
    folders: 0,
    objects: 0,
    written: 0,
    removed: 0,
    bytesWritten: 0,
    keptEdits: [],
    refused: existing ? refusalLines(existing) : [],
    cancelled: false,
  };
  /** Folders whose directory the manifest names but may not be used: not pulled, their objects left as they are. */
  const refusedFolders = new Set((existing?.refused ?? []).flatMap((r) => (r.folderKey === undefined ? [] : [r.folderKey])));
  const writer = new PullWriter({
    root,
    basesFile: bases.file,
    freshCache,
    overwriteEdits: options.overwriteEdits ?? false,
    only: options.only && [...options.only],
  });
  const pulling: Pulling = { client, root, scope, options, manifest, report, tags, bases, writer };
  const recorder = new PageRecorder(pulling);

  try {
    await pullFolders(pulling, recorder, refusedFolders);
    await recorder.recorded;
    recorder.stepped += await removeGone(root, manifest, recorder.seen, options, report);
  } catch (e) {
    if (!options.signal?.aborted) throw e;
    report.cancelled = true;
  } finally {
    await finishPull(pulling, recorder, sameHead);
  }
  return report;
}

/** What a pull works with, once it began. */
interface Pulling {
  client: OmsClient;
  root: string;
  scope: PullScope;
  options: PullOptions;
  manifest: Manifest;
  report: PullReport;
  tags: PageTags;
  bases: Bases;
  writer: PullWriter;
}

/** The manifest this pull moves forward: the folder's own, or a new head (another scope) keeping what it may of it. */
function startingManifest(existing: Manifest | undefined, scope: PullScope, connection: ConnectionBinding, replacing: boolean): Manifest {
  const manifest: Manifest =
    existing && sameScope(existing.scope, scope)
      ? { ...existing, connection, scope }
      : {
          format: 1,
          connection,
          scope,
          folders: replacing ? emptyRecord() : (existing?.folders ?? emptyRecord()),
          objects: existing?.objects ?? new Map<string, ManifestObject>(),
        };
  if (existing?.refused) Object.defineProperty(manifest, 'refused', { value: existing.refused, enumerable: false });
  return manifest;
}

/** Hands the pages read to the pull threads, and records each, in order, once written: its manifest steps, its report, its tag. */
class PageRecorder {
  /** The Keys listed on the server. */
  readonly seen = new Set<string>();
  /** The entries the threads recorded, as they printed them: the manifest's lines are made of these. */
  readonly texts = new Map<ManifestObject, string>();
  /** Objects recorded in the journal by this pull: few, and the manifest is written here; many, on a thread. */
  stepped = 0;
  /** The record of the last page handed: once it settles, every page handed is recorded. */
  recorded: Promise<void> = Promise.resolve();
  /** The pages handed to the thread and not yet recorded; each is recorded, in order, once written. */
  private readonly queued: Array<Promise<void>> = [];
  private stats: Promise<FileStats> | undefined;

  constructor(private readonly pulling: Pulling) {}

  /**
   * Whether the objects of a page the server answered 304 to are as the last pull left them: their manifest entries as
   * it recorded (here: the manifest is read here already, and the threads read none of it when every page is
   * unchanged), their files as pulled by their stats alone (on a thread).
   */
  private async asPulled(tag: PageTag): Promise<boolean> {
    const { root, manifest, writer } = this.pulling;
    const known = await (this.stats ??= new FileStats(root).load());
    const entry = (key: string) => manifest.objects.get(key);
    if (!tag.keys.every(entry) || entriesHash(tag.keys, entry) !== tag.entries) return false;
    const check = known.checkOf(tag.keys.map((key) => entry(key)!));
    // A thread that failed: here, as a pull whose pages are all unchanged needs no thread.
    return !!check && writer.holds(check).catch(() => statsHold(check));
  }

  /**
   * Hands a page to a thread: the server's bytes, or the record of a page it answered 304 to (read whole when
   * its objects are not as pulled here); resolves once no more than `inFlight` pages are on their way, with its count to come.
   */
  async record(page: ListedPage): Promise<{ counted: Promise<number> }> {
    const { client, root, options, manifest, report, tags, bases, writer } = this.pulling;
    const job = { kind: page.kind.id, folderKey: page.folderKey, dir: page.dir };
    let { etag, bytes } = page;
    const whole = (content: Buffer) => {
      bytes = content.byteLength; // before the bytes go to a thread
      return writer.write({ ...job, bytes: content });
    };
    const again = async () => {
      const answer = await client.listBytesIf(page.kind, page.folderKey, page.number, page.size, undefined, options.signal);
      if (answer.unchanged) throw new Error(l10n.t('The server answered 304 to a read that named no tag'));
      etag = answer.etag;
      return whole(answer.bytes).written;
    };
    let handed: PageWrite;
    if (page.content) handed = whole(page.content);
    else {
      const tag = page.tag!;
      const written = this.asPulled(tag).then((same) => (same ? unchangedPage(tag) : again()));
      handed = {
        written,
        counted: written.then(
          (d) => d.listed,
          () => 0,
        ),
      };
    }
    const { counted, written } = handed;
    written.catch(() => undefined); // awaited below, unless a page before it failed
    const previous = this.recorded;
    this.recorded = (async () => {
      await previous;
      let done: PageDone;
      try {
        done = await written;
      } catch (e) {
        // The client's own words for a page that is not a list.
        if (e instanceof NotAList) client.itemsOf(page.kind, page.folderKey, e.text);
        throw e;
      }
      for (const key of done.keys) this.seen.add(key);
      report.keptEdits.push(...done.keptEdits);
      report.refused.push(...done.refused);
      bases.noteWritten(done.bases.records, done.bases.bytes);
      journalSync(root, manifest, done.steps, done.texts);
      done.steps.forEach((step, i) => this.texts.set(step.object, done.texts[i]));
      this.stepped += done.steps.length;
      report.bytesWritten += done.bytes;
      report.written += done.written;
      // Of the chosen objects alone: the scope's others were listed, not pulled.
      report.objects += options.only ? done.keys.filter((k) => options.only!.has(k)).length : done.listed;
      tags.set(
        page.folderKey,
        page.kind.id,
        page.number,
        page.size,
        done.entries && etag ? { etag, listed: done.listed, bytes, keys: done.keys, entries: done.entries } : undefined,
      );
      options.onProgress?.({ folders: report.folders, objects: report.objects, written: report.written });
    })();
    this.recorded.catch(() => undefined); // awaited below or at the end
    this.queued.push(this.recorded);
    if (this.queued.length > inFlight) await this.queued.shift();
    return { counted };
  }
}

/** The scope's folder (and its subfolders, when asked), each with its directory recorded and its objects' pages handed on. */
async function pullFolders(pulling: Pulling, recorder: PageRecorder, refusedFolders: Set<string>): Promise<void> {
  const { client, root, scope, manifest, report } = pulling;
  const rootFolder = await client.folder(scope.folderKey);
  const queue = [{ folderKey: scope.folderKey, dir: manifest.folders[scope.folderKey] ?? folderDirName(rootFolder, scope.folderKey) }];
  while (queue.length) {
    const { folderKey, dir } = queue.shift()!;
    const refused = refusedFolders.has(folderKey);
    if (!refused && manifest.folders[folderKey] !== dir) journalSync(root, manifest, [{ folderKey, dir }]);
    if (scope.recursive) queue.push(...(await subfolders(pulling, folderKey, dir, refused, refusedFolders)));
    if (refused) continue;
    for (const kindId of scope.kinds) {
      const k = kindOf(kindId);
      if (supports(k, 'list')) await pullPages(pulling, recorder, k, folderKey, dir);
    }
    report.folders++;
  }
}

/** A folder's subfolders to pull, with their directories; one whose Key cannot be addressed is refused, saying so. */
async function subfolders(
  { client, options, manifest, report }: Pulling,
  folderKey: string,
  dir: string,
  refused: boolean,
  refusedFolders: Set<string>,
): Promise<Array<{ folderKey: string; dir: string }>> {
  const found: Array<{ folderKey: string; dir: string }> = [];
  for (const child of await client.listAll(kindOf('folder'), folderKey, pageSize, options.signal)) {
    if (!addressable(child.Key)) {
      const name = String(child.CommonName);
      report.refused.push(l10n.t('The subfolder {0} ({1}) was not pulled: its Key cannot be addressed safely', name, JSON.stringify(child.Key)));
    } else {
      // Under a refused folder's directory only when the manifest gives it a place of its own.
      if (refused && !(child.Key in manifest.folders)) refusedFolders.add(child.Key);
      found.push({ folderKey: child.Key, dir: manifest.folders[child.Key] ?? `${dir}/${folderDirName(child, child.Key)}` });
    }
  }
  return found;
}

/** A kind's objects in a folder, a page at a time, each page handed to the recorder as the server answered it. */
async function pullPages({ client, options, tags }: Pulling, recorder: PageRecorder, k: Kind, folderKey: string, dir: string): Promise<void> {
  /** The objects from `asked` on, `size` of them (a page's number is its first object's over its size). */
  let asked = 0;
  const fetchPage = (size: number) => {
    const number = asked / size;
    const tag = tags.get(folderKey, k.id, number, size);
    const answer = client.listBytesIf(k, folderKey, number, size, tag?.etag, options.signal);
    answer.catch(() => undefined); // awaited below; never an unhandled rejection if writing fails first
    asked += size;
    return { answer, size, number, tag };
  };
  // The threads count a page's objects. After the first page is counted (a listing of one page makes one
  // request), the next is read while this one is counted and written; once a page was short, no more are
  // asked for, and those on their way are left unread (a few requests more at most).
  const listing = { ended: false };
  let size = pageSize;
  for (let page = 0, pending: ReturnType<typeof fetchPage> | undefined = fetchPage(size); pending; page++) {
    const answer = await pending.answer;
    options.signal?.throwIfAborted();
    const content = answer.unchanged ? undefined : answer.bytes;
    const tag = content ? undefined : pending.tag;
    if (!content && !tag) throw new Error(l10n.t('The server answered 304 to a read that named no tag'));
    // An empty page ends the listing at once: no more pages are read ahead while a thread counts the one before.
    if (listing.ended || (content ? emptyList(content) : !tag!.listed)) break;
    const bytes = content ? content.byteLength : tag!.bytes;
    const small = bytes < smallPageBytes;
    const { counted } = await recorder.record({
      content,
      tag,
      etag: answer.etag,
      bytes,
      kind: k,
      folderKey,
      dir: `${dir}/${k.collection}`,
      number: pending.number,
      size: pending.size,
    });
    const full = pending.size;
    void counted.then((n) => {
      if (n < full) listing.ended = true;
    });
    if (page === 0) {
      await counted;
      if (small) size = largePageSize;
    }
    pending = listing.ended ? undefined : fetchPage(asked % size === 0 ? size : pageSize);
  }
}

/** What was pulled so far is recorded, cancelled or not: the pages handed to the threads first, then the tags, manifest, stats and bases. */
async function finishPull({ root, manifest, report, tags, bases, writer }: Pulling, recorder: PageRecorder, sameHead: boolean): Promise<void> {
  await recorder.recorded.catch(() => undefined);
  try {
    await tags.write();
  } catch {
    // Only a cache: the next pull reads its pages whole.
  }
  if (sameHead && !journalHolds(root)) {
    // Nothing moved: the manifest file stays as it is, not read again.
  } else if (recorder.stepped < manyObjects || !(await writer.writeManifest(manifest, recorder.texts))) await writeManifest(root, manifest);
  writer.close();
  // The files written now are known by their stats to the next pull or plan (not read again).
  if (report.written) await stampStats(root).catch(() => undefined);
  await bases.compact(manifest.objects.size, async () => {
    const hashes = new Set<string>();
    await inSlicesOf(manifest.objects, (_key, o) => hashes.add(o.hash));
    return hashes;
  });
}

/** An unchanged page as pulled again: its objects listed, nothing written. */
function unchangedPage(tag: PageTag): PageDone {
  const { listed, keys, entries } = tag;
  return { id: -1, listed, keys, entries, steps: [], texts: [], keptEdits: [], refused: [], written: 0, bytes: 0, bases: { records: 0, bytes: 0 } };
}

/** A page as the server answered it: its bytes, or (304) the record of it as last pulled. */
interface ListedPage {
  content?: Buffer;
  tag?: PageTag;
  etag?: string;
  /** Its size as sent. */
  bytes: number;
  kind: Kind;
  folderKey: string;
  dir: string;
  number: number;
  size: number;
}

/** Objects of the manifest no longer on the server: their unedited files go, edited ones stay (the plan names them). */
async function removeGone(root: string, manifest: Manifest, seen: Set<string>, options: PullOptions, report: PullReport): Promise<number> {
  const steps: JournalStep[] = [];
  await inSlicesOf(manifest.objects, (key, entry) => {
    if (seen.has(key) || (options.only && !options.only.has(key))) return;
    const current = readText(path.join(root, entry.path));
    if (current !== undefined && editedSincePull(entry, current) && !options.overwriteEdits) {
      report.keptEdits.push(entry.path);
      return;
    }
    const refused = removeOwnFile(root, key, entry, current);
    if (refused) {
      report.refused.push(refused);
      return;
    }
    steps.push({ key, object: null });
    report.removed++;
  });
  journalSync(root, manifest, steps);
  return steps.length;
}

/** A folder Key the client can send as one path segment (`x/../../y` is not). */
function addressable(key: unknown): key is string {
  try {
    keySegment(key as string);
    return true;
  } catch {
    return false;
  }
}

function emptyList(bytes: Buffer): boolean {
  return bytes.byteLength < 16 && bytes.toString().trim() === '[]';
}

/** A pull of another scope into a folder that holds objects outside it: what it would remove, for the user to agree to. */
export class ScopeChange extends Error {
  constructor(
    readonly files: string[],
    readonly edited: string[],
  ) {
    super(
      edited.length
        ? edited.length === 1
          ? l10n.t('This folder holds the objects of another pull, and {0} was edited since: apply or restore it, or pull into another folder', edited[0])
          : l10n.t(
              'This folder holds the objects of another pull, and {0} of their files were edited since (for example {1}): apply or restore them, or pull into another folder',
              edited.length,
              edited[0],
            )
        : files.length === 1
          ? l10n.t('This folder holds the objects of another pull: pulling here removes {0}. Pull into another folder, or replace it', files[0])
          : l10n.t(
              'This folder holds the objects of another pull: pulling here removes their {0} files (for example {1}). Pull into another folder, or replace them',
              files.length,
              files[0],
            ),
    );
  }
}

/** A pull of `scope` into a folder pulled with another: what it would remove (refused when edited), or undefined when nothing. */
export function scopeChange(root: string, existing: Manifest, scope: PullScope): ScopeChange | undefined {
  if (covers(scope, existing.scope)) return undefined;
  const all = [...existing.objects.values()];
  if (!all.length) return undefined;
  return new ScopeChange(
    all.map((o) => o.path),
    all.filter((o) => editedSincePull(o, readText(path.join(root, o.path)))).map((o) => o.path),
  );
}

function checkReplace(root: string, existing: Manifest, scope: PullScope, options: PullOptions): void {
  const change = scopeChange(root, existing, scope);
  if (change && (change.edited.length || !options.replaceScope)) throw change;
}

/** `a` reaches every object `b` does: the same folder, subfolders when `b` had them, its kinds and more. */
function covers(a: PullScope, b: PullScope): boolean {
  return a.folderKey === b.folderKey && (a.recursive || !b.recursive) && b.kinds.every((k) => a.kinds.includes(k));
}

function sameScope(a: PullScope, b: PullScope): boolean {
  return a.folderKey === b.folderKey && a.recursive === b.recursive && a.kinds.join() === b.kinds.join();
}

/** Paths of files edited or deleted since the last pull (a pull keeps them unless told to overwrite). */
export async function editsSincePull(root: string): Promise<string[]> {
  const manifest = await readManifest(root);
  if (!manifest) return [];
  const stats = await new FileStats(root).load();
  const edited: string[] = [];
  await inSlicesOf(manifest.objects, (key, entry) => {
    // A file whose stat says it holds what was pulled is not read.
    if (!stats.holds(entry.path, entry.hash) && editedSincePull(entry, readText(path.join(root, entry.path)))) edited.push(entry.path);
  });
  return edited;
}
