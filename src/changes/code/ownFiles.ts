/**
 * What a pull may remove: only a regular file of the pulled folder that it wrote itself, recognised by its
 * bytes (the hash the manifest records), or, when the user chose to overwrite edits, one that still holds
 * the object's own Key. Anything else (a link, a folder, a file outside, another file) stays, with the reason.
 */
import { rmSync } from 'node:fs';
import { kind as kindOf } from '../../model/kinds';
import { l10n } from '../../l10n';
import { hashOf } from './fileForm';
import { parseObjectText } from './localFiles';
import type { ManifestObject } from './manifest';
import { isRegularFile, PathRefused, resolveInside } from './safePaths';

/** Removes the object's file if it is the pull's own; undefined when removed (or not there), else the refusal in words. */
export function removeOwnFile(root: string, key: string, entry: ManifestObject, current: string | undefined): string | undefined {
  if (current === undefined) return undefined;
  let abs: string;
  try {
    abs = resolveInside(root, entry.path);
  } catch (e) {
    if (e instanceof PathRefused) return e.message;
    throw e;
  }
  if (!isRegularFile(abs)) return new PathRefused(entry.path, l10n.t('it is not a regular file; it was left as it is')).message;
  if (!ownText(key, entry, current))
    return new PathRefused(entry.path, l10n.t('it does not hold the object {0} this pull wrote; it was left as it is', key)).message;
  rmSync(abs, { force: true });
  return undefined;
}

/** The bytes the pull wrote, or (overwriting edits) a file that still holds the object's Key. */
function ownText(key: string, entry: ManifestObject, current: string): boolean {
  if (hashOf(current) === entry.hash) return true;
  const parsed = parseObjectText(kindOf(entry.kind), current);
  return 'object' in parsed && (parsed.hash === entry.hash || parsed.object.Key === key);
}
