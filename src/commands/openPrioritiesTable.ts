/**
 * Scanner Priorities Table: an input scanner's eight reporting priorities as
 * an editable table (src/webview/prioritiesTable.ts). From a scanner in the
 * tree, an open scanner document (editor title), the palette (pickers) or
 * `{ connectionId, folderKey, key }`.
 */
import * as vscode from 'vscode';
import { PrioritiesTable } from '../webview/prioritiesTable';
import { objectTarget } from './commandTargets';
import type { Command } from './services';

export const openPrioritiesTable: Command = {
  id: 'oms.openPrioritiesTable',
  async run(s, target?: unknown) {
    const uri = target instanceof vscode.Uri ? target : target ? undefined : vscode.window.activeTextEditor?.document.uri;
    const fromDocument = uri && s.objectFiles.addressOf(uri);
    if (fromDocument && fromDocument.kind.id !== 'inputScanner') throw new Error(vscode.l10n.t('The priorities table is for input scanners'));
    const address = fromDocument ?? await (async () => {
      const t = await objectTarget(s, 'inputScanner', target);
      return { connectionId: t.connection.id, folderKey: t.folderKey, kind: t.kind, key: t.key };
    })();
    PrioritiesTable.show(s, address);
  },
};
