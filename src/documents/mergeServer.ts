/**
 * Live updates' Merge of the server's changes into an editor's unsaved text: loaded with live
 * updates' followers (followDocuments.ts), not at activation with the save entry.
 */
import vscode = require('vscode');
import type { ObjectFileSystem } from '../fs/objectFileSystem';
import type { BaseInfo } from '../model/types';
import type { MergeChoices } from '../changes/merge3';
import { documentText } from '../save/documentForm';
import { notify } from '../ui/notify';
import { documentName, parsed, replaceText } from './documentEdits';
import type { FieldChoices } from './saves';

/**
 * Takes the server's changes into a document with unsaved edits, without saving (live updates' Merge):
 * the three-way merge of its base, its text and the server's object, asking per field only where both
 * changed. The merge becomes one undoable edit of the text as it is then (typing during a question is
 * merged too, never replaced), and only once the edit is in does the server's object become the base,
 * so the next save meets no conflict. Undefined when nothing was merged (not JSON, the user stopped at
 * a question, the document closed).
 */
export async function mergeServer(
  uri: vscode.Uri,
  objectFiles: ObjectFileSystem,
  chooseFields: FieldChoices,
): Promise<{ object: BaseInfo; tookTheirs: string[] } | undefined> {
  const address = objectFiles.addressOf(uri);
  const server = address && (await objectFiles.serverObject(uri));
  const { merge3 } = await import('../changes/merge3');
  let choices: MergeChoices = {};
  // Again while the text changed under the merge (a question answered, a keystroke while the edit was applied).
  for (let attempt = 0; attempt < 5; attempt++) {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    const base = objectFiles.baseOf(uri);
    if (!doc || doc.isClosed || !base || !server) return undefined;
    const mine = parsed(doc.getText());
    if (!address || !mine) {
      notify(
        'warning',
        vscode.l10n.t('"{0}": the server\'s changes cannot be merged in, the text is not a JSON object. Fix it, or Compare.', documentName(uri)),
      );
      return undefined;
    }
    const merge = merge3(address.kind, base, mine, server, choices);
    if (merge.conflicts.length) {
      const chosen = await chooseFields(documentName(uri), merge.conflicts, uri, mine);
      if (!chosen) return undefined;
      choices = { ...choices, ...chosen };
      continue;
    }
    if (!(await replaceText(uri, documentText(merge.merged)))) continue;
    objectFiles.rebase(uri, server, { keepMtime: true });
    return { object: server, tookTheirs: merge.tookTheirs };
  }
  notify('warning', vscode.l10n.t('"{0}": the server\'s changes were not merged in, the text kept changing. Merge again, or Compare.', documentName(uri)));
  return undefined;
}
