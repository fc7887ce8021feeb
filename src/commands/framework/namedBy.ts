/**
 * What a command's argument names by its fields, read one way for tree nodes
 * and args objects alike: the connection (`connectionId` on folder, group and
 * object nodes and in args; `connection.id` on a connection node; or the
 * argument itself when it is a string), `folderKey`, the kind (a Kind on
 * nodes, a KindId in args), the object's key (`object.Key` on an object node,
 * `key` or a command's own field such as `siteKey` in args) and its name.
 * Plain TypeScript; `commandTargets.ts` fills in the rest with the pickers.
 */
import { Kind, KindId, kind as kindOf } from '../../model/kinds';

export interface Named {
  connectionId?: string;
  folderKey?: string;
  kind?: Kind;
  key?: string;
  name?: string;
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

export function namedBy(arg: unknown, keyArg = 'key'): Named {
  if (typeof arg === 'string') return { connectionId: str(arg) };
  if (!arg || typeof arg !== 'object') return {};
  const t = arg as Record<string, unknown>;
  const object = t.object as { Key?: unknown; CommonName?: unknown } | undefined;
  return {
    connectionId: str(t.connectionId) ?? str((t.connection as { id?: unknown } | undefined)?.id),
    folderKey: str(t.folderKey),
    kind: kindIn(t.kind),
    key: str(object?.Key) ?? str(t[keyArg]) ?? str(t.key),
    name: str(object?.CommonName) ?? str(t.name),
  };
}

/** A Kind (nodes) or a KindId (args); an unknown id is an error, not a silent pick. */
function kindIn(k: unknown): Kind | undefined {
  const id = typeof k === 'string' ? k : (k as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? kindOf(id as KindId) : undefined;
}
