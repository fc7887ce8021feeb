/**
 * Read-only virtual documents of runs: previews' diff sides, request listings, dry runs and results
 * (nothing asks to be saved). The provider lives as long as the extension host; texts go with each new preview.
 */
import vscode = require('vscode');

const scheme = 'oms-run';
const texts = new Map<string, string>();
let provider: vscode.Disposable | undefined;

/** A document holding `text` at `path` (a side of a diff in the query, so both sides share a name). */
export function runTextUri(path: string, text: string, side?: 'before' | 'after'): vscode.Uri {
  provider ??= vscode.workspace.registerTextDocumentContentProvider(scheme, { provideTextDocumentContent: (uri) => texts.get(uri.toString()) ?? '' });
  const uri = vscode.Uri.from({ scheme, path, ...(side ? { query: side } : {}) });
  texts.set(uri.toString(), text);
  return uri;
}

/** Forgets the texts of earlier previews (a preview of 10,000 objects keeps only what is opened). */
export function forgetRunTexts(): void {
  texts.clear();
}

/** Opens `content` read-only as `name` in `language`. */
export async function showReadOnly(name: string, content: string, language: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument(runTextUri(`/${Date.now().toString(36)}/${name}`, content));
  await vscode.window.showTextDocument(await vscode.languages.setTextDocumentLanguage(document, language), { preview: false });
}
