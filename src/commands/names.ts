/** Folders named as people know them: by CommonName, the key only when no name is known. */
import * as vscode from 'vscode';
import type { FolderTarget } from './commandTargets';

async function folderName(where: FolderTarget): Promise<string> {
  const folder = await where.connection.client.folder(where.folderKey).catch(() => undefined);
  return folder?.CommonName || where.folderKey;
}

/** `"Head Office" on Local sandbox`. */
export async function placeText(where: FolderTarget): Promise<string> {
  return vscode.l10n.t('"{0}" on {1}', await folderName(where), where.connection.info.label);
}
