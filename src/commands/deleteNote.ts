/**
 * Delete Note: removes one note of an object (`DELETE .../notes/{noteKey}`),
 * after a confirmation that quotes it. From a note in the tree, or
 * `{ connectionId, folderKey, kind, key, noteKey }` (no confirmation).
 */
import * as vscode from 'vscode';
import { kind as kindOf } from '../model/kinds';
import { NoteNode } from '../tree/nodes/noteNode';
import type { ObjectArgs } from './commandTargets';
import { notify } from '../ui/notify';
import type { Command } from './services';

export const deleteNote: Command = {
  id: 'oms.deleteNote',
  async run(s, target: NoteNode | (ObjectArgs & { noteKey: string })): Promise<boolean> {
    const fromTree = target instanceof NoteNode;
    const address = fromTree ? target.parent.address : { ...target, kind: kindOf(target.kind) };
    const noteKey = fromTree ? target.note.Key : target.noteKey;
    if (!noteKey) throw new Error(vscode.l10n.t('This note has no key, so it cannot be deleted'));
    const name = fromTree ? target.parent.name : address.key;
    if (fromTree) {
      const text = (target.note.NoteText ?? '').trim();
      const quoted = text.length > 80 ? `${text.slice(0, 80)}…` : text;
      const remove = vscode.l10n.t('Delete');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('Delete the note "{0}" of "{1}"?', quoted, name),
        { modal: true, detail: vscode.l10n.t('Written by {0}. This cannot be undone.', target.author) }, remove,
      );
      if (choice !== remove) return false;
    }
    await s.connections.require(address.connectionId).client.deleteNote(address.kind, address.folderKey, address.key, noteKey);
    s.tree.notesChanged(address);
    notify('info', vscode.l10n.t('Note deleted from "{0}".', name));
    return true;
  },
};
