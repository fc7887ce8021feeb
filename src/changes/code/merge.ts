/**
 * Merge a stale entry (its file edited, the server moved since the pull) with
 * the one three-way merge (src/changes/merge3.ts): base = the file as pulled
 * (the merge base in `.oms/`, bases.ts), mine = the file, theirs = the server's object
 * in file form. A clean merge writes the file and moves the object's base to
 * the server's version, so the next plan shows an ordinary update.
 */
import { kind as kindOf } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import { MergeChoices, MergeConflict, merge3 } from '../merge3';
import { canonicalText, fileForm, hashOf } from './fileForm';
import { parseObjectText } from './localFiles';
import { Bases } from './bases';
import { journalSync, readManifest, writeManifest } from './manifest';
import type { PlanEntry } from './plan';
import { readNoFollow, resolveInside, replaceNoFollow } from './safePaths';
import { l10n } from '../../l10n';

export interface MergeOutcome {
  /** Left to the user (nothing written while there are any). */
  conflicts: MergeConflict[];
  /** Pointers where the server's change was taken in. */
  tookTheirs: string[];
}

export async function mergeEntry(root: string, entry: PlanEntry, live: BaseInfo, choices: MergeChoices = {}): Promise<MergeOutcome> {
  const kind = kindOf(entry.kind);
  const manifest = await readManifest(root);
  const key = entry.key;
  const pulled = key === undefined ? undefined : manifest?.objects.get(key);
  if (!manifest || !key || !pulled) throw new Error(l10n.t('{0} is not an object of this pulled folder', entry.path));
  const bases = new Bases(root);
  const baseText = bases.get(pulled.hash);
  const base = baseText === undefined ? undefined : parseObjectText(kind, baseText);
  if (!base || 'error' in base)
    throw new Error(l10n.t('No merge base for {0} on this machine (.oms/ is not in git): pull it again, then redo the edit', entry.label));
  // The entry's file (a renamed one may be elsewhere than the manifest says): inside the folder, through no link.
  const file = resolveInside(root, entry.path);
  const text = readNoFollow(file, entry.path);
  if (text === undefined) throw new Error(l10n.t('{0} is not there any more: plan again', entry.path));
  const mine = parseObjectText(kind, text);
  if ('error' in mine) throw new Error(l10n.t('{0} is {1}: fix it first', entry.path, mine.error));
  const theirs = fileForm(kind, live);
  const result = merge3(kind, base.object, mine.object, theirs, choices);
  if (result.conflicts.length) return { conflicts: result.conflicts, tookTheirs: result.tookTheirs };
  const theirsText = canonicalText(kind, theirs);
  replaceNoFollow(file, canonicalText(kind, result.merged), entry.path);
  const theirsHash = hashOf(theirsText);
  bases.add(theirsHash, theirsText);
  bases.flush();
  journalSync(root, manifest, [{ key, object: { ...pulled, version: live.ConcurrencyVersion ?? null, hash: theirsHash } }]);
  await writeManifest(root, manifest);
  return { conflicts: [], tookTheirs: result.tookTheirs };
}
