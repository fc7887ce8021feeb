/**
 * What a command acts on, from a tree node, an args object or the palette
 * (pickers). Nodes are recognised by shape, so args objects work the same way.
 */
import type { Connection } from '../connection/connection';
import { Kind, KindId, kind as kindOf } from '../model/kinds';
import type { BaseInfo } from '../model/types';
import { pickConnection, pickFolder, pickObject } from './pick';
import type { Services } from './services';

export interface FolderTarget {
  connection: Connection;
  folderKey: string;
}

export interface ObjectTarget extends FolderTarget {
  kind: Kind;
  key: string;
  name: string;
}

type Loose = Record<string, unknown> | undefined | null;

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

function connectionOf(s: Services, id: string | undefined): Connection | undefined {
  if (!id) return undefined;
  const c = s.connections.get(id);
  if (!c) throw new Error(`No connection "${id}"`);
  return c;
}

/**
 * A folder node, collection node or object node (`connectionId`, `folderKey`),
 * a connection node (`connection`: its root folder), args with
 * `connectionId` and `folderKey`, or else the palette pickers.
 */
export async function folderTarget(s: Services, target: unknown): Promise<FolderTarget> {
  const t = (target && typeof target === 'object' ? target : undefined) as Loose;
  const nodeConnection = (t?.connection as { id?: unknown } | undefined)?.id;
  const connection = connectionOf(s, str(t?.connectionId) ?? str(nodeConnection)) ?? (await pickConnection(s));
  const folderKey = str(t?.folderKey) ?? (t && (t.connectionId || nodeConnection) ? await connection.rootFolderKey() : await pickFolder(connection));
  return { connection, folderKey };
}

/**
 * An object node of `kindId` (`connectionId`, `folderKey`, `object`), args
 * with `connectionId`, `folderKey` and `key` (or `siteKey`...), or the pickers.
 */
export async function objectTarget(s: Services, kindId: KindId, target: unknown, keyArg = 'key'): Promise<ObjectTarget> {
  const kind = kindOf(kindId);
  const t = (target && typeof target === 'object' ? target : undefined) as Loose;
  const nodeKind = (t?.kind as { id?: unknown } | undefined)?.id;
  if (nodeKind !== undefined && nodeKind !== kindId) throw new Error(`This command works on ${kind.pluralLabel.toLowerCase()}`);
  const object = t?.object as BaseInfo | undefined;
  const key = str(object?.Key) ?? str(t?.[keyArg]) ?? str(t?.key);
  const connection = connectionOf(s, str(t?.connectionId));
  if (connection && key) {
    const folderKey = str(t?.folderKey) ?? (await connection.rootFolderKey());
    return { connection, folderKey, kind, key, name: str(object?.CommonName) ?? str(t?.name) ?? key };
  }
  const c = connection ?? (await pickConnection(s));
  const folderKey = str(t?.folderKey) ?? (await pickFolder(c));
  const picked = await pickObject(c, kind, folderKey, `${kind.label} in this folder`);
  return { connection: c, folderKey, kind, key: picked.Key ?? '', name: picked.CommonName || picked.Key || '' };
}
