/**
 * What object documents show beyond plain JSON (see ./index.ts, which
 * registers it): links, hovers, folds and the outline. A chunk of its own,
 * loaded when the first object document asks for one of them.
 */
import vscode = require('vscode');
import type { Services } from '../services';
import { findLinks, foldedSections, linkAt, Section, topLevel } from './documentModel';
import { describe, targetOf } from './targets';

/** The command a link runs; its arguments are the document's connection and the reference. */
const followLinkCommand = 'oms.followLink';

export function links(doc: vscode.TextDocument): vscode.DocumentLink[] {
  const connectionId = doc.uri.authority;
  return findLinks(doc.getText()).flatMap((l) => {
    if (!targetOf(connectionId, l)) return [];
    const args = encodeURIComponent(JSON.stringify([{ connectionId, href: l.href, key: l.key }]));
    const link = new vscode.DocumentLink(rangeOf(doc, l.offset, l.offset + l.length), vscode.Uri.parse(`command:${followLinkCommand}?${args}`));
    link.tooltip = l.href ? vscode.l10n.t('Follow {0}', l.field) : vscode.l10n.t('Find the object with this key');
    return [link];
  });
}

export async function hover(s: Services, doc: vscode.TextDocument, pos: vscode.Position): Promise<vscode.Hover | undefined> {
  const link = linkAt(doc.getText(), doc.offsetAt(pos));
  const target = link && targetOf(doc.uri.authority, link);
  if (!link || !target) return undefined;
  const md = new vscode.MarkdownString();
  try {
    const d = await describe(s, target);
    md.appendMarkdown('**').appendText(d.kind).appendMarkdown('** · ').appendText(d.name);
    if (link.relation) md.appendMarkdown('  \n').appendText(vscode.l10n.t('Relation: {0}', link.relation));
    if (d.key) md.appendMarkdown('  \n').appendText(vscode.l10n.t('Key: {0}', d.key));
  } catch (e) {
    md.appendText(`${link.name ?? link.href ?? link.key}: ${(e as Error).message}`);
  }
  md.appendMarkdown('\n\n*').appendText(vscode.l10n.t('Ctrl+click to follow')).appendMarkdown('*');
  return new vscode.Hover(md, rangeOf(doc, link.offset, link.offset + link.length));
}

export function folds(doc: vscode.TextDocument): vscode.FoldingRange[] {
  return foldedSections(doc.getText()).flatMap((sec) => {
    const start = doc.positionAt(sec.offset).line;
    const end = doc.positionAt(sec.end).line;
    return end > start ? [new vscode.FoldingRange(start, end, vscode.FoldingRangeKind.Region)] : [];
  });
}

export function symbols(doc: vscode.TextDocument): vscode.DocumentSymbol[] {
  const toSymbol = (sec: Section, kind: vscode.SymbolKind): vscode.DocumentSymbol => {
    const symbol = new vscode.DocumentSymbol(sec.name, sec.detail ?? '', kind, rangeOf(doc, sec.offset, sec.end), rangeOf(doc, sec.offset, sec.offset));
    symbol.children = (sec.children ?? []).map((c) => toSymbol(c, vscode.SymbolKind.Object));
    return symbol;
  };
  return topLevel(doc.getText()).map((sec) => toSymbol(sec, sec.children ? vscode.SymbolKind.Array : vscode.SymbolKind.Property));
}

/** The first line of each bookkeeping section, folded when a document opens. */
export function foldedLines(doc: vscode.TextDocument): number[] {
  return foldedSections(doc.getText()).map((sec) => doc.positionAt(sec.offset).line);
}

function rangeOf(doc: vscode.TextDocument, start: number, end: number): vscode.Range {
  return new vscode.Range(doc.positionAt(start), doc.positionAt(end));
}
