/** Folders named as people know them: by CommonName, the key only when no name is known. */
import type { FolderTarget } from './commandTargets';

async function folderName(where: FolderTarget): Promise<string> {
  const folder = await where.connection.client.folder(where.folderKey).catch(() => undefined);
  return folder?.CommonName || where.folderKey;
}

/** `"Head Office" on Local sandbox`. */
export async function placeText(where: FolderTarget): Promise<string> {
  return `"${await folderName(where)}" on ${where.connection.info.label}`;
}
