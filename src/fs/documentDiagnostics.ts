/**
 * Problems the JSON schema cannot see, shown while typing in object documents:
 * edits of fields that identify the object ($type, Key, Href, folder), which a
 * save would refuse. Schema problems come from the jsonValidation contribution.
 */
import * as vscode from 'vscode';
import { changedImmutableFields } from '../model/saveChecks';
import type { BaseInfo } from '../model/types';
import { locate } from '../validation/locate';
import type { ObjectFileSystem } from './objectFileSystem';
import { scheme } from './objectUri';

export function registerDocumentDiagnostics(fs: ObjectFileSystem): vscode.Disposable {
  const collection = vscode.languages.createDiagnosticCollection('oms');
  const check = (doc: vscode.TextDocument) => {
    if (doc.uri.scheme !== scheme) return;
    const original = fs.lastRead(doc.uri);
    let edited: BaseInfo;
    try {
      edited = JSON.parse(doc.getText()) as BaseInfo;
    } catch {
      return collection.delete(doc.uri); // syntax errors are the JSON language's to show
    }
    if (!original || typeof edited !== 'object' || !edited) return collection.delete(doc.uri);
    const text = doc.getText();
    collection.set(doc.uri, changedImmutableFields(original, edited).map((field) => {
      const at = locate(text, `/${field === '$type' ? '$type' : field}`) ?? { offset: 0, length: 1 };
      const range = new vscode.Range(doc.positionAt(at.offset), doc.positionAt(at.offset + at.length));
      const diagnostic = new vscode.Diagnostic(range, `${field} cannot be changed: it identifies the object (the server has ${JSON.stringify(original[field])}). A save will be refused.`, vscode.DiagnosticSeverity.Error);
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
    fs.onDidChangeFile((events) => events.forEach((e) => {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === e.uri.toString());
      if (doc) check(doc);
    })),
  );
}
