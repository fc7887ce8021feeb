/** Deletes an object after confirmation, closes its editors and refreshes the tree. */
import * as vscode from 'vscode';
import { supports } from '../model/kinds';
import { ObjectAddress, sameObject, scheme } from '../fs/objectUri';
import type { ObjectNode } from '../tree/nodes/objectNode';
import type { Command, Services } from './services';

export const deleteObject: Command = {
  id: 'oms.deleteObject',
  async run(s, target?: ObjectNode | vscode.Uri, confirmed?: boolean) {
    const uri = target instanceof vscode.Uri ? target : target?.uri ?? vscode.window.activeTextEditor?.document.uri;
    const address = uri && s.fs.addressOf(uri);
    if (!address) throw new Error('Select an object in the Objects view, or open one, to delete it');
    if (!supports(address.kind, 'delete')) throw new Error(`The service cannot delete ${address.kind.pluralLabel.toLowerCase()}`);
    const name = target && !(target instanceof vscode.Uri) ? target.name : uri.path.split('/').pop()?.replace(/\.json$/, '');
    if (!confirmed) {
      const yes = 'Delete';
      const choice = await vscode.window.showWarningMessage(`Delete the ${address.kind.label.toLowerCase()} "${name}" on the server? This cannot be undone.`, { modal: true }, yes);
      if (choice !== yes) return false;
    }
    await s.fs.deleteObject(address);
    await closeEditorsOf(s, address);
    vscode.window.setStatusBarMessage(`Deleted ${address.kind.label.toLowerCase()} "${name}"`, 4000);
    return true;
  },
};

async function closeEditorsOf(s: Services, address: ObjectAddress): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((tab) => {
    const input = tab.input as { uri?: vscode.Uri } | undefined;
    const other = input?.uri?.scheme === scheme ? s.fs.addressOf(input.uri) : undefined;
    return other && sameObject(other, address);
  });
  // A tab with unsaved edits gets VS Code's own save prompt: nothing typed is dropped silently.
  await vscode.window.tabGroups.close(tabs);
}
