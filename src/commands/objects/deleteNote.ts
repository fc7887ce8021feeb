/**
 * Delete Note: removes one note of an object (`DELETE .../notes/{noteKey}`),
 * after a confirmation that quotes it. From a note in the tree, or
 * `{ connectionId, folderKey, kind, key, noteKey }` (no confirmation).
 */
import vscode = require('vscode');
import { NoteTarget, noteTarget, targeted } from '../framework/commandTargets';
import { notify } from '../../ui/notify';

export const deleteNote = targeted({
  id: 'oms.deleteNote',
  target: noteTarget,
  async run(s, { address, noteKey, name, node }: NoteTarget): Promise<boolean> {
    // From the tree the user confirms the note quoted; args (scripts) are the decision already.
    if (node) {
      const text = (node.note.NoteText ?? '').trim();
      const quoted = text.length > 80 ? `${text.slice(0, 80)}…` : text;
      const remove = vscode.l10n.t('Delete');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('Delete the note "{0}" of "{1}"?', quoted, name),
        { modal: true, detail: vscode.l10n.t('Written by {0}. This cannot be undone.', node.author) },
        remove,
      );
      if (choice !== remove) return false;
    }
    await s.connections.require(address.connectionId).client.deleteNote(address.kind, address.folderKey, address.key, noteKey);
    s.tree.notesChanged(address);
    notify('info', vscode.l10n.t('Note deleted from "{0}".', name));
    return true;
  },
});
