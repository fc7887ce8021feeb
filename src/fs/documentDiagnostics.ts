/**
 * Problems the JSON schema cannot see, flagged while typing in object
 * documents: edits of fields that identify the object ($type, Key, Href,
 * folder) and of fields a PUT does not store (Notes, Links). A save with
 * either is refused. Schema problems come from the jsonValidation contribution.
 */
import * as vscode from 'vscode';
import type { BaseInfo } from '../model/types';
import { unsendable } from '../save/saveObject';
import { locate } from '../validation/locate';
import type { ObjectFileSystem } from './objectFileSystem';
import { scheme } from './objectUri';

export function registerDocumentDiagnostics(fs: ObjectFileSystem): vscode.Disposable {
  const collection = vscode.languages.createDiagnosticCollection('oms');
  const check = (doc: vscode.TextDocument) => {
    if (doc.uri.scheme !== scheme) return;
    const original = fs.baseOf(doc.uri);
    let edited: unknown;
    try {
      edited = JSON.parse(doc.getText()) as BaseInfo;
    } catch {
      return collection.delete(doc.uri); // syntax errors are the JSON language's to show
    }
    if (!original || typeof edited !== 'object' || !edited || Array.isArray(edited)) return collection.delete(doc.uri);
    const problem = unsendable(original, edited as BaseInfo);
    const text = doc.getText();
    collection.set(doc.uri, (problem?.pointers ?? []).map((pointer) => {
      const at = locate(text, pointer) ?? { offset: 0, length: 1 };
      const range = new vscode.Range(doc.positionAt(at.offset), doc.positionAt(at.offset + at.length));
      const diagnostic = new vscode.Diagnostic(range, `${pointer.slice(1)}: ${problem!.message}`, vscode.DiagnosticSeverity.Error);
      diagnostic.source = 'oms';
      return diagnostic;
    }));
  };
  vscode.workspace.textDocuments.forEach(check);
  return vscode.Disposable.from(
    collection,
    vscode.workspace.onDidOpenTextDocument(check),
    vscode.workspace.onDidChangeTextDocument((e) => check(e.document)),
    vscode.workspace.onDidCloseTextDocument((doc) => collection.delete(doc.uri)),
    fs.onDidSaveObject(({ uri }) => {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      if (doc) check(doc);
    }),
  );
}
