/**
 * The answers of Ctrl+Alt+O's symbol search (objectSymbols.ts registers it): the active connection's
 * objects whose names hold every word typed, loaded with the first search, not at activation.
 */
import vscode = require('vscode');
import type { Services } from '../services';
import { objectUri, parseObjectUri } from '../fs/objectUri';
import { folderPathText, matches, queryWords, rank } from '../search/match';
import type { IndexEntry } from '../search/objectIndex';
import { showCurrent } from '../documents/openCurrent';
import { folderNameOf } from './targets';
import { kindLabel } from '../l10n';
import { stepDone } from '../walkthrough';

/** Symbols answered at once: VS Code lists every one, and nobody reads more. */
const answeredMax = 200;

export async function objectSymbols(s: Services, query: string, token: vscode.CancellationToken): Promise<vscode.SymbolInformation[]> {
  const connection = s.connections.active;
  if (!connection) return [];
  const index = s.search.of(connection.id);
  // The answer waits for the walk (VS Code asks again only when the query changes); a new query cancels the
  // wait, not the walk, which the next query joins.
  await new Promise<void>((resolve) => {
    const cancelled = token.onCancellationRequested(() => resolve());
    void index
      .ensure()
      .catch(() => undefined)
      .finally(() => {
        cancelled.dispose();
        resolve();
      });
  });
  if (token.isCancellationRequested) return [];
  const words = queryWords(query);
  // The walkthrough's step: Ctrl+Alt+O and part of a name.
  if (words.length) stepDone('searchedObjects');
  const recent = s.search.recentKeys(connection.id);
  const found: IndexEntry[] = [];
  if (words.length) {
    for (const e of index.entries) if (e.kind.id !== 'folder' && matches(e, words)) found.push(e);
  } else {
    for (const key of recent) {
      const e = index.entry(key);
      if (e && e.kind.id !== 'folder') found.push(e);
    }
  }
  const symbols: vscode.SymbolInformation[] = [];
  for (const entry of rank(found, words, recent).slice(0, answeredMax)) {
    const address = { connectionId: connection.id, folderKey: entry.folderKey, kind: entry.kind, key: entry.key };
    const uri = objectUri(address, entry.name, await folderNameOf(s, connection.id, entry.folderKey));
    const where = `${kindLabel(entry.kind)} · ${folderPathText(entry)}`;
    symbols.push(new vscode.SymbolInformation(entry.name, vscode.SymbolKind.Object, where, new vscode.Location(uri, new vscode.Position(0, 0))));
  }
  return symbols;
}

/** Before VS Code opens it: a document VS Code still holds shows what the server holds now. */
export async function resolveObjectSymbol(s: Services, symbol: vscode.SymbolInformation): Promise<vscode.SymbolInformation> {
  if (parseObjectUri(symbol.location.uri)) await showCurrent(s.objectFiles, symbol.location.uri);
  return symbol;
}
