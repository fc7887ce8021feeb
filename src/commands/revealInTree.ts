/**
 * Reveal in Tree: shows an object in the Objects view, expanding the folders
 * on its way and loading its group's pages until it is there. From an open
 * object document (editor title, palette) or `{ connectionId, folderKey, kind, key }`.
 */
import * as vscode from 'vscode';
import { placeOf } from '../editor/targets';
import { kind as kindOf } from '../model/kinds';
import type { ObjectArgs } from './commandTargets';
import type { Command } from './services';

export const revealInTree: Command = {
  id: 'oms.revealInTree',
  async run(s, target?: vscode.Uri | ObjectArgs) {
    const uri = target instanceof vscode.Uri ? target : target ? undefined : vscode.window.activeTextEditor?.document.uri;
    const address = uri ? s.fs.addressOf(uri) : target && !(target instanceof vscode.Uri) ? { ...target, kind: kindOf(target.kind) } : undefined;
    if (!address) throw new Error(vscode.l10n.t('Open an object first: Reveal in Tree shows the object of the active editor'));
    const place = await placeOf(s, address.connectionId, address.kind, address.key, address.folderKey);
    const node = await s.tree.reveal(place);
    if (!node) throw new Error(vscode.l10n.t('"{0}" is no longer in its folder', address.key));
    return node.id;
  },
};
