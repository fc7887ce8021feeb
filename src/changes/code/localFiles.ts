/** The object files of a pulled folder as they are now: where the manifest's folders and kinds put them. */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Kind, kind as kindOf } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import { canonicalText, hashOf } from './fileForm';
import type { Manifest } from './manifest';

export interface LocalFile {
  /** Relative to the pulled folder, with `/`. */
  path: string;
  folderKey: string;
  kind: Kind;
  /** Absent when the file is not one JSON object (then `error` says why). */
  object?: BaseInfo;
  /** Hash of the canonical text: reformatting is no change. */
  hash?: string;
  error?: string;
}

export async function readLocalFiles(root: string, manifest: Manifest): Promise<LocalFile[]> {
  const dirs: Array<{ dir: string; folderKey: string; kind: Kind }> = [];
  for (const [folderKey, dir] of Object.entries(manifest.folders)) {
    for (const k of manifest.scope.kinds) dirs.push({ dir: `${dir}/${kindOf(k).collection}`, folderKey, kind: kindOf(k) });
  }
  const listed = await Promise.all(dirs.map(async (d) => (await namesIn(path.join(root, d.dir))).map((n) => ({ ...d, path: `${d.dir}/${n}` }))));
  const files = listed.flat().sort((a, b) => (a.path < b.path ? -1 : 1));
  return inBatches(files, 64, (f) => readLocalFile(root, f.path, f.folderKey, f.kind));
}

export async function readLocalFile(root: string, rel: string, folderKey: string, kind: Kind): Promise<LocalFile> {
  const file: LocalFile = { path: rel, folderKey, kind };
  let text: string;
  try {
    text = await fs.readFile(path.join(root, rel), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ...file, error: 'missing' };
    throw e;
  }
  return { ...file, ...parseObjectText(kind, text) };
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

async function namesIn(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).filter((n) => n.endsWith('.json'));
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
