/** Review Changes: the server's current version beside the unsaved edit, before sending it. */
import * as vscode from 'vscode';
import { compareWithServer } from '../fs/serverVersion';
import { scheme } from '../fs/objectUri';
import type { Command } from './services';

export const reviewChanges: Command = {
  id: 'oms.reviewChanges',
  async run(_s, target?: vscode.Uri) {
    const uri = target instanceof vscode.Uri ? target : vscode.window.activeTextEditor?.document.uri;
    if (!uri || uri.scheme !== scheme) throw new Error(vscode.l10n.t('Open an object document to review its changes'));
    await compareWithServer(uri);
  },
};
