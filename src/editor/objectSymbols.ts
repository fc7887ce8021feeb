/**
 * The active connection's objects as workspace symbols, for Ctrl+Alt+O: the
 * key opens VS Code's own symbol search (`#`) in the window itself, so every
 * key typed after it lands in its box, with no round trip through the
 * extension host first (which a quick pick of ours needs, and the keys typed
 * meanwhile went to the editor behind). VS Code filters and sorts what this
 * answers and opens the chosen object's document.
 */
import vscode = require('vscode');
import type { Services } from '../services';

export function registerObjectSymbols(s: Services): vscode.Disposable {
  const search = () => import('./objectSymbolSearch');
  return vscode.languages.registerWorkspaceSymbolProvider({
    provideWorkspaceSymbols: async (query, token) => (await search()).objectSymbols(s, query, token),
    resolveWorkspaceSymbol: async (symbol) => (await search()).resolveObjectSymbol(s, symbol),
  });
}
