/** Creating objects: used by the collection handler, the people batch and the seed. */
import type { Kind } from '../../model/kinds';
import { namingOf } from '../../model/typeName';
import type { BaseInfo } from '../../model/types';
import { keyAddresses, placeObject } from './objects';
import type { Store } from './store';

/** Places a validated new object in a folder (Key, Href, version 1, links) and stores it. */
export function createObject(ctx: { store: Store; newKey: () => string }, kind: Kind, folderKey: string, body: BaseInfo): BaseInfo {
  const store = ctx.store;
  const placed = placeObject(body, {
    kind,
    folderKey,
    key: ctx.newKey(),
    version: 1,
    naming: namingOf(body),
    instance: { key: store.instanceKey, name: String(store.instance.CommonName ?? '') },
  });
  keyAddresses(placed, ctx.newKey);
  store.insert(kind.id, placed);
  return placed;
}
