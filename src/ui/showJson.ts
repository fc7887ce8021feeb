/** Opens an object document (or a draft) in an editor, in the object language. */
import vscode = require('vscode');
import { objectLanguage } from '../fs/objectUri';

export async function showJson(uri: vscode.Uri, options: { preview: boolean; viewColumn?: vscode.ViewColumn }): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(uri);
  // A name the language's path patterns miss (or a files.associations setting) must not lose the
  // schema squiggles and the language's auto-save default.
  const shown = doc.languageId === objectLanguage ? doc : await vscode.languages.setTextDocumentLanguage(doc, objectLanguage);
  return vscode.window.showTextDocument(shown, { preview: options.preview, viewColumn: options.viewColumn });
}
