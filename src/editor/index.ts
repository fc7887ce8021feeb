/**
 * Object documents read better than plain JSON: references are links
 * (Ctrl+click follows them, hover names them), the service's bookkeeping
 * sections fold away when a document opens, and the outline names each
 * reporting priority. Nothing here changes the text: a save sends exactly
 * what the editor holds.
 */
import vscode = require('vscode');
import type { Services } from '../services';
import { objectLanguage, parseObjectUri, scheme } from '../fs/objectUri';
import { registerObjectSymbols } from './objectSymbols';

const selector: vscode.DocumentSelector = { scheme };

/** The providers' code: loaded when the first object document asks for it. */
const features = () => import('./features');

export function registerObjectEditors(s: Services): vscode.Disposable[] {
  return [
    vscode.languages.registerDocumentLinkProvider(selector, { provideDocumentLinks: async (doc) => (await features()).links(doc) }),
    vscode.languages.registerHoverProvider(selector, { provideHover: async (doc, pos) => (await features()).hover(s, doc, pos) }),
    vscode.languages.registerFoldingRangeProvider(selector, { provideFoldingRanges: async (doc) => (await features()).folds(doc) }),
    vscode.languages.registerDocumentSymbolProvider(
      selector,
      { provideDocumentSymbols: async (doc) => (await features()).symbols(doc) },
      { label: vscode.l10n.t('Object') },
    ),
    registerObjectSymbols(s),
    foldOnOpen(),
    startLanguageFeatures(s),
    // Recently opened objects come first in Go to Object.
    vscode.workspace.onDidOpenTextDocument((doc) => {
      const a = doc.uri.scheme === scheme ? parseObjectUri(doc.uri) : undefined;
      if (a) s.search.opened(a.connectionId, a.key);
    }),
  ];
}

/**
 * VS Code starts its JSON language features when a JSON document opens; an
 * object document (the object language, a `jsonLanguageParticipants` of
 * theirs: syntax and schema checks, completion, formatting) starts them too.
 * A query file (`.omsq`) starts ours: a chunk loaded then, not at activation.
 */
function startLanguageFeatures(s: Services): vscode.Disposable {
  const start = (doc: vscode.TextDocument) => {
    if (doc.languageId === objectLanguage) void vscode.extensions.getExtension('vscode.json-language-features')?.activate();
    if (doc.languageId === 'oms-query') void import('./queryFiles').then((q) => q.startQueryFiles(s.context.subscriptions));
  };
  vscode.workspace.textDocuments.forEach(start);
  return vscode.workspace.onDidOpenTextDocument(start);
}

/**
 * The first time an object document shows in a tab, its bookkeeping sections
 * are folded (not again while that tab stays open: the user may unfold them).
 */
function foldOnOpen(): vscode.Disposable {
  const done = new Set<string>();
  const fold = async (editor: vscode.TextEditor | undefined) => {
    const doc = editor?.document;
    if (!doc || doc.uri.scheme !== scheme || done.has(doc.uri.toString())) return;
    done.add(doc.uri.toString());
    const lines = (await features()).foldedLines(doc);
    if (!lines.length) return;
    // The editor computes its folding regions after it opens: fold again until the first section is closed.
    const hidden = (line: number) => !editor.visibleRanges.some((r) => r.start.line <= line && line <= r.end.line);
    for (let attempt = 0; attempt < 15 && vscode.window.activeTextEditor === editor; attempt++) {
      await vscode.commands.executeCommand('editor.fold', { levels: 1, selectionLines: lines });
      if (hidden(lines[0] + 1)) return;
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  void fold(vscode.window.activeTextEditor);
  return vscode.Disposable.from(
    vscode.window.onDidChangeActiveTextEditor((e) => void fold(e)),
    // VS Code keeps a closed tab's document open for a while: forget it when its last tab closes.
    vscode.window.tabGroups.onDidChangeTabs(({ closed }) => {
      const open = new Set(
        vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => (t.input instanceof vscode.TabInputText ? t.input.uri.toString() : '')),
      );
      for (const tab of closed) if (tab.input instanceof vscode.TabInputText && !open.has(tab.input.uri.toString())) done.delete(tab.input.uri.toString());
    }),
  );
}
