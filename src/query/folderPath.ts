/**
 * A query file names its folder as the Objects view shows it, by names from the instance down (`Head Office/Floor 1`,
 * the instance's own name first or not), or by its key: read here into a key, and a key back into such a path
 * (New Query File writes the selected folder's).
 */
import type { OmsClient } from '../api/client';
import { kind } from '../model/kinds';
import { l10n } from '../l10n';

const folderKind = kind('folder');
/** Deeper than any tree a person keeps; a loop of folders ends here. */
const maxDepth = 64;

function isFolderKey(text: string): boolean {
  return /^[0-9a-f]{24}$/i.test(text);
}

export async function folderKeyOfPath(client: OmsClient, rootKey: string, path: string): Promise<string> {
  const trimmed = path.trim().replace(/^\/+|\/+$/g, '');
  if (isFolderKey(trimmed)) return trimmed;
  const names = trimmed ? trimmed.split('/').map((n) => n.trim()) : [];
  let key = rootKey;
  let where = (await client.folder(rootKey)).CommonName ?? rootKey;
  for (const [i, name] of names.entries()) {
    const children = await client.listAll(folderKind, key);
    let found = children.filter((f) => f.CommonName === name);
    if (!found.length) found = children.filter((f) => f.CommonName?.toLowerCase() === name.toLowerCase());
    // The instance's own name first, as the view shows it above its folders.
    if (!found.length && i === 0 && name.toLowerCase() === where.toLowerCase()) continue;
    if (!found.length) {
      const has = children.map((f) => f.CommonName).join(', ');
      throw new Error(
        has
          ? l10n.t('There is no folder "{0}" in "{1}"; it holds: {2}', name, where, has)
          : l10n.t('There is no folder "{0}" in "{1}"; it holds none', name, where),
      );
    }
    if (found.length > 1)
      throw new Error(
        l10n.t('More than one folder in "{0}" is named "{1}": name the one you mean by its key ({2})', where, name, found.map((f) => f.Key).join(', ')),
      );
    key = found[0].Key!;
    where = name;
  }
  return key;
}

/** The folder's names from the instance down, joined by `/` (empty for the instance); a name holding `/` makes it its key. */
export async function pathOfFolder(client: OmsClient, rootKey: string, folderKey: string): Promise<string> {
  const names: string[] = [];
  for (let key = folderKey, depth = 0; key !== rootKey; depth++) {
    if (depth > maxDepth) return folderKey;
    const folder = await client.folder(key);
    if (!folder.CommonName || folder.CommonName.includes('/') || !folder.InFolderKey || folder.InFolderKey === key) return folderKey;
    names.unshift(folder.CommonName);
    key = folder.InFolderKey;
  }
  return names.join('/');
}
