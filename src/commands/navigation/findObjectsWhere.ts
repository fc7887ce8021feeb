/**
 * Find Objects Where…: a JMESPath query over a folder's objects (src/query/). The query box completes field names,
 * nested fields and enum values from the kinds' schemas (the item list offers them: Enter on one inserts it), says
 * what is wrong and where as you type, and lists recent queries. Enter runs the query: the box closes and the results
 * open in the results table (src/webview/queryResults.ts), the one place they are shown and acted on. Scope: the
 * folder or group it was run on (subfolders asked), else the connection's root with its subfolders.
 *
 * Args: a folder or group node, or `{ connectionId?, folderKey?, kind?, kinds?, query?, subfolders?, run? }`:
 * `kinds` (kind ids) narrows the scope as `kind` does; with `run: true` a valid `query` runs at once (a query file's CodeLens).
 */
import vscode = require('vscode');
import { Kind, objectKinds, supports } from '../../model/kinds';
import { compileQuery } from '../../query/compile';
import { completeAt } from '../../query/complete';
import { PageCache } from '../../query/pageCache';
import { QueryResults } from '../../webview/queryResults';
import { activeConnectionTarget, ConnectionTarget, targeted } from '../framework/commandTargets';
import { namedBy } from '../framework/namedBy';
import { placeText } from '../framework/placeNames';
import { kindLabel } from '../../l10n';

type Item = vscode.QuickPickItem & ({ insert: { from: number; text: string } } | { recent: string } | { run: true } | { problem: true });

const historyKey = 'oms.query.history';
const historyMax = 20;
/** One cache per connection for the window's life: asking again or refining reuses its pages (304). */
const caches = new Map<string, PageCache>();

export const findObjectsWhere = targeted({
  id: 'oms.findObjectsWhere',
  target: activeConnectionTarget,
  async run(s, { connection }: ConnectionTarget, arg?: unknown) {
    const given = namedBy(arg);
    const args = arg as { query?: unknown; subfolders?: unknown; kinds?: unknown; run?: unknown } | undefined;
    const folderKey = given.folderKey ?? (await connection.rootFolderKey());
    const kinds: Kind[] = given.kind ? [given.kind] : (kindsIn(args?.kinds) ?? objectKinds.filter((k) => supports(k, 'list')));
    let subfolders = typeof args?.subfolders === 'boolean' ? args.subfolders : true;
    if (given.folderKey && typeof args?.subfolders !== 'boolean') {
      const answer = await vscode.window.showQuickPick(
        [
          { label: vscode.l10n.t('With its subfolders'), sub: true },
          { label: vscode.l10n.t('This folder only'), sub: false },
        ],
        { title: vscode.l10n.t('Find Objects Where… in {0}', await placeText({ connection, folderKey })) },
      );
      if (!answer) return;
      subfolders = answer.sub;
    }
    const cache = caches.get(connection.id) ?? new PageCache();
    caches.set(connection.id, cache);
    const history = s.context.globalState.get<string[]>(historyKey, []);
    const pick = vscode.window.createQuickPick<Item>();
    pick.title = vscode.l10n.t('Find {0} where…', kinds.map((k) => kindLabel(k)).join(', '));
    pick.placeholder = vscode.l10n.t('A JMESPath query, e.g. InputScannerReportingPriorities[?StatusCode == `4`]; Enter runs it');
    pick.matchOnDescription = false;
    (pick as { sortByLabel?: boolean }).sortByLabel = false;
    pick.value = typeof args?.query === 'string' ? args.query : '';

    /** While typing: completions and recent queries, with the problem (and its column) in the title. */
    const editing = () => {
      const text = pick.value;
      const c = compileQuery(text, kinds);
      const problem = 'error' in c ? c.error : c.warnings[0];
      const items: Item[] = [];
      // A quick pick has no validation message: the problem is the first row, with its column.
      if (problem && text.trim()) {
        const icon = 'error' in c ? '$(error)' : '$(warning)';
        items.push({ label: `${icon} ${vscode.l10n.t('Column {0}: {1}', problem.position + 1, problem.message)}`, alwaysShow: true, problem: true });
      }
      const done = completeAt(text, text.length, kinds);
      if (!('error' in c)) items.push({ label: `$(play) ${vscode.l10n.t('Run the query')}`, alwaysShow: true, run: true });
      for (const i of done.items.slice(0, 50)) {
        const icon = i.kind === 'value' ? 'symbol-enum-member' : i.kind === 'field' ? 'symbol-field' : 'symbol-function';
        items.push({ label: `$(${icon}) ${i.label}`, description: i.detail, alwaysShow: true, insert: { from: done.from, text: i.insert } });
      }
      for (const h of history.filter((q) => q !== text).slice(0, 10))
        items.push({ label: `$(history) ${h}`, description: vscode.l10n.t('recent'), alwaysShow: true, recent: h });
      // Keep the row the user moved to: the items of each typed key may arrive after an arrow key was pressed.
      const had = pick.activeItems[0]?.label;
      pick.items = items;
      const same = had === undefined ? undefined : items.find((i) => i.label === had);
      if (same) pick.activeItems = [same];
    };

    /** A valid query runs into the results table (src/webview/queryResults.ts); the box closes, its history keeps it. */
    const run = async (text: string) => {
      const c = compileQuery(text, kinds);
      if ('error' in c) return;
      await s.context.globalState.update(historyKey, [text, ...history.filter((q) => q !== text)].slice(0, historyMax));
      pick.hide();
      QueryResults.show(s, { connection, query: c.query, scope: { folderKey, subfolders, kinds }, cache });
    };

    const disposables: vscode.Disposable[] = [
      pick.onDidChangeValue(() => editing()),
      pick.onDidAccept(() => {
        const item = pick.activeItems[0];
        if (item && 'insert' in item) pick.value = pick.value.slice(0, item.insert.from) + item.insert.text;
        else if (item && 'recent' in item) pick.value = item.recent;
        else if (!item || 'run' in item) void run(pick.value);
        if (item && ('insert' in item || 'recent' in item)) editing();
      }),
    ];
    // A query file's CodeLens: a valid query goes straight to the table; one with a problem opens the box to show it.
    if (args?.run === true && !('error' in compileQuery(pick.value, kinds))) {
      await run(pick.value);
      for (const d of disposables) d.dispose();
      pick.dispose();
      return;
    }
    editing();
    pick.show();
    await new Promise<void>((resolve) => disposables.push(pick.onDidHide(() => resolve())));
    for (const d of disposables) d.dispose();
    pick.dispose();
  },
});

/** Kind ids from args (a query file names them); an unknown one is an error, as namedBy's `kind` is. */
function kindsIn(ids: unknown): Kind[] | undefined {
  if (!Array.isArray(ids) || !ids.length) return undefined;
  return ids.map((id) => {
    const k = objectKinds.find((o) => o.id === id);
    if (!k) throw new Error(vscode.l10n.t('There is no kind {0}', JSON.stringify(id)));
    return k;
  });
}
