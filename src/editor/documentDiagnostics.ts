/**
 * Problems the JSON schema cannot see, flagged while typing in object
 * documents: edits of fields that identify the object ($type, Key, Href,
 * folder) and of fields a PUT does not store (Notes, Links). A save with
 * either is refused. Schema problems come from the jsonValidation contribution
 * as you type, and from here as errors (a missing required property is only a
 * warning there, yet the save refuses it).
 */
import vscode = require('vscode');
import type { ObjectFileSystem } from '../fs/objectFileSystem';
import { parseObjectUri, scheme } from '../fs/objectUri';

export function registerDocumentDiagnostics(objectFiles: ObjectFileSystem): vscode.Disposable {
  const collection = vscode.languages.createDiagnosticCollection('oms');
  const check = async (doc: vscode.TextDocument) => {
    if (doc.uri.scheme !== scheme) return;
    const original = objectFiles.baseOf(doc.uri);
    if (!original) return collection.delete(doc.uri);
    const version = doc.version;
    const problems = (await import('./documentProblems')).documentProblems(original, doc.getText(), parseObjectUri(doc.uri)?.kind.schema);
    // Typed on meanwhile: the check of the newer text decides.
    if (doc.version !== version || doc.isClosed) return;
    collection.set(
      doc.uri,
      (problems ?? []).map((p) => {
        const range = new vscode.Range(doc.positionAt(p.offset), doc.positionAt(p.offset + p.length));
        const diagnostic = new vscode.Diagnostic(range, p.pointer ? `${p.pointer.slice(1)}: ${p.message}` : p.message, vscode.DiagnosticSeverity.Error);
        diagnostic.source = 'oms';
        return diagnostic;
      }),
    );
  };
  vscode.workspace.textDocuments.forEach((doc) => void check(doc));
  return vscode.Disposable.from(
    collection,
    vscode.workspace.onDidOpenTextDocument((doc) => void check(doc)),
    vscode.workspace.onDidChangeTextDocument((e) => void check(e.document)),
    vscode.workspace.onDidCloseTextDocument((doc) => collection.delete(doc.uri)),
    objectFiles.onDidChangeBase((uri) => {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      if (doc) void check(doc);
    }),
  );
}
