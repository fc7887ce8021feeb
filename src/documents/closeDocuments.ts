/**
 * Closes the editors of objects that go away (a deleted object, a removed
 * connection) without VS Code's "save changes?" (whose save would reach an
 * object or connection that is gone): the caller has asked the user, naming
 * the unsaved edits, first.
 */
import vscode = require('vscode');
import { documentNames, scheme } from '../fs/objectUri';

/** The open object documents `match` selects, and which of them hold unsaved edits. */
export function objectDocuments(match: (uri: vscode.Uri) => boolean): { all: vscode.Uri[]; dirty: vscode.TextDocument[] } {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => (t.input instanceof vscode.TabInputText ? t.input.uri : undefined));
  const all = tabs.filter((uri): uri is vscode.Uri => uri?.scheme === scheme && match(uri));
  const dirty = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === scheme && d.isDirty && match(d.uri));
  return { all, dirty };
}

/** A line for a confirmation: "2 with unsaved edits: A, B (their edits are discarded)", or nothing. */
export function unsavedNote(dirty: readonly vscode.TextDocument[]): string | undefined {
  if (!dirty.length) return undefined;
  const names = dirty.map((d) => documentNames(d.uri).object).join(', ');
  return vscode.l10n.t('Unsaved edits in {0} will be discarded and the editor closed.', names);
}

/** Discards the edits of the matching documents, then closes their tabs. */
export async function discardAndClose(match: (uri: vscode.Uri) => boolean): Promise<void> {
  const { dirty } = objectDocuments(match);
  for (const doc of dirty) {
    await vscode.window.showTextDocument(doc, { preview: false });
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  const tabs = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === scheme && match(t.input.uri));
  await vscode.window.tabGroups.close(tabs);
}
