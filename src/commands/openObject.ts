/**
 * Opens an object as a JSON document: from the tree, an `oms:` Uri, args
 * (`{ connectionId, folderKey, kind, key, name? }`: where `oms.newObject`
 * would create one, plus its key), or picked from the palette.
 */
import { objectUri } from '../fs/objectUri';
import { showJson } from '../ui/showJson';
import { ObjectTarget, objectTarget, targeted } from './commandTargets';
export const openObject = targeted({
  id: 'oms.openObject',
  target: (s, arg) => objectTarget(s, undefined, arg),
  async run(_s, o: ObjectTarget) {
    const uri = objectUri({ connectionId: o.connection.id, folderKey: o.folderKey, kind: o.kind, key: o.key }, o.name);
    await showJson(uri, { preview: true });
    return uri;
  },
});
