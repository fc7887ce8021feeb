/** The object files of a pulled folder as they are now: where the manifest's folders and kinds put them. */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Kind, kind as kindOf } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import { canonicalText, hashOf } from './fileForm';
import { FileStats } from './fileStats';
import type { Manifest, ManifestObject } from './manifest';
import { PathRefused, readNoFollow, resolveInside } from './safePaths';
import { inSlicesOf, Slices } from './slices';
import { l10n } from '../../l10n';

/**
 * Deeper than any object of the service: deeper text is refused before anything walks it (a walk would run out of
 * stack), and a pull refuses deeper objects (pullThread.ts).
 */
export const maxDepth = 64;

export interface LocalFile {
  /** Relative to the pulled folder, with `/`. */
  path: string;
  folderKey: string;
  kind: Kind;
  /** The Key the file holds. */
  key?: string;
  /**
   * Parsed, unless the file is byte for byte what was pulled (then `key` and
   * `hash` come from the manifest: most files of a large folder, read without parsing).
   */
  object?: BaseInfo;
  /** Hash of the canonical text: reformatting is no change. */
  hash?: string;
  /** Why the file is not one JSON object. */
  error?: string;
}

export async function readLocalFiles(root: string, manifest: Manifest): Promise<LocalFile[]> {
  const dirs: Array<{ dir: string; folderKey: string; kind: Kind }> = [];
  for (const [folderKey, dir] of Object.entries(manifest.folders)) {
    for (const k of manifest.scope.kinds) dirs.push({ dir: `${dir}/${kindOf(k).collection}`, folderKey, kind: kindOf(k) });
  }
  const pulled = new Map<string, { key: string; hash: string }>();
  await inSlicesOf(manifest.objects, (key, o) => pulled.set(o.path, { key, hash: o.hash }));
  const stats = await new FileStats(root).load();
  const files: LocalFile[] = [];
  const slices = new Slices();
  for (const d of dirs) {
    let names: string[];
    try {
      names = await namesIn(root, d.dir);
    } catch (e) {
      if (!(e instanceof PathRefused)) throw e;
      files.push({ path: d.dir, folderKey: d.folderKey, kind: d.kind, error: l10n.t('The folder was refused: {0}', e.reason) });
      continue;
    }
    for (const name of names.sort()) {
      const rel = `${d.dir}/${name}`;
      const known = pulled.get(rel);
      // A file whose stat says it still holds what was pulled is not read (most files of a large folder).
      if (known && stats.holds(rel, known.hash)) files.push({ path: rel, folderKey: d.folderKey, kind: d.kind, ...known });
      else {
        const file = readLocalFile(root, rel, d.folderKey, d.kind, known, true);
        if (known && file.hash === known.hash) stats.record(rel, known.hash);
        files.push(file);
      }
      // Synchronous reads are several times faster than the thread pool's; others run between slices.
      if (slices.due()) await slices.pause();
    }
  }
  stats.flush();
  return files;
}

/** One file; `pulled` (Key and hash the manifest has for this path) lets an untouched file skip parsing; `dirChecked`: its directory was resolved. */
export function readLocalFile(root: string, rel: string, folderKey: string, kind: Kind, pulled?: { key: string; hash: string }, dirChecked = false): LocalFile {
  const file: LocalFile = { path: rel, folderKey, kind };
  let text: string | undefined;
  try {
    // A file of a directory just checked (no link on the way) is only opened without following a link itself.
    text = readNoFollow(dirChecked ? path.join(root, rel) : resolveInside(root, rel), rel);
  } catch (e) {
    if (e instanceof PathRefused) return { ...file, error: l10n.t('The file was refused: {0}', e.reason) };
    throw e;
  }
  if (text === undefined) return { ...file, error: l10n.t('The file is missing') };
  if (pulled && hashOf(text) === pulled.hash) return { ...file, key: pulled.key, hash: pulled.hash };
  const parsed = parseObjectText(kind, text);
  if ('error' in parsed) return { ...file, error: parsed.error };
  const key = parsed.object.Key;
  return { ...file, ...parsed, key: key === undefined || key === null || key === '' ? undefined : String(key) };
}

export function parseObjectText(kind: Kind, text: string): { object: BaseInfo; hash: string } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { error: l10n.t('The file is not valid JSON ({0})', (e as Error).message) };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { error: l10n.t('The file is not one JSON object') };
  if (deeperThan(value, maxDepth)) return { error: l10n.t('The file nests more than {0} levels deep', maxDepth) };
  const object = value as BaseInfo;
  return { object, hash: hashOf(canonicalText(kind, object)) };
}

/** A file's text, or undefined when it is not there; never through a symbolic link. */
export function readText(file: string): string | undefined {
  return readNoFollow(file);
}

/** Whether a parsed JSON value nests deeper than `depth` (walked without recursion). */
function deeperThan(value: unknown, depth: number): boolean {
  let level: unknown[] = [value];
  for (let d = 0; level.length; d++) {
    if (d > depth) return true;
    const next: unknown[] = [];
    for (const v of level) if (v && typeof v === 'object') for (const c of Object.values(v)) if (c && typeof c === 'object') next.push(c);
    level = next;
  }
  return false;
}

/** Whether a pulled object's file, whose text is now `current` (undefined: deleted), was edited since; reformatting is no edit. */
export function editedSincePull(entry: ManifestObject, current: string | undefined): boolean {
  if (current === undefined) return true;
  if (hashOf(current) === entry.hash) return false;
  const parsed = parseObjectText(kindOf(entry.kind), current);
  return 'error' in parsed || parsed.hash !== entry.hash;
}

/** The object files' names in `rel`, listed by the thread pool (100,000 names held this thread up 50 ms). */
async function namesIn(root: string, rel: string): Promise<string[]> {
  try {
    return (await fs.readdir(resolveInside(root, rel))).filter((n) => n.endsWith('.json'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw e;
  }
}

/** `fn` over `items`, at most `width` at a time, results in order. */
export async function inBatches<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}
