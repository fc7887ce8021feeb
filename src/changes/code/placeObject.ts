/**
 * The server's object put in place in a pulled folder, as an apply records a write and a plan adopts a
 * create whose answer was lost (resolvePending.ts): its file holds the object (a create's file takes its
 * Key, under its new name, and the file it came from goes), then its merge base, its stat and the manifest
 * follow, in that order, so a crash at any step leaves what the next plan can tell.
 */
import { rmSync } from 'node:fs';
import { kind as kindOf, KindId } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import type { Bases } from './bases';
import { canonicalText, fileForm, hashOf } from './fileForm';
import { FileStats } from './fileStats';
import { journalSync, Manifest } from './manifest';
import { isRegularFile, readNoFollow, resolveInside, replaceNoFollow } from './safePaths';

/** `from`: the file the object came from (a create's new file); `rel`: where it is now. */
export function placeObject(
  root: string,
  manifest: Manifest,
  bases: Bases,
  from: { path: string; kind: KindId; folderKey: string },
  rel: string,
  live: BaseInfo & { Key: string },
): void {
  const kind = kindOf(from.kind);
  const text = canonicalText(kind, fileForm(kind, live));
  const file = resolveInside(root, rel);
  if (readOptional(file) !== text) replaceNoFollow(file, text, rel);
  const old = resolveInside(root, from.path);
  if (rel !== from.path && isRegularFile(old)) rmSync(old, { force: true });
  const hash = hashOf(text);
  bases.add(hash, text);
  bases.flush();
  const stats = new FileStats(root); // the next plan or pull need not read the file
  stats.record(rel, hash);
  stats.flush();
  const object = { path: rel, kind: kind.id, folderKey: from.folderKey, version: live.ConcurrencyVersion ?? null, hash };
  journalSync(root, manifest, [{ key: live.Key, object }]);
}

function readOptional(p: string): string | undefined {
  try {
    return readNoFollow(p);
  } catch {
    return undefined;
  }
}
