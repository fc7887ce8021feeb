/**
 * Reveal in Tree: shows an object in the Objects view, expanding the folders
 * on its way and loading its group's pages until it is there. From an open
 * object document (editor title, palette), a node, or `{ connectionId, folderKey, kind, key }`.
 */
import vscode = require('vscode');
import { placeOf } from '../../editor/targets';
import type { ObjectAddress } from '../../fs/objectUri';
import { ObjectTarget, targeted, thisObject } from '../framework/commandTargets';

export const revealInTree = targeted({
  id: 'oms.revealInTree',
  target: thisObject,
  async run(s, { address }: ObjectTarget & { address: ObjectAddress }) {
    const place = await placeOf(s, address.connectionId, address.kind, address.key, address.folderKey);
    const node = await s.tree.reveal(place);
    if (!node) throw new Error(vscode.l10n.t('"{0}" is no longer in its folder', address.key));
    return node.id;
  },
});
