/**
 * The manifest of a pulled folder (`oms.manifest.json`, meant for git): the
 * connection it belongs to, what was pulled, and per object its Key, kind,
 * folder, version and the hash of its pulled file. Beside it, its journal
 * (`oms.journal.jsonl`) moves it forward one object at a time, so an interrupted
 * pull or apply continues where it stopped: a file of the folder, not of the
 * cache, as a killed apply's files already hold the Keys it created, and a
 * pipeline commits the folder it leaves (a fresh clone then knows them). The
 * local cache (`.oms/`, kept out of git by the `.gitignore` the pull writes)
 * holds what this machine can do without: merge bases (bases.ts), stats, page tags.
 */
import { BigIntStats, closeSync, constants, fsyncSync, lstatSync, openSync, promises as fs, writeSync } from 'node:fs';
import * as path from 'node:path';
import { kind as kindOf, kinds, KindId } from '../../model/kinds';
import { l10n } from '../../l10n';
import { linesText, manifestText, objectLines, parseManifestText, patchManifestText, pickObjects, Piece } from './manifestText';
import { isPlainRelative, pathProblem, readBytesNoFollow, readNoFollow, writeNoFollow } from './safePaths';
import { inSlices, inSlicesOf } from './slices';
import { createTemp } from '../../util/privateFile';

export const manifestName = 'oms.manifest.json';
const cacheDir = '.oms';
const journalName = 'oms.journal.jsonl';
/** Where an earlier version kept the journal: still replayed (then emptied with the other). */
const cachedJournal = `${cacheDir}/journal.jsonl`;

export interface ConnectionBinding {
  label: string;
  /** The connection's base URL (origin plus optional path prefix). */
  url: string;
  /** The instance (`GET /api` Key) the objects live in. */
  instanceKey: string;
  /** Pulled from a production connection: the command line applies only with --yes-production. */
  production?: boolean;
}

export interface PullScope {
  folderKey: string;
  recursive: boolean;
  kinds: KindId[];
  /**
   * Pulled with `only` (a query's results): the folder holds the objects its manifest lists, not the whole scope. Its plan
   * does not list the scope's others as new on the server, and pulling it again refreshes just its own.
   */
  chosen?: true;
}

export interface ManifestObject {
  /** File path relative to the pulled folder, with `/`. */
  path: string;
  kind: KindId;
  folderKey: string;
  version: number | null;
  /** Hash of the canonical text as pulled (or as applied). */
  hash: string;
}

export interface Manifest {
  format: 1;
  connection: ConnectionBinding;
  scope: PullScope;
  /** Folder key → its directory, relative to the pulled folder. */
  folders: Record<string, string>;
  /**
   * By Key. A Map: any Key (`__proto__`, `constructor`) is an entry like any other, and 100,000 of them are added
   * and listed without the pauses of a record's (growing one held up a pull's thread 16-30 ms, listing its Keys 20).
   */
  objects: Map<string, ManifestObject>;
  /**
   * Entries of the file (or the journal) that name a place outside the pulled folder, through a link, or not
   * where their folder and kind put them: left out of `folders` and `objects` (nothing reads or writes
   * there), named in every plan and pull, and written back as they were until a pull replaces them.
   */
  refused?: Refusal[];
}

export interface Refusal {
  /** What the user sees: the folder's or object's Key and the path it named. */
  entry: string;
  reason: string;
  folderKey?: string;
  dir?: unknown;
  key?: string;
  object?: unknown;
}

/** A manifest that cannot be read: a clear reason, nothing planned or sent. */
class ManifestError extends Error {}

/**
 * The manifest with its journal's steps, every folder directory and object path checked (see `refuseOutside`);
 * with `only`, just those objects (and the journal's): read without parsing the other objects' lines, for a
 * step whose work follows its few objects (an apply). A manifest read so is written back (`writeManifest`)
 * only through the steps recorded since. A cache (.oms/) that is a link or of the wrong kind is refused.
 */
export async function readManifest(root: string, only?: Iterable<string>): Promise<Manifest | undefined> {
  checkCache(root);
  const file = path.join(root, manifestName);
  const stat = statOf(file);
  const bytes = await readBytesNoFollow(file, manifestName);
  if (bytes === undefined) return undefined;
  // An apply's few objects are found in the file's bytes, which writing the manifest back then reuses.
  const picked = only ? pickObjects(bytes, only) : undefined;
  const manifest = await parseManifest(picked ?? (await parseText(bytes)));
  if (picked) partial.add(manifest);
  if (only && stat && sameStat(stat, statOf(file))) readAs.set(manifest, { bytes, stat });
  return replayJournal(root, manifest);
}

/**
 * The bytes a manifest was read from or written as (pieces, joined when used again), and the file's stat around
 * them: written back, it is not read again while the stat holds.
 */
const readAs = new WeakMap<Manifest, { bytes: Buffer | Buffer[]; stat: BigIntStats }>();

function wholeBytes(read: { bytes: Buffer | Buffer[] }): Buffer {
  if (Array.isArray(read.bytes)) read.bytes = Buffer.concat(read.bytes);
  return read.bytes;
}

/** Whether the pieces make up `before`: compared in place, not joined. */
function sameBytes(before: Buffer, pieces: readonly Buffer[]): boolean {
  let at = 0;
  for (const piece of pieces) {
    if (at + piece.length > before.length || before.compare(piece, 0, piece.length, at, at + piece.length) !== 0) return false;
    at += piece.length;
  }
  return at === before.length;
}

/** The pieces as bytes: text encoded a megabyte or so at a time, runs of the file read as they are. */
function encoded(pieces: readonly Piece[]): Buffer[] {
  return pieces.flatMap((piece) => (typeof piece === 'string' ? [...parts(piece, 1 << 20)].map((part) => Buffer.from(part)) : [piece]));
}

const statOf = (file: string) => lstatSync(file, { bigint: true, throwIfNoEntry: false });
const sameStat = (a: BigIntStats, b: BigIntStats | undefined) => !!b && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ino === b.ino;

/** `manifest` moved forward by the steps its journal recorded since it was written; entries that leave the folder set aside. */
function replayJournal(root: string, manifest: Manifest): Promise<Manifest> {
  const refused: Refusal[] = [];
  applySteps(manifest, readJournal(root, refused));
  return refuseOutside(root, manifest, refused);
}

/** Manifests read with `only`: their objects are not all the folder's. */
const partial = new WeakSet<Manifest>();

/** The steps recorded since the manifest was last written; a line this version did not write is named in `refused`. */
function readJournal(root: string, refused: Refusal[]): JournalStep[] {
  const steps: JournalStep[] = [];
  for (const name of [cachedJournal, journalName]) readSteps(root, name, steps, refused);
  return steps;
}

function readSteps(root: string, name: string, steps: JournalStep[], refused: Refusal[]): void {
  const lines = readNoFollow(path.join(root, name), name)?.split('\n') ?? [];
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let step: unknown;
    try {
      step = JSON.parse(line);
    } catch {
      step = undefined;
    }
    if (isStep(step)) steps.push(step);
    // The last line cut short by a crash: that step was not recorded. Any other is named.
    else if (i < lines.length - 1 || step !== undefined) {
      refused.push({ entry: `${name}:${i + 1}`, reason: l10n.t('not a step this version wrote; it was ignored') });
    }
  });
}

function isStep(step: unknown): step is JournalStep {
  if (!step || typeof step !== 'object') return false;
  const s = step as Record<string, unknown>;
  if (typeof s.folderKey === 'string') return typeof s.dir === 'string';
  return typeof s.key === 'string' && (s.object === null || isEntry(s.object));
}

function isEntry(o: unknown): o is ManifestObject {
  const e = o as ManifestObject | null;
  return (
    !!e &&
    typeof e === 'object' &&
    typeof e.path === 'string' &&
    kinds.has(e.kind) &&
    typeof e.folderKey === 'string' &&
    typeof e.hash === 'string' &&
    (e.version === null || typeof e.version === 'number')
  );
}

/**
 * Leaves out (into `refused`) every folder directory and object path that is not a plain path inside the pulled folder
 * free of links, and every object whose path is not a file of its folder's directory for its kind.
 */
async function refuseOutside(root: string, manifest: Manifest, refused: Refusal[]): Promise<Manifest> {
  for (const [folderKey, dir] of Object.entries(manifest.folders)) {
    const problem = pathProblem(root, dir);
    if (!problem) continue;
    delete manifest.folders[folderKey];
    refused.push({ entry: l10n.t('folder {0} ({1})', folderKey, String(dir)), reason: problem, folderKey, dir });
  }
  // Each directory is looked at on disk once; an object's path only by its text (its file is opened without following a link).
  const dirProblems = new Map<string, string | undefined>();
  const dirProblem = (dir: string) => {
    if (!dirProblems.has(dir)) dirProblems.set(dir, pathProblem(root, dir));
    return dirProblems.get(dir);
  };
  await inSlicesOf(manifest.objects, (key, object) => {
    const dir = manifest.folders[object.folderKey];
    const where = dir === undefined ? undefined : `${dir}/${kindOf(object.kind).collection}`;
    const rest = where && object.path.startsWith(`${where}/`) ? object.path.slice(where.length + 1) : undefined;
    // A file name in its folder's checked directory: only the name is looked at (a manifest holds 100,000 paths).
    const named = rest !== undefined && !rest.includes('/') && rest.endsWith('.json') && isPlainRelative(rest);
    const problem =
      (named || isPlainRelative(object.path) ? undefined : pathProblem(root, object.path)) ??
      (where === undefined ? l10n.t("its folder {0} is not one of this folder's", object.folderKey) : undefined) ??
      (named ? undefined : l10n.t('it is not a file of {0}', where ?? '')) ??
      dirProblem(where!);
    if (!problem) return;
    manifest.objects.delete(key);
    refused.push({ entry: l10n.t('object {0} ({1})', key, object.path), reason: problem, key, object });
  });
  // A manifest moved on again (a pull's journal replayed) keeps what was set aside before.
  const all = [...(manifest.refused ?? []), ...refused];
  if (all.length) Object.defineProperty(manifest, 'refused', { value: all, enumerable: false, writable: true, configurable: true });
  return manifest;
}

/** What the refused entries say, one line each. */
export function refusalLines(manifest: Manifest): string[] {
  return (manifest.refused ?? []).map((r) => l10n.t('{0} in {1} was refused: {2}', r.entry, manifestName, r.reason));
}

/** A record with no prototype: keys such as `constructor` or `__proto__` are entries like any other. */
export function emptyRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

function recordOf<T>(value: Record<string, T>): Record<string, T> {
  const out = emptyRecord<T>();
  for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

async function parseText(bytes: Buffer): Promise<unknown> {
  try {
    return await parseManifestText(bytes);
  } catch (e) {
    throw new ManifestError(l10n.t('{0} is not valid JSON ({1}): restore it from git or pull again into an empty folder', manifestName, (e as Error).message));
  }
}

/** The parsed text as a manifest, every object entry checked, its objects a Map (parsed a slice at a time, they are one already). */
async function parseManifest(parsed: unknown): Promise<Manifest> {
  const m = parsed as Omit<Manifest, 'objects'> & { objects: unknown };
  const c = m?.connection;
  let ok =
    m?.format === 1 &&
    typeof c?.url === 'string' &&
    typeof c.instanceKey === 'string' &&
    typeof c.label === 'string' &&
    typeof m.scope?.folderKey === 'string' &&
    Array.isArray(m.scope.kinds) &&
    m.scope.kinds.every((k) => kinds.has(k)) &&
    m.folders &&
    typeof m.folders === 'object' &&
    !!m.objects &&
    typeof m.objects === 'object';
  const given = m?.objects instanceof Map ? (m.objects as Map<string, unknown>) : new Map<string, unknown>();
  if (ok && given !== m.objects) {
    // Parsed whole (a file of another form): its record made a Map a slice at a time.
    const record = m.objects as Record<string, unknown>;
    await inSlices(Object.keys(record), (key) => given.set(key, record[key]));
  }
  if (ok) {
    await inSlices(given.values(), (entry) => {
      if (!isEntry(entry)) ok = false;
    });
  }
  if (!ok)
    throw new ManifestError(l10n.t('{0} is not a manifest this version understands: restore it from git or pull again into an empty folder', manifestName));
  return { ...m, folders: recordOf(m.folders), objects: given as Map<string, ManifestObject> };
}

/**
 * Writes the manifest (sorted, so git diffs stay small) and empties the journal it now contains. Only the
 * lines of the objects the journal names are written again when the file allows it (manifestText.ts).
 */
export async function writeManifest(root: string, manifest: Manifest): Promise<void> {
  const kept = keptManifest(manifest);
  const file = path.join(root, manifestName);
  // A 100,000 objects' manifest is 25 MB: an apply's few objects need not read it twice.
  const read = readAs.get(manifest);
  const before = (read && sameStat(read.stat, statOf(file)) ? wholeBytes(read) : await readBytesNoFollow(file, manifestName)) ?? Buffer.alloc(0);
  // The lines the journal names are patched in the file; a first pull's journal (10,000 steps: 20-40 ms) is not read for none.
  let pieces: Piece[] | undefined = before.length ? patchManifestText(before, kept, journaledKeys(root)) : undefined;
  if (pieces === undefined && partial.has(manifest)) {
    // Read as a few objects, from a file of another form: written whole, once.
    const whole = await readManifest(root);
    if (!whole) throw new ManifestError(l10n.t('{0} was removed while in use: pull again', manifestName));
    pieces = [manifestText({ ...kept, objects: whole.objects })]; // the journal's steps are in `whole`
  }
  await writePieces(root, before, pieces ?? [manifestText(kept)], manifest);
}

/**
 * The head of a manifest to write, its object lines handed to `part` as they are made, a slice at a time
 * (`writeManifestLines` sorts and writes them on another thread); `texts`: entries already `printed`.
 */
export async function manifestLines(manifest: Manifest, part: (lines: string[]) => void, texts?: ReadonlyMap<ManifestObject, string>): Promise<ManifestHead> {
  const { objects, ...head } = keptManifest(manifest);
  await objectLines(objects, part, texts);
  return head;
}

export type ManifestHead = Omit<Manifest, 'objects'>;

/**
 * Writes the manifest from its head and object lines (`manifestLines`) and empties the journal, on a pull's thread:
 * nothing is read again from the journal. A pull of 100,000 objects waited 1.4 s for its manifest read from the
 * journal and written there, one of 10,000 64-105 ms.
 */
export async function writeManifestLines(root: string, head: ManifestHead, lines: string[]): Promise<void> {
  const before = (await readBytesNoFollow(path.join(root, manifestName), manifestName)) ?? Buffer.alloc(0);
  // One string: the pieces of 100,000 lines encoded one at a time took 80 ms.
  await writePieces(root, before, [linesText(head, lines).join('')]);
}

/** The manifest as written: entries set aside as read (`refused`) put back as they were (a pull may have given their object or folder a place since). */
function keptManifest(manifest: Manifest): Manifest {
  const folders = recordOf(manifest.folders);
  const refusedObjects = (manifest.refused ?? []).filter((r) => r.key !== undefined && !manifest.objects.has(r.key));
  const objects = refusedObjects.length ? new Map(manifest.objects) : manifest.objects;
  for (const r of refusedObjects) objects.set(r.key!, r.object as ManifestObject);
  for (const r of manifest.refused ?? []) {
    if (r.folderKey !== undefined && !(r.folderKey in folders)) Object.defineProperty(folders, r.folderKey, { value: r.dir, enumerable: true });
  }
  return { ...manifest, folders, objects };
}

/** Writes the manifest's pieces unless they are the bytes it holds (`before`), then empties the journal; `manifest` is known by what was written. */
async function writePieces(root: string, before: Buffer, pieces: readonly Piece[], manifest?: Manifest): Promise<void> {
  const file = path.join(root, manifestName);
  const bytes = encoded(pieces);
  if (!sameBytes(before, bytes)) {
    await writeAtomic(file, bytes);
    const stat = statOf(file);
    if (stat && manifest) readAs.set(manifest, { bytes, stat });
  }
  for (const name of [journalName, cachedJournal]) await fs.rm(path.join(root, name), { force: true });
}

/** The Keys of the objects the journal's steps name. */
function journaledKeys(root: string): Set<string> {
  const keys = new Set<string>();
  for (const step of readJournal(root, [])) if ('key' in step) keys.add(step.key);
  return keys;
}

/** An object pulled or applied (null: gone), or a folder's directory. */
export type JournalStep = ObjectStep | { key: string; object: null } | { folderKey: string; dir: string };
export interface ObjectStep {
  key: string;
  object: ManifestObject;
}

/**
 * Records steps (in `manifest` and in the journal) before the manifest is written again: one append,
 * whatever their number. Synchronous: a step is recorded inside the executor's report, which is not
 * awaited, and a pull's appends are faster outside the thread pool. `texts`: each step's entry already
 * `printed` (by a pull thread), put in its line as it is.
 */
export function journalSync(root: string, manifest: Manifest, steps: JournalStep[]): void;
export function journalSync(root: string, manifest: Manifest, steps: ObjectStep[], texts: readonly string[]): void;
export function journalSync(root: string, manifest: Manifest, steps: JournalStep[], texts?: readonly string[]): void {
  if (!steps.length) return;
  applySteps(manifest, steps);
  // As JSON.stringify prints the step (`{ key, object }`), its entry's text given.
  const line = (s: JournalStep, i: number) => (texts ? `{"key":${JSON.stringify((s as ObjectStep).key)},"object":${texts[i]}}` : JSON.stringify(s));
  appendNoFollow(journalPath(root), steps.map(line).join('\n') + '\n');
}

/**
 * Appends to a file of the pulled folder, created if missing, never through a link (a cloned folder's file may be
 * one); `sync`: on disk before it returns (what may be written is recorded before it is sent).
 */
export function appendNoFollow(file: string, text: string, sync = false): void {
  const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0), 0o666);
  try {
    writeSync(fd, text);
    if (sync) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function applySteps(manifest: Manifest, steps: JournalStep[]): void {
  for (const step of steps) {
    if ('dir' in step) manifest.folders[step.folderKey] = step.dir;
    else if (step.object) manifest.objects.set(step.key, step.object);
    else manifest.objects.delete(step.key);
  }
}

/** The local cache folder and its `.gitignore` (everything in it stays out of git). */
export async function ensureCache(root: string): Promise<void> {
  checkCache(root);
  await fs.mkdir(path.join(root, cacheDir), { recursive: true });
  checkCache(root);
  writeNoFollow(path.join(root, cacheDir, '.gitignore'), '*\n', `${cacheDir}/.gitignore`);
}

/**
 * The cache folder (`.oms/`) must be a folder and its files files, none a link, as must the manifest and the files beside it:
 * else a clear refusal, before anything is read or written.
 */
function checkCache(root: string): void {
  const what = (rel: string, folder: boolean): void => {
    const stat = lstatSync(path.join(root, rel), { throwIfNoEntry: false });
    if (!stat || (folder ? stat.isDirectory() : stat.isFile())) return;
    const is = stat.isSymbolicLink() ? l10n.t('a symbolic link') : folder ? l10n.t('not a folder') : l10n.t('not a file');
    if (!rel.startsWith(cacheDir)) throw new ManifestError(l10n.t('{0} is {1}: remove it or restore it from git', rel, is));
    throw new ManifestError(l10n.t("{0} is {1}: remove it (it is this machine's cache of the pulled folder; the next pull writes it again)", rel, is));
  };
  what(cacheDir, true);
  for (const f of ['journal.jsonl', 'bases', 'stats', 'pages', '.gitignore', 'pending.jsonl']) what(`${cacheDir}/${f}`, false);
  what(`${cacheDir}/runs`, true);
  for (const f of [manifestName, journalName, pendingName]) what(f, false);
}

/** The creates sent without a known outcome (pendingCreates.ts), beside the manifest for the same reason as its journal. */
export const pendingName = 'oms.pending.jsonl';

/** The cache folder's path of a file in it. */
export function cachePath(root: string, name: string): string {
  return path.join(root, cacheDir, name);
}

/** Whether the journal holds steps the manifest file does not (else a manifest whose head is the same need not be written). */
export function journalHolds(root: string): boolean {
  return [journalName, cachedJournal].some((name) => (lstatSync(path.join(root, name), { throwIfNoEntry: false })?.size ?? 0) > 0);
}

function journalPath(root: string): string {
  return path.join(root, journalName);
}

/**
 * Temp file and rename: a reader never sees half a file, and a link left in the folder is never written through
 * (createTemp). Its pieces go in one write of the thread pool: runs of the old file are not copied.
 */
async function writeAtomic(file: string, bytes: readonly Buffer[]): Promise<void> {
  const temp = await createTemp(file, 0, 0o666); // a file of the folder like the others (the umask decides)
  try {
    try {
      await temp.handle.writev(bytes);
    } finally {
      await temp.handle.close();
    }
    await fs.rename(temp.path, file);
  } catch (e) {
    await fs.rm(temp.path, { force: true });
    throw e;
  }
}

/**
 * `text` in parts of at most `size` characters, never between the two halves of a surrogate pair.
 * @internal Exported for its unit test.
 */
export function* parts(text: string, size: number): Generator<string> {
  for (let from = 0; from < text.length;) {
    let to = Math.min(from + size, text.length);
    const last = text.charCodeAt(to - 1);
    if (to < text.length && last >= 0xd800 && last <= 0xdbff) to--;
    yield text.slice(from, to);
    from = to;
  }
}

/** A pulled folder belongs to one connection and instance: anything else is refused, naming the one it belongs to. */
export function checkBinding(manifest: Manifest, current: ConnectionBinding): void {
  const b = manifest.connection;
  if (b.url !== current.url || b.instanceKey !== current.instanceKey) {
    throw new ManifestError(
      l10n.t(
        'This folder was pulled from {0} ({1}, instance {2}), not from {3} ({4}, instance {5}): plan it against {0}, or pull into another folder',
        b.label,
        b.url,
        b.instanceKey,
        current.label,
        current.url,
        current.instanceKey,
      ),
    );
  }
}
