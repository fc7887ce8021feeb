/**
 * The table's one way to write an object, with a typed outcome. Today it goes
 * through the object file system's save (schema, identifying fields, version
 * check, PUT, read back); it is the single call to switch to the shared save
 * operation of src/save/ when that lands.
 */
import type { Services } from '../commands/services';
import { documentUriOf, ObjectAddress } from '../fs/objectUri';
import { prettyJson } from '../model/saveChecks';
import type { BaseInfo } from '../model/types';

export type SaveOutcome =
  | { outcome: 'saved'; object: BaseInfo }
  | { outcome: 'conflict'; server: BaseInfo }
  | { outcome: 'refused'; reason: string };

export async function saveObject(s: Services, address: ObjectAddress, basedOn: number | null, edited: BaseInfo): Promise<SaveOutcome> {
  const connection = s.connections.get(address.connectionId);
  if (!connection) return { outcome: 'refused', reason: 'the connection was removed' };
  const server = await connection.client.get(address.kind, address.folderKey, address.key);
  if ((server.ConcurrencyVersion ?? null) !== basedOn) return { outcome: 'conflict', server };
  const uri = documentUriOf(address, server.CommonName ?? address.key);
  try {
    await s.fs.writeFile(uri, new TextEncoder().encode(prettyJson(edited)));
  } catch (e) {
    return { outcome: 'refused', reason: (e as Error).message.replace(/\s*\((FileSystemError|Unknown)\)$/, '') };
  }
  return { outcome: 'saved', object: s.fs.lastRead(uri) ?? (await connection.client.get(address.kind, address.folderKey, address.key)) };
}
