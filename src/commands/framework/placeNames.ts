/**
 * How a place reads in a message (`"Head Office" on Local sandbox`): folders by
 * CommonName, the key only when no name is known. Not to be confused with
 * `namedBy.ts`, which reads what a command's argument names.
 */
import vscode = require('vscode');
import type { FolderTarget } from './commandTargets';

async function folderName(where: FolderTarget): Promise<string> {
  const folder = await where.connection.client.folder(where.folderKey).catch(() => undefined);
  return folder?.CommonName || where.folderKey;
}

/** `"Head Office" on Local sandbox`. */
export async function placeText(where: FolderTarget): Promise<string> {
  return vscode.l10n.t('"{0}" on {1}', await folderName(where), where.connection.info.label);
}
