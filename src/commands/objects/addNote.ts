/**
 * Add Note…: adds a note to an object with a POST (a PUT of the object never
 * changes its notes). From an object in the tree, an open object document
 * (editor title, palette) or `{ connectionId, folderKey, kind, key, text }`
 * (no prompt). The object's notes in the tree are reloaded.
 */
import vscode = require('vscode');
import type { NoteInfo } from '../../model/types';
import { notify } from '../../ui/notify';
import { ObjectArgs, ObjectTarget, targeted, thisObject } from '../framework/commandTargets';
import type { ObjectAddress } from '../../fs/objectUri';

interface AddNoteArgs extends ObjectArgs {
  text?: string;
}

export const addNote = targeted({
  id: 'oms.addNote',
  target: thisObject,
  async run(s, { address, name, connection }: ObjectTarget & { address: ObjectAddress }, arg?: unknown): Promise<NoteInfo | undefined> {
    let text = (arg as AddNoteArgs | undefined)?.text;
    text ??= await vscode.window.showInputBox({
      title: vscode.l10n.t('Add Note to "{0}"', name),
      prompt: vscode.l10n.t('The note is added at once (a POST); notes are kept in the order they were added'),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Type the note')),
    });
    if (text === undefined) return undefined;
    const note = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Adding a note to "{0}"', name) }, () =>
      connection.client.addNote(address.kind, address.folderKey, address.key, text.trim()),
    );
    s.tree.notesChanged(address);
    notify('info', vscode.l10n.t('Note added to "{0}".', name));
    return note;
  },
});
