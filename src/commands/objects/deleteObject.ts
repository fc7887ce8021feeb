/** Deletes an object after confirmation (naming unsaved edits in its editors), closes its editors and refreshes the tree. */
import vscode = require('vscode');
import { ObjectAddress, sameObject } from '../../fs/objectUri';
import { discardAndClose, objectDocuments, unsavedNote } from '../../documents/closeDocuments';
import { ObjectTarget, objectTarget, requireOperation, targeted } from '../framework/commandTargets';

export const deleteObject = targeted({
  id: 'oms.deleteObject',
  // From the tree, a Uri (the editor title menu, tests), or the document in the active editor.
  target: (s, arg) => {
    const given = arg ?? vscode.window.activeTextEditor?.document.uri;
    if (!given) throw new Error(vscode.l10n.t('Select an object in the Objects view, or open one, to delete it'));
    return objectTarget(s, undefined, given);
  },
  async run(s, o: ObjectTarget, _target: unknown, confirmed?: boolean) {
    requireOperation(o.kind, 'delete');
    const address: ObjectAddress = { connectionId: o.connection.id, folderKey: o.folderKey, kind: o.kind, key: o.key };
    const isIt = (uri: vscode.Uri) => {
      const a = s.objectFiles.addressOf(uri);
      return !!a && sameObject(a, address);
    };
    if (!confirmed) {
      const yes = vscode.l10n.t('Delete');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('Delete the {0} "{1}" on the server? This cannot be undone.', o.kind.label.toLowerCase(), o.name),
        { modal: true, detail: unsavedNote(objectDocuments(isIt).dirty) },
        yes,
      );
      if (choice !== yes) return false;
    }
    // Closed first, while the object can still be read: no "save changes?" into a save of a deleted object.
    await discardAndClose(isIt);
    await s.saves.delete(address);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Deleted {0} "{1}"', o.kind.label.toLowerCase(), o.name), 4000);
    return true;
  },
});
