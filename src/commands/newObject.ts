/** "New <kind>": a document pre-filled with a valid template; its first save POSTs it. */
import * as vscode from 'vscode';
import type { KindId } from '../model/kinds';
import { showJson } from '../ui/showJson';
import { CollectionTarget, collectionTarget, requireOperation, targeted } from './commandTargets';

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
    const name = args?.name ?? `New ${kind.label.toLowerCase()}`;
    const uri = s.objectFiles.newDraft({ connectionId: connection.id, folderKey, kind }, name);
    await showJson(uri, { preview: false });
    // Until it is created: Ctrl+S creates it (auto-save never does).
    const hint = vscode.window.setStatusBarMessage(`Edit the new ${kind.label.toLowerCase()}, then press Ctrl+S to create it`, 6000);
    const created = s.saves.onDidSaveDocument((e) => {
      if (e.uri.toString() !== uri.toString()) return;
      hint.dispose();
      created.dispose();
    });
    return uri;
  },
});
