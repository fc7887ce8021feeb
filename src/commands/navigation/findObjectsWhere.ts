/**
 * Find Objects Where…: a JMESPath query over a folder's objects (src/query/). The query box completes field names,
 * nested fields and enum values from the kinds' schemas (the item list offers them: Enter on one inserts it), says
 * what is wrong and where as you type, and lists recent queries. Results fill the list as pages arrive, with a
 * count and a stop button; Enter opens an object, its button reveals it in the tree; title buttons send the whole
 * result set to Bulk Edit or export it (JSON, CSV). Scope: the folder or group it was run on (subfolders asked),
 * else the connection's root with its subfolders.
 *
 * Args: a folder or group node, or `{ connectionId?, folderKey?, kind?, kinds?, query?, subfolders?, run? }`:
 * `kinds` (kind ids) narrows the scope as `kind` does; with `run: true` a valid `query` runs at once (a query file's CodeLens).
 */
import * as vscode from 'vscode';
import { Kind, objectKinds, supports } from '../../model/kinds';
import { compileQuery, Query } from '../../query/compile';
import { completeAt } from '../../query/complete';
import { cellText, resultColumns } from '../../query/columns';
import { csvText } from '../../query/csv';
import { PageCache } from '../../query/pageCache';
import { Match, QueryCancelled, runQuery } from '../../query/run';
import { follow } from '../../editor/targets';
import { activeConnectionTarget, ConnectionTarget, targeted } from '../framework/commandTargets';
import { namedBy } from '../framework/namedBy';
import { placeText } from '../framework/placeNames';
import { reportFailure } from '../framework/runCommand';
import { kindLabel } from '../../l10n';

type Item = vscode.QuickPickItem & ({ insert: { from: number; text: string } } | { recent: string } | { match: Match } | { run: true } | { problem: true });

/** Rows the list holds; past it the title says so and Export holds them all. */
const shownMax = 1000;
const historyKey = 'oms.query.history';
const historyMax = 20;
/** One cache per connection for the window's life: asking again or refining reuses its pages (304). */
const caches = new Map<string, PageCache>();

const revealButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('list-tree'), tooltip: vscode.l10n.t('Reveal in Tree') };
const stopButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('debug-stop'), tooltip: vscode.l10n.t('Cancel the query') };
const bulkButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('checklist'), tooltip: vscode.l10n.t('Bulk Edit All Results') };
const exportButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('save'), tooltip: vscode.l10n.t('Export Results (JSON or CSV)') };

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
    let matches: Match[] = [];
    let running: AbortController | undefined;
    let query: Query | undefined;

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
      pick.items = items;
    };

    const showResults = (progress?: { scanned: number; matched: number }, finished = false) => {
      const shown = matches.slice(0, shownMax);
      const columns = query ? resultColumns(query).slice(4, 6) : [];
      pick.items = shown.map((m) => ({
        label: `$(${m.kind.icon}) ${m.object.CommonName ?? m.key}`,
        description: kindLabel(m.kind),
        detail: columns.map((c) => `${c.title}: ${cellText(c.value(m), 80)}`).join(' · ') || undefined,
        buttons: [revealButton],
        alwaysShow: true,
        match: m,
      }));
      const over = matches.length > shownMax ? ` ${vscode.l10n.t('(first {0} shown: export for all)', shownMax)}` : '';
      const scanned = progress?.scanned ?? 0;
      pick.title = vscode.l10n.t('{0} matched of {1} read', matches.length, scanned) + over + (finished ? '' : vscode.l10n.t(', reading…'));
    };

    const run = async (text: string) => {
      const c = compileQuery(text, kinds);
      if ('error' in c) return;
      query = c.query;
      await s.context.globalState.update(historyKey, [text, ...history.filter((q) => q !== text)].slice(0, historyMax));
      running?.abort();
      const stop = new AbortController();
      running = stop;
      matches = [];
      pick.busy = true;
      pick.buttons = [stopButton];
      pick.placeholder = text;
      let last = { scanned: 0, matched: 0 };
      let timer: NodeJS.Timeout | undefined;
      const later = () =>
        (timer ??= setTimeout(() => {
          timer = undefined;
          showResults(last);
        }, 100));
      showResults(last);
      try {
        const end = await runQuery(
          connection.client,
          c.query,
          { folderKey, subfolders, kinds },
          {
            cache,
            signal: stop.signal,
            onMatches: (m) => {
              matches.push(...m);
              later();
            },
            onProgress: (p) => {
              last = { ...p };
              later();
            },
          },
        );
        if (timer) clearTimeout(timer);
        showResults(end, true);
        if (end.failed)
          void vscode.window.showWarningMessage(
            vscode.l10n.t(
              'Not evaluated, so not matched: {0} ({1})',
              end.failed === 1 ? vscode.l10n.t('1 object') : vscode.l10n.t('{0} objects', end.failed),
              end.firstFailure ?? '',
            ),
          );
      } catch (e) {
        if (timer) clearTimeout(timer);
        if (e instanceof QueryCancelled) pick.title = vscode.l10n.t('Cancelled: {0} matched so far', matches.length);
        else void reportFailure(s, vscode.l10n.t('The query failed'), e, connection.id, () => run(text));
      } finally {
        if (running === stop) {
          pick.busy = false;
          pick.buttons = [bulkButton, exportButton];
        }
      }
    };

    const open = (m: Match, reveal = false): Promise<unknown> => {
      const go = reveal
        ? vscode.commands.executeCommand('oms.revealInTree', { connectionId: connection.id, folderKey: m.folderKey, kind: m.kind.id, key: m.key })
        : follow(s, { type: 'object', connectionId: connection.id, folderKey: m.folderKey, kind: m.kind, key: m.key });
      const again = () => open(m, reveal);
      return Promise.resolve(go).catch((e: unknown) => reportFailure(s, vscode.l10n.t('Could not open the object'), e, connection.id, again));
    };

    const disposables: vscode.Disposable[] = [
      pick.onDidChangeValue(() => {
        if (query && matches.length && pick.value === query.text) return;
        running?.abort();
        query = undefined;
        pick.buttons = [];
        editing();
      }),
      pick.onDidAccept(() => {
        const item = pick.activeItems[0];
        if (item && 'insert' in item) pick.value = pick.value.slice(0, item.insert.from) + item.insert.text;
        else if (item && 'recent' in item) pick.value = item.recent;
        else if (item && 'match' in item) void open(item.match);
        else if (!item || 'run' in item) void run(pick.value);
        if (item && ('insert' in item || 'recent' in item)) editing();
      }),
      pick.onDidTriggerItemButton((e) => {
        if ('match' in e.item) void open(e.item.match, true);
      }),
      pick.onDidTriggerButton((b) => {
        if (b === stopButton) running?.abort();
        if (b === bulkButton) {
          pick.hide();
          void vscode.commands.executeCommand('oms.bulkEdit', {
            connectionId: connection.id,
            targets: matches.map((m) => ({ kind: m.kind.id, folderKey: m.folderKey, key: m.key, name: String(m.object.CommonName ?? m.key) })),
          });
        }
        if (b === exportButton && query) void exportResults(query, matches);
      }),
    ];
    editing();
    pick.show();
    if (args?.run === true) void run(pick.value);
    await new Promise<void>((resolve) => disposables.push(pick.onDidHide(() => resolve())));
    running?.abort();
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

/** The whole result set to a file the user names: JSON (the objects) or CSV (the columns, formula cells made inert). */
async function exportResults(query: Query, matches: readonly Match[]): Promise<void> {
  const uri = await vscode.window.showSaveDialog({ filters: { JSON: ['json'], CSV: ['csv'] }, title: vscode.l10n.t('Export {0} results', matches.length) });
  if (!uri) return;
  const columns = resultColumns(query);
  const text = uri.path.toLowerCase().endsWith('.csv')
    ? csvText(
        columns.map((c) => c.title),
        matches.map((m) => columns.map((c) => c.value(m))),
      )
    : `${JSON.stringify(
        matches.map((m) => m.object),
        null,
        2,
      )}\n`;
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
}
