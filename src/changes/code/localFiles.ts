/** The object files of a pulled folder as they are now: where the manifest's folders and kinds put them. */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Kind, kind as kindOf } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import { canonicalText, hashOf } from './fileForm';
import { FileStats } from './fileStats';
import type { Manifest, ManifestObject } from './manifest';

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
  for (const [key, o] of Object.entries(manifest.objects)) pulled.set(o.path, { key, hash: o.hash });
  const pause = () => new Promise<void>((r) => setImmediate(r));
  const stats = await new FileStats(root).load(pause);
  const files: LocalFile[] = [];
  for (const d of dirs) {
    for (const name of namesIn(path.join(root, d.dir)).sort()) {
      const rel = `${d.dir}/${name}`;
      const known = pulled.get(rel);
      // A file whose stat says it still holds what was pulled is not read (most files of a large folder).
      if (known && stats.holds(rel, known.hash)) files.push({ path: rel, folderKey: d.folderKey, kind: d.kind, ...known });
      else {
        const file = readLocalFile(root, rel, d.folderKey, d.kind, known);
        if (known && file.hash === known.hash) stats.record(rel, known.hash);
        files.push(file);
      }
      // Synchronous reads are several times faster than the thread pool's; let others run between batches.
      if (files.length % 256 === 0) await pause();
    }
  }
  stats.flush();
  return files;
}

/** One file; `pulled` (Key and hash the manifest has for this path) lets an untouched file skip parsing. */
export function readLocalFile(root: string, rel: string, folderKey: string, kind: Kind, pulled?: { key: string; hash: string }): LocalFile {
  const file: LocalFile = { path: rel, folderKey, kind };
  const text = readText(path.join(root, rel));
  if (text === undefined) return { ...file, error: 'missing' };
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
    return { error: `not valid JSON (${(e as Error).message})` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { error: 'must hold one JSON object' };
  const object = value as BaseInfo;
  return { object, hash: hashOf(canonicalText(kind, object)) };
}

/** A file's text, or undefined when it is not there. */
export function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** Whether a pulled object's file, whose text is now `current` (undefined: deleted), was edited since; reformatting is no edit. */
export function editedSincePull(entry: ManifestObject, current: string | undefined): boolean {
  if (current === undefined) return true;
  if (hashOf(current) === entry.hash) return false;
  const parsed = parseObjectText(kindOf(entry.kind), current);
  return 'error' in parsed || parsed.hash !== entry.hash;
}

function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
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
