/** Read-only documents of earlier versions from the save history, for the diff beside the server's. */
import vscode = require('vscode');
import type { BaseInfo } from '../model/types';
import { documentText } from '../save/documentForm';

const historyScheme = 'oms-history';
const texts = new Map<string, string>();
let next = 0;

export function registerHistoryDocuments(): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(historyScheme, {
    provideTextDocumentContent: (uri) => texts.get(uri.query) ?? '',
  });
}

/** A document showing `object` as an object document would, named `name`. */
export function historyUri(object: BaseInfo, name: string): vscode.Uri {
  const id = String(next++);
  texts.set(id, documentText(object));
  return vscode.Uri.from({ scheme: historyScheme, path: `/${name.replace(/[\\/:*?"<>|#%]+/g, '_')}.json`, query: id });
}
