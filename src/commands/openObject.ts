/** Opens an object as a JSON document (from the tree, or picked from the palette). */
import * as vscode from 'vscode';
import { kind as kindOf } from '../model/kinds';
import type { NewObjectArgs } from './newObject';
import { objectUri } from '../fs/objectUri';
import type { ObjectNode } from '../tree/nodes/objectNode';
import { pickConnection, pickFolder, pickKind, pickObject } from './pick';
import type { Command } from './services';

/** An object by address: where `oms.newObject` would create one, plus its key. */
export interface OpenObjectArgs extends NewObjectArgs {
  key: string;
}

export const openObject: Command = {
  id: 'oms.openObject',
  async run(s, target?: ObjectNode | OpenObjectArgs) {
    let uri: vscode.Uri;
    if (target && 'uri' in target) {
      uri = target.uri;
    } else if (target) {
      uri = objectUri({ connectionId: target.connectionId, folderKey: target.folderKey, kind: kindOf(target.kind), key: target.key }, target.name ?? target.key);
    } else {
      const connection = await pickConnection(s);
      const kind = await pickKind('list', 'Kind of object');
      const folderKey = await pickFolder(connection);
      const object = await pickObject(connection, kind, folderKey);
      uri = objectUri({ connectionId: connection.id, folderKey, kind, key: object.Key ?? '' }, object.CommonName ?? '');
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: true });
    return uri;
  },
};
