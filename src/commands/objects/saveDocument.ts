/**
 * Save of an object document for the palette and scripts: VS Code's own save
 * (what Ctrl+S runs), whose write hands the text to the save entry
 * (documents/saves.ts) once. True when the document is saved. Other documents
 * get VS Code's own save.
 */
import vscode = require('vscode');
import { scheme } from '../../fs/objectUri';
import type { Command } from '../framework/command';

export const saveDocument: Command = {
  id: 'oms.save',
  async run(_s, target?: vscode.Uri): Promise<boolean> {
    const doc = target ? await vscode.workspace.openTextDocument(target) : vscode.window.activeTextEditor?.document;
    if (!doc || doc.uri.scheme !== scheme) {
      await vscode.commands.executeCommand('workbench.action.files.save');
      return true;
    }
    return (await doc.save()) && !doc.isDirty;
  },
};
