/** Deletes an object after confirmation, closes its editors and refreshes the tree. */
import * as vscode from 'vscode';
import { ObjectAddress, sameObject, scheme } from '../fs/objectUri';
import { ObjectTarget, objectTarget, requireOperation, targeted } from './commandTargets';
import type { Services } from './services';

export const deleteObject = targeted({
  id: 'oms.deleteObject',
  // From the tree, a Uri (the editor title menu, tests), or the document in the active editor.
  target: (s, arg) => {
    const given = arg ?? vscode.window.activeTextEditor?.document.uri;
    if (!given) throw new Error('Select an object in the Objects view, or open one, to delete it');
    return objectTarget(s, undefined, given);
  },
  async run(s, o: ObjectTarget, _target: unknown, confirmed?: boolean) {
    requireOperation(o.kind, 'delete');
    if (!confirmed) {
      const yes = 'Delete';
      const choice = await vscode.window.showWarningMessage(`Delete the ${o.kind.label.toLowerCase()} "${o.name}" on the server? This cannot be undone.`, { modal: true }, yes);
      if (choice !== yes) return false;
    }
    const address: ObjectAddress = { connectionId: o.connection.id, folderKey: o.folderKey, kind: o.kind, key: o.key };
    await s.saves.delete(address);
    await closeEditorsOf(s, address);
    vscode.window.setStatusBarMessage(`Deleted ${o.kind.label.toLowerCase()} "${o.name}"`, 4000);
    return true;
  },
});

async function closeEditorsOf(s: Services, address: ObjectAddress): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((tab) => {
    const input = tab.input as { uri?: vscode.Uri } | undefined;
    const other = input?.uri?.scheme === scheme ? s.fs.addressOf(input.uri) : undefined;
    return other && sameObject(other, address);
  });
  // A tab with unsaved edits gets VS Code's own save prompt: nothing typed is dropped silently.
  await vscode.window.tabGroups.close(tabs);
}
