/** `oms diff <folder> <key-or-file>`: one object's file against the service's version, field by field (secrets masked). */
import * as path from 'node:path';
import { ApiError } from '../api/errors';
import { fieldChanges, fileForm, FieldChange } from '../changes/code/fileForm';
import { readLocalFile } from '../changes/code/localFiles';
import { maskChange } from '../changes/code/planFile';
import { kind as kindOf } from '../model/kinds';
import type { BaseInfo } from '../model/types';
import type { Parsed } from './args';
import { CliError, exitCodes } from './exit';
import { pulledFolder, serviceOf } from './folder';
import { shown } from './planValues';
import { l10n } from '../l10n';

export async function diffCommand({ positionals: [folder, target], values }: Parsed): Promise<number> {
  const { root, manifest } = await pulledFolder(folder);
  const key = keyOf(root, manifest.objects, target);
  const pulled = manifest.objects.get(key)!;
  const kind = kindOf(pulled.kind);
  const { connection } = await serviceOf({ root, manifest }, values);
  const file = readLocalFile(root, pulled.path, pulled.folderKey, kind);
  if (file.error && file.error !== 'missing') throw new CliError(l10n.t('{0}: the file is {1}: fix it or restore it from git', pulled.path, file.error));
  let live: BaseInfo | undefined;
  try {
    live = await connection.client.get(kind, pulled.folderKey, key);
  } catch (e) {
    if (!(e instanceof ApiError && e.kind === 'notFound')) throw e;
  }
  const server = live ? l10n.t('the service, version {0}', live.ConcurrencyVersion ?? '?') : l10n.t('the service: gone');
  const here = file.object ? pulled.path : l10n.t('{0}: deleted here', pulled.path);
  const changes: FieldChange[] = fieldChanges(live ? fileForm(kind, live) : {}, file.object ?? {}).map((c) => maskChange(kind, c));
  process.stdout.write(`--- ${server}\n+++ ${here}\n`);
  for (const c of changes) process.stdout.write(`${c.pointer || '/'}: ${shown(c.from, 200)} -> ${shown(c.to, 200)}\n`);
  if (!changes.length) process.stdout.write(`${l10n.t('No difference.')}\n`);
  return changes.length ? exitCodes.changes : exitCodes.ok;
}

/** A Key of the manifest, or a file of the folder (a path from here or from the folder, kept inside it). */
function keyOf(root: string, objects: ReadonlyMap<string, { path: string }>, target: string): string {
  if (objects.has(target)) return target;
  for (const candidate of [path.resolve(target), path.resolve(root, target)]) {
    const rel = path.relative(root, candidate);
    if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
    const wanted = rel.split(path.sep).join('/');
    const found = [...objects].find(([, o]) => o.path === wanted);
    if (found) return found[0];
  }
  throw new CliError(l10n.t('{0} is neither a Key nor a file pulled into this folder', target));
}
