/**
 * Query files (`.omsq`, src/query/queryFile.ts) in the editor: completion, problems as you type, and above each
 * query the CodeLenses that run it through Find Objects Where… (`oms.runQuery`). A chunk of its own, started by
 * ./index.ts when the first query file opens.
 */
import vscode = require('vscode');
import { kindsLabel } from '../l10n';
import { FileQuery, parseQueryFile } from '../query/queryFile';
import { queryFileCompletions, queryFileProblems, type FileCompletion } from '../query/queryFileAssist';

const queryLanguage = 'oms-query';
const selector: vscode.DocumentSelector = { language: queryLanguage };
const runCommand = 'oms.runQuery';

const itemKinds: Record<FileCompletion['kind'], vscode.CompletionItemKind> = {
  field: vscode.CompletionItemKind.Field,
  value: vscode.CompletionItemKind.EnumMember,
  function: vscode.CompletionItemKind.Function,
  scope: vscode.CompletionItemKind.Keyword,
  kind: vscode.CompletionItemKind.Class,
};

let started: vscode.Disposable | undefined;

/** Registers the providers once; they live as long as the extension. */
export function startQueryFiles(subscriptions: vscode.Disposable[]): void {
  if (started) return;
  const problems = vscode.languages.createDiagnosticCollection(queryLanguage);
  const check = (doc: vscode.TextDocument) => {
    if (doc.languageId !== queryLanguage) return problems.delete(doc.uri);
    problems.set(
      doc.uri,
      queryFileProblems(doc.getText()).map((p) => {
        const d = new vscode.Diagnostic(
          new vscode.Range(doc.positionAt(p.start), doc.positionAt(p.start + p.length)),
          p.message,
          p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
        );
        d.source = 'oms';
        return d;
      }),
    );
  };
  vscode.workspace.textDocuments.forEach(check);
  started = vscode.Disposable.from(
    problems,
    vscode.workspace.onDidOpenTextDocument(check),
    vscode.workspace.onDidChangeTextDocument((e) => check(e.document)),
    vscode.workspace.onDidCloseTextDocument((doc) => problems.delete(doc.uri)),
    vscode.languages.registerCompletionItemProvider(selector, { provideCompletionItems: complete }, '.', '[', '?', ' ', '`', '(', ',', ':', '&', '|'),
    vscode.languages.registerCodeLensProvider(selector, { provideCodeLenses: lenses }),
  );
  subscriptions.push(started);
}

function complete(doc: vscode.TextDocument, pos: vscode.Position): vscode.CompletionItem[] {
  const offset = doc.offsetAt(pos);
  const c = queryFileCompletions(doc.getText(), offset);
  const range = new vscode.Range(doc.positionAt(c.from), pos);
  return c.items.map((i, n) => {
    const item = new vscode.CompletionItem({ label: i.label, description: i.detail }, itemKinds[i.kind]);
    item.insertText = i.insert;
    item.range = range;
    // The order completeAt gives: the kinds' own fields first, then the functions.
    item.sortText = String(n).padStart(4, '0');
    if (i.kind === 'scope') item.command = { command: 'editor.action.triggerSuggest', title: '' };
    return item;
  });
}

function lenses(doc: vscode.TextDocument): vscode.CodeLens[] {
  return parseQueryFile(doc.getText()).queries.flatMap((q) => {
    const range = new vscode.Range(q.line, 0, q.line, 0);
    // The file and line, not the text: Run Query reads the file as it is when clicked.
    const at = { uri: doc.uri.toString(), line: q.line };
    return [
      new vscode.CodeLens(range, { title: `$(play) ${vscode.l10n.t('Run Query')}`, command: runCommand, arguments: [at] }),
      new vscode.CodeLens(range, {
        title: q.scope.subfolders === false ? vscode.l10n.t('Run with Subfolders') : vscode.l10n.t('Run in This Folder Only'),
        command: runCommand,
        arguments: [{ ...at, otherSubfolders: true }],
      }),
      new vscode.CodeLens(range, { title: scopeText(q), command: '' }),
    ];
  });
}

/** The scope in words: `Input scanners · in Head Office/Floor 1 and its subfolders · on Staging`; the file's words inert (no `$(icon)`). */
function scopeText(q: FileQuery): string {
  const s = { ...q.scope, folder: inert(q.scope.folder), connection: inert(q.scope.connection) };
  const kinds = s.kinds?.map((k) => kindsLabel(k)).join(', ') ?? vscode.l10n.t('Every kind');
  const folder = s.folder || vscode.l10n.t('the instance');
  const where = s.subfolders === false ? vscode.l10n.t('in {0} only', folder) : vscode.l10n.t('in {0} and its subfolders', folder);
  const on = s.connection ? vscode.l10n.t('on {0}', s.connection) : vscode.l10n.t('on the active connection');
  return `${kinds} · ${where} · ${on}`;
}

function inert(text: string | undefined): string | undefined {
  return text?.replace(/\$\(/g, '$\u200b(');
}
