/** Opens a document as JSON in an editor (an object document, a draft, failed items). */
import * as vscode from 'vscode';

export async function showJson(uri: vscode.Uri, options: { preview: boolean }): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(uri);
  // A name that does not end in .json (or a language setting) must not lose the schema squiggles.
  const json = doc.languageId === 'json' ? doc : await vscode.languages.setTextDocumentLanguage(doc, 'json');
  return vscode.window.showTextDocument(json, { preview: options.preview });
}
