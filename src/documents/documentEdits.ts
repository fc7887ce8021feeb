/**
 * An object document as the save entry and live updates' Merge handle it: its name, its text read as
 * an object, and its text replaced by one undoable edit.
 */
import vscode = require('vscode');
import { documentNames } from '../fs/objectUri';
import type { BaseInfo } from '../model/types';

/** The tab's name: the object's name as the Uri carries it. */
export function documentName(uri: vscode.Uri): string {
  return documentNames(uri).object || vscode.l10n.t('Object');
}

/** The text as a JSON object; undefined when it is not one. */
export function parsed(text: string): BaseInfo | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as BaseInfo) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The document's text made `text`, as one undoable edit of only the part that differs (the text
 * before and after it kept as it is: the cursor, the selection and the folding outside it stay).
 */
export async function replaceText(uri: vscode.Uri, text: string): Promise<boolean> {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (!doc) return false;
  const now = doc.getText();
  if (now === text) return true;
  let start = 0;
  while (start < now.length && start < text.length && now[start] === text[start]) start++;
  let end = 0;
  while (end < now.length - start && end < text.length - start && now[now.length - 1 - end] === text[text.length - 1 - end]) end++;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, new vscode.Range(doc.positionAt(start), doc.positionAt(now.length - end)), text.slice(start, text.length - end));
  return vscode.workspace.applyEdit(edit);
}
