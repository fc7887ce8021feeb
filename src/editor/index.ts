/**
 * Object documents read better than plain JSON: references are links
 * (Ctrl+click follows them, hover names them), the service's bookkeeping
 * sections fold away when a document opens, and the outline names each
 * reporting priority. Nothing here changes the text: a save sends exactly
 * what the editor holds.
 */
import * as vscode from 'vscode';
import type { Services } from '../commands/services';
import { parseObjectUri, scheme } from '../fs/objectUri';
import { findLinks, foldedSections, linkAt, Section, topLevel } from './documentModel';
import { describe, targetOf } from './targets';

const selector: vscode.DocumentSelector = { scheme };

/** The command a link runs; its arguments are the document's connection and the reference. */
const followLinkCommand = 'oms.followLink';

export function registerObjectEditors(s: Services): vscode.Disposable[] {
  return [
    vscode.languages.registerDocumentLinkProvider(selector, { provideDocumentLinks: (doc) => links(doc) }),
    vscode.languages.registerHoverProvider(selector, { provideHover: (doc, pos) => hover(s, doc, pos) }),
    vscode.languages.registerFoldingRangeProvider(selector, { provideFoldingRanges: (doc) => folds(doc) }),
    vscode.languages.registerDocumentSymbolProvider(selector, { provideDocumentSymbols: (doc) => symbols(doc) }, { label: 'Object' }),
    foldOnOpen(),
    // Recently opened objects come first in Go to Object.
    vscode.workspace.onDidOpenTextDocument((doc) => {
      const a = doc.uri.scheme === scheme ? parseObjectUri(doc.uri) : undefined;
      if (a) s.search.opened(a.connectionId, a.key);
    }),
  ];
}

function links(doc: vscode.TextDocument): vscode.DocumentLink[] {
  const connectionId = doc.uri.authority;
  return findLinks(doc.getText()).flatMap((l) => {
    if (!targetOf(connectionId, l)) return [];
    const args = encodeURIComponent(JSON.stringify([{ connectionId, href: l.href, key: l.key }]));
    const link = new vscode.DocumentLink(rangeOf(doc, l.offset, l.offset + l.length), vscode.Uri.parse(`command:${followLinkCommand}?${args}`));
    link.tooltip = l.href ? `Follow ${l.field}` : `Find the object with this key`;
    return [link];
  });
}

async function hover(s: Services, doc: vscode.TextDocument, pos: vscode.Position): Promise<vscode.Hover | undefined> {
  const link = linkAt(doc.getText(), doc.offsetAt(pos));
  const target = link && targetOf(doc.uri.authority, link);
  if (!link || !target) return undefined;
  const md = new vscode.MarkdownString();
  try {
    const d = await describe(s, target);
    md.appendMarkdown('**').appendText(d.kind).appendMarkdown('** · ').appendText(d.name);
    if (link.relation) md.appendMarkdown('  \n').appendText(`Relation: ${link.relation}`);
    if (d.key) md.appendMarkdown('  \n').appendText(`Key: ${d.key}`);
  } catch (e) {
    md.appendText(`${link.name ?? link.href ?? link.key}: ${(e as Error).message}`);
  }
  md.appendMarkdown(`\n\n*Ctrl+click to follow*`);
  return new vscode.Hover(md, rangeOf(doc, link.offset, link.offset + link.length));
}

function folds(doc: vscode.TextDocument): vscode.FoldingRange[] {
  return foldedSections(doc.getText()).flatMap((sec) => {
    const start = doc.positionAt(sec.offset).line;
    const end = doc.positionAt(sec.end).line;
    return end > start ? [new vscode.FoldingRange(start, end, vscode.FoldingRangeKind.Region)] : [];
  });
}

function symbols(doc: vscode.TextDocument): vscode.DocumentSymbol[] {
  const toSymbol = (sec: Section, kind: vscode.SymbolKind): vscode.DocumentSymbol => {
    const symbol = new vscode.DocumentSymbol(sec.name, sec.detail ?? '', kind, rangeOf(doc, sec.offset, sec.end), rangeOf(doc, sec.offset, sec.offset));
    symbol.children = (sec.children ?? []).map((c) => toSymbol(c, vscode.SymbolKind.Object));
    return symbol;
  };
  return topLevel(doc.getText()).map((sec) => toSymbol(sec, sec.children ? vscode.SymbolKind.Array : vscode.SymbolKind.Property));
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
    const lines = foldedSections(doc.getText()).map((sec) => doc.positionAt(sec.offset).line);
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
      const open = new Set(vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => (t.input instanceof vscode.TabInputText ? t.input.uri.toString() : '')));
      for (const tab of closed) if (tab.input instanceof vscode.TabInputText && !open.has(tab.input.uri.toString())) done.delete(tab.input.uri.toString());
    }),
  );
}

function rangeOf(doc: vscode.TextDocument, start: number, end: number): vscode.Range {
  return new vscode.Range(doc.positionAt(start), doc.positionAt(end));
}
