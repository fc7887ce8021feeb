/**
 * Opens an object as a JSON document: from the tree, an `oms:` Uri, args
 * (`{ connectionId, folderKey, kind, key, name? }`: where `oms.newObject`
 * would create one, plus its key), or picked from the palette.
 */
import { openObjectDocument } from '../../editor/targets';
import { ObjectTarget, objectTarget, targeted } from '../framework/commandTargets';
export const openObject = targeted({
  id: 'oms.openObject',
  target: (s, arg) => objectTarget(s, undefined, arg),
  run: (s, o: ObjectTarget) => openObjectDocument(s, { connectionId: o.connection.id, folderKey: o.folderKey, kind: o.kind, key: o.key }, o.name),
});
