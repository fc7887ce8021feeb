/** "New <kind>": a document pre-filled with a valid template; its first save POSTs it. */
import vscode = require('vscode');
import type { KindId } from '../../model/kinds';
import { showJson } from '../../ui/showJson';
import { folderNameOf } from '../../editor/targets';
import { CollectionTarget, collectionTarget, requireOperation, targeted } from '../framework/commandTargets';
import { kindLabel } from '../../l10n';

export interface NewObjectArgs {
  connectionId: string;
  folderKey: string;
  kind: KindId;
  name?: string;
}

export const newObject = targeted({
  id: 'oms.newObject',
  target: (s, arg) => collectionTarget(s, arg, 'create'),
  async run(s, { connection, folderKey, kind }: CollectionTarget, args?: Partial<NewObjectArgs>) {
    requireOperation(kind, 'create');
    const name = args?.name ?? vscode.l10n.t('New {0}', kindLabel(kind).toLowerCase());
    const uri = s.objectFiles.newDraft({ connectionId: connection.id, folderKey, kind }, name, await folderNameOf(s, connection.id, folderKey));
    await showJson(uri, { preview: false });
    // Until it is created: Ctrl+S creates it (auto-save never does).
    const hint = vscode.window.setStatusBarMessage(vscode.l10n.t('Edit the new {0}, then press Ctrl+S to create it', kindLabel(kind).toLowerCase()), 6000);
    const created = s.saves.onDidSaveDocument((e) => {
      if (e.uri.toString() !== uri.toString()) return;
      hint.dispose();
      created.dispose();
    });
    return uri;
  },
});
