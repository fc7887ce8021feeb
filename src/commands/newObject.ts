/** "New <kind>": a document pre-filled with a valid template; its first save POSTs it. */
import * as vscode from 'vscode';
import { supports, KindId, kind as kindOf, Kind } from '../model/kinds';
import { CollectionNode } from '../tree/nodes/collectionNode';
import { pickConnection, pickFolder, pickKind } from './pick';
import type { Command } from './services';

export interface NewObjectArgs {
  connectionId: string;
  folderKey: string;
  kind: KindId;
  name?: string;
}

export const newObject: Command = {
  id: 'oms.newObject',
  async run(s, target?: CollectionNode | NewObjectArgs) {
    let connectionId: string, folderKey: string, kind: Kind;
    if (target instanceof CollectionNode) {
      ({ connectionId, folderKey, kind } = target);
    } else if (target) {
      ({ connectionId, folderKey } = target);
      kind = kindOf(target.kind);
    } else {
      const connection = await pickConnection(s);
      connectionId = connection.id;
      kind = await pickKind('create', 'Kind of object to create');
      folderKey = await pickFolder(connection);
    }
    if (!supports(kind, 'create')) throw new Error(`The service cannot create ${kind.pluralLabel.toLowerCase()}`);
    const name = (target as NewObjectArgs | undefined)?.name ?? `New ${kind.label.toLowerCase()}`;
    const uri = s.fs.newDraft({ connectionId, folderKey, kind }, name);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: false });
    // Until it is created: Ctrl+S creates it (auto-save never does).
    const hint = vscode.window.setStatusBarMessage(`Edit the new ${kind.label.toLowerCase()}, then press Ctrl+S to create it`, 6000);
    const created = s.fs.onDidSaveObject((e) => {
      if (e.uri.toString() !== uri.toString()) return;
      hint.dispose();
      created.dispose();
    });
    return uri;
  },
};
