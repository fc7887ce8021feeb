/**
 * Go to Object…: type part of a name; matches show as the connection's
 * folders and kinds are paged in the background (src/search/objectIndex.ts).
 * The picker's progress bar runs while the walk does, its title counts what
 * was searched, the stop button (or Escape) ends the walk. Recently opened
 * objects are listed first. Enter opens the object; the item's tree button
 * reveals it in the Objects view. Run from the palette and the Objects
 * view's toolbar: Ctrl+Alt+O opens VS Code's own symbol search instead
 * (editor/objectSymbols.ts), which keeps the keys typed right after it.
 *
 * Args: `{ connectionId?, query? }` (the query fills the box).
 */
import vscode = require('vscode');
import { folderPathText, matches, queryWords, rank } from '../../search/match';
import type { IndexEntry } from '../../search/objectIndex';
import { follow } from '../../editor/targets';
import { activeConnectionTarget, ConnectionTarget, targeted } from '../framework/commandTargets';
import { reportFailure } from '../framework/runCommand';
import { kindLabel } from '../../l10n';

interface ResultItem extends vscode.QuickPickItem {
  entry: IndexEntry;
}

/** Items shown at once: more would slow the list and nobody reads them. */
const shownMax = 200;
const revealButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('list-tree'), tooltip: vscode.l10n.t('Reveal in Tree') };
const stopButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('debug-stop'), tooltip: vscode.l10n.t('Stop searching') };
const bulkButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('checklist'), tooltip: vscode.l10n.t('Bulk Edit All Results') };

/**
 * Our order (recently opened first) also while the user types: VS Code re-sorts a quick pick by its
 * labels unless `sortByLabel` is false, a property the extension host honours but the published API
 * does not name yet (microsoft/vscode#73904, an accepted proposal). Where it is refused, VS Code's
 * order stands and recent matches keep their "recently opened" mark.
 */
function keepOurOrder(pick: vscode.QuickPick<ResultItem>): void {
  try {
    (pick as { sortByLabel?: boolean }).sortByLabel = false;
  } catch {
    // A host that guards the proposal: its own order.
  }
}

export const goToObject = targeted({
  id: 'oms.goToObject',
  target: activeConnectionTarget,
  async run(s, { connection }: ConnectionTarget, arg?: unknown) {
    const args = arg as { query?: string } | undefined;
    const index = s.search.of(connection.id);
    const pick = vscode.window.createQuickPick<ResultItem>();
    pick.placeholder = vscode.l10n.t('Part of an object’s name; Enter opens it');
    pick.matchOnDescription = false;
    keepOurOrder(pick);
    pick.value = args?.query ?? '';
    let words = queryWords(pick.value);
    let timer: NodeJS.Timeout | undefined;

    const render = () => {
      timer = undefined;
      const recent = s.search.recentKeys(connection.id);
      const found: IndexEntry[] = [];
      if (words.length) {
        for (const e of index.entries) if (matches(e, words)) found.push(e);
      } else {
        for (const key of recent) {
          const e = index.entry(key);
          if (e) found.push(e);
        }
      }
      const recentSet = new Set(recent);
      pick.items = rank(found, words, recent)
        .slice(0, shownMax)
        .map((entry) => ({
          label: `$(${entry.kind.icon}) ${entry.name}`,
          description: `${kindLabel(entry.kind)} · ${folderPathText(entry)}`,
          detail: recentSet.has(entry.key) ? vscode.l10n.t('recently opened') : undefined,
          buttons: [revealButton],
          // Matched here by every word in any order; VS Code's own filter would hide "contact floor" for "Floor 1 Door Contact".
          alwaysShow: true,
          entry,
        }));
      const p = index.progress;
      const matched = found.length === 1 ? vscode.l10n.t('1 match') : vscode.l10n.t('{0} matches', found.length);
      const more = found.length > shownMax ? ` ${vscode.l10n.t('(first {0} shown)', shownMax)}` : '';
      const objects = p.objects === 1 ? vscode.l10n.t('1 object') : vscode.l10n.t('{0} objects', p.objects);
      const folders = p.folders === 1 ? vscode.l10n.t('1 folder') : vscode.l10n.t('{0} folders', p.folders);
      pick.title =
        vscode.l10n.t('Go to Object on {0}: {1} in {2}, {3}', connection.info.label, matched + more, objects, folders) +
        (p.done ? '' : pick.busy ? vscode.l10n.t(', searching…') : vscode.l10n.t(', stopped'));
    };
    // Pages arrive fast: redraw at most every 50 ms.
    const later = () => (timer ??= setTimeout(render, 50));

    const disposables: vscode.Disposable[] = [
      pick.onDidChangeValue((v) => {
        words = queryWords(v); // the newest query wins: results are always for what is typed now
        render();
      }),
      pick.onDidAccept(() => {
        const item = pick.activeItems[0];
        if (!item) return;
        pick.hide();
        void open(item.entry);
      }),
      pick.onDidTriggerItemButton((e) => {
        pick.hide();
        void open(e.item.entry, true);
      }),
      pick.onDidTriggerButton((b) => {
        if (b === stopButton) index.stop();
        if (b === bulkButton) {
          pick.hide();
          void vscode.commands.executeCommand('oms.bulkEdit', { connectionId: connection.id, query: pick.value });
        }
      }),
      new vscode.Disposable(index.onEntries(later)),
      new vscode.Disposable(index.onProgress(later)),
    ];
    const open = (entry: IndexEntry, reveal = false): Promise<unknown> => {
      const target =
        entry.kind.id === 'folder'
          ? { type: 'folder' as const, connectionId: connection.id, key: entry.key }
          : { type: 'object' as const, connectionId: connection.id, folderKey: entry.folderKey, kind: entry.kind, key: entry.key };
      const run =
        reveal && target.type === 'object'
          ? vscode.commands.executeCommand('oms.revealInTree', { connectionId: connection.id, folderKey: entry.folderKey, kind: entry.kind.id, key: entry.key })
          : follow(s, target);
      return Promise.resolve(run).catch((e: unknown) =>
        reportFailure(s, reveal ? vscode.l10n.t('Could not reveal the object') : vscode.l10n.t('Could not open the object'), e, connection.id, () =>
          open(entry, reveal),
        ),
      );
    };

    pick.busy = true;
    pick.buttons = [bulkButton, stopButton];
    render();
    pick.show();
    const walk = index
      .ensure()
      .then(
        () => undefined,
        (e: unknown) => {
          pick.title = vscode.l10n.t('Go to Object: search stopped: {0}', (e as Error).message);
        },
      )
      .finally(() => {
        pick.busy = false;
        pick.buttons = [bulkButton];
        render();
      });
    await new Promise<void>((resolve) => disposables.push(pick.onDidHide(() => resolve())));
    index.stop(); // closing the picker ends the walk; what was fetched is kept
    await walk;
    if (timer) clearTimeout(timer);
    for (const d of disposables) d.dispose();
    pick.dispose();
  },
});
