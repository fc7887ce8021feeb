/**
 * The manifest of a pulled folder (`oms.manifest.json`, meant for git): the
 * connection it belongs to, what was pulled, and per object its Key, kind,
 * folder, version and the hash of its pulled file. The local cache beside it
 * (`.oms/`, kept out of git by the `.gitignore` the pull writes) holds the
 * merge bases (bases.ts) and a journal that moves the manifest forward one
 * object at a time, so an interrupted pull or apply continues where it stopped.
 */
import { appendFileSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { kinds, KindId } from '../../model/kinds';
import { l10n } from '../../l10n';
import { manifestText, parseManifestText, patchManifestText, pickObjects } from './manifestText';

export const manifestName = 'oms.manifest.json';
const cacheDir = '.oms';
const journalName = 'journal.jsonl';

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
  objects: Record<string, ManifestObject>;
}

/** A manifest that cannot be read: a clear reason, nothing planned or sent. */
class ManifestError extends Error {}

/**
 * The manifest with its journal's steps; with `only`, just those objects (and the journal's): read without
 * parsing the other objects' lines, for a step whose work follows its few objects (an apply). A manifest
 * read so is written back (`writeManifest`) only through the steps recorded since.
 */
export async function readManifest(root: string, only?: Iterable<string>): Promise<Manifest | undefined> {
  let text: string;
  try {
    text = await fs.readFile(path.join(root, manifestName), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const picked = only && pickObjects(text, only);
  const manifest = parseManifest(text, picked ?? await parseText(text));
  if (picked) partial.add(manifest);
  return replayJournal(root, manifest);
}

/** `manifest` moved forward by the steps its journal recorded since it was written. */
export async function replayJournal(root: string, manifest: Manifest): Promise<Manifest> {
  applySteps(manifest, await readJournal(root));
  return manifest;
}

/** Manifests read with `only`: their objects are not all the folder's. */
const partial = new WeakSet<Manifest>();

async function parseText(text: string): Promise<unknown> {
  try {
    return await parseManifestText(text);
  } catch (e) {
    throw new ManifestError(l10n.t('{0} is not valid JSON ({1}): restore it from git or pull again into an empty folder', manifestName, (e as Error).message));
  }
}

/** The steps recorded since the manifest was last written. */
async function readJournal(root: string): Promise<JournalStep[]> {
  const steps: JournalStep[] = [];
  for (const line of (await readOptional(journalPath(root))).split('\n')) {
    if (!line.trim()) continue;
    try {
      steps.push(JSON.parse(line) as JournalStep);
    } catch {
      continue; // a line cut short by a crash: that step was not recorded
    }
  }
  return steps;
}

function parseManifest(text: string, parsed: unknown): Manifest {
  const m = parsed as Manifest;
  const c = m?.connection;
  const ok = m?.format === 1 && typeof c?.url === 'string' && typeof c.instanceKey === 'string' && typeof c.label === 'string'
    && typeof m.scope?.folderKey === 'string' && Array.isArray(m.scope.kinds) && m.scope.kinds.every((k) => kinds.has(k))
    && m.folders && typeof m.folders === 'object' && m.objects && typeof m.objects === 'object'
    && Object.values(m.objects).every((o) => typeof o?.path === 'string' && kinds.has(o.kind) && typeof o.folderKey === 'string' && typeof o.hash === 'string');
  if (!ok) throw new ManifestError(l10n.t('{0} is not a manifest this version understands: restore it from git or pull again into an empty folder', manifestName));
  return m;
}

/**
 * Writes the manifest (sorted, so git diffs stay small) and empties the journal it now contains. Only the
 * lines of the objects the journal names are written again when the file allows it (manifestText.ts).
 */
export async function writeManifest(root: string, manifest: Manifest): Promise<void> {
  const file = path.join(root, manifestName);
  const changed = new Set<string>();
  for (const step of await readJournal(root)) if ('key' in step) changed.add(step.key);
  const before = await readOptional(file);
  let text = before ? patchManifestText(before, manifest, changed) : undefined;
  if (text === undefined && partial.has(manifest)) {
    // Read as a few objects, from a file of another form: written whole, once.
    const whole = await readManifest(root);
    if (!whole) throw new ManifestError(l10n.t('{0} was removed while in use: pull again', manifestName));
    text = manifestText({ ...manifest, objects: whole.objects }); // the journal's steps are in `whole`
  }
  if (text === undefined) text = manifestText(manifest);
  if (text !== before) await writeAtomic(file, text);
  await fs.rm(journalPath(root), { force: true });
}

/** An object pulled or applied (null: gone), or a folder's directory. */
export type JournalStep = { key: string; object: ManifestObject | null } | { folderKey: string; dir: string };

/**
 * Records steps (in `manifest` and in the journal) before the manifest is written again: one append,
 * whatever their number. Synchronous: a step is recorded inside the executor's report, which is not
 * awaited, and a pull's appends are faster outside the thread pool.
 */
export function journalSync(root: string, manifest: Manifest, steps: JournalStep[]): void {
  if (!steps.length) return;
  applySteps(manifest, steps);
  appendFileSync(journalPath(root), steps.map((s) => JSON.stringify(s)).join('\n') + '\n');
}

function applySteps(manifest: Manifest, steps: JournalStep[]): void {
  for (const step of steps) {
    if ('dir' in step) manifest.folders[step.folderKey] = step.dir;
    else if (step.object) manifest.objects[step.key] = step.object;
    else delete manifest.objects[step.key];
  }
}

/** The local cache folder and its `.gitignore` (everything in it stays out of git). */
export async function ensureCache(root: string): Promise<void> {
  await fs.mkdir(path.join(root, cacheDir), { recursive: true });
  await fs.writeFile(path.join(root, cacheDir, '.gitignore'), '*\n');
}

function journalPath(root: string): string {
  return path.join(root, cacheDir, journalName);
}

async function readOptional(file: string): Promise<string> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw e;
  }
}

/** Temp file and rename: a reader never sees half a file. */
async function writeAtomic(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temp, text);
  await fs.rename(temp, file);
}

/** A pulled folder belongs to one connection and instance: anything else is refused, naming the one it belongs to. */
export function checkBinding(manifest: Manifest, current: ConnectionBinding): void {
  const b = manifest.connection;
  if (b.url !== current.url || b.instanceKey !== current.instanceKey) {
    throw new ManifestError(l10n.t('This folder was pulled from {0} ({1}, instance {2}), not from {3} ({4}, instance {5}): plan it against {0}, or pull into another folder', b.label, b.url, b.instanceKey, current.label, current.url, current.instanceKey));
  }
}
