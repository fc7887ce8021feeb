/**
 * A query over a pulled folder's files (objects as code): no service, no token. The files are read as a plan reads
 * them (every path inside the folder, no link followed); a file that is not one JSON object is reported, not matched.
 */
import { readLocalFile, readLocalFiles } from '../changes/code/localFiles';
import { readManifest } from '../changes/code/manifest';
import { Kind, kind as kindOf } from '../model/kinds';
import { l10n } from '../l10n';
import type { Query } from './compile';
import type { Match, QueryProgress } from './run';

export interface FolderAnswer {
  matches: Match[];
  progress: QueryProgress;
  /** Files that could not be read as an object: path and why. */
  unreadable: Array<{ path: string; error: string }>;
  /** The kinds the folder was pulled with (the query's scope when none are asked for). */
  kinds: Kind[];
}

/** The kinds a folder holds, for compiling a query before it runs. */
export async function pulledKinds(root: string): Promise<Kind[]> {
  const manifest = await readManifest(root, []);
  if (!manifest) throw new Error(l10n.t('{0} is not a pulled folder: it has no oms.manifest.json', root));
  return manifest.scope.kinds.map(kindOf);
}

export async function queryPulledFolder(root: string, query: Query, only?: readonly Kind[]): Promise<FolderAnswer> {
  const manifest = await readManifest(root);
  if (!manifest) throw new Error(l10n.t('{0} is not a pulled folder: it has no oms.manifest.json', root));
  const progress: QueryProgress = { scanned: 0, matched: 0, pages: 0, unchangedPages: 0, failed: 0 };
  const matches: Match[] = [];
  const unreadable: FolderAnswer['unreadable'] = [];
  for (const listed of await readLocalFiles(root, manifest)) {
    if (only && !only.includes(listed.kind)) continue;
    // A file untouched since the pull is listed without its object (a plan need not parse it): read it now.
    const file = listed.object || listed.error ? listed : readLocalFile(root, listed.path, listed.folderKey, listed.kind);
    if (file.error || !file.object) {
      unreadable.push({ path: file.path, error: file.error ?? l10n.t('The file is missing') });
      continue;
    }
    progress.scanned++;
    if (query.matches(file.object)) matches.push({ kind: file.kind, folderKey: file.folderKey, key: String(file.object.Key ?? ''), object: file.object });
    else if (query.failure !== undefined) {
      progress.failed++;
      progress.firstFailure ??= query.failure;
    }
  }
  progress.matched = matches.length;
  return { matches, progress, unreadable, kinds: manifest.scope.kinds.map(kindOf) };
}
