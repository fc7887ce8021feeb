/**
 * A query's results as a table (a webview panel; media/results.js, resultRows.js and results.css), built as the
 * priorities table is: a content security policy with a nonce, local scripts only, theme colours, words in the user's
 * language. One panel, reused by the next query: each open results panel is read again every live interval, and one
 * place for results keeps that cost to one query's scope (the query box's history brings an earlier query back).
 *
 * The run fills it as pages arrive (rows sent every 100 ms, "N matched of M read", Cancel); the table holds at most
 * `tableCap` rows, and past it says so and offers the export, which holds every match. When the run ends, the
 * results follow the server (query/liveResults.ts, through the live feed: while the panel is visible and the window
 * focused, with its backoff, and told why when not). A row opens its object, reveals it in the tree or copies its
 * link; all results (or the selected) go to Bulk Edit, Pull as Files and Export (JSON, CSV).
 */
import vscode = require('vscode');
import type { Connection } from '../connection/connection';
import { openObjectDocument } from '../editor/targets';
import type { LiveRead } from '../live/liveFeed';
import { pulledKinds } from '../model/kinds';
import { objectPath } from '../model/routes';
import type { Query } from '../query/compile';
import { cellText, Column, resultColumns } from '../query/columns';
import { csvText } from '../query/csv';
import { LiveResults, matchId } from '../query/liveResults';
import type { PageCache } from '../query/pageCache';
import { Match, QueryCancelled, QueryProgress, QueryScope, runQuery } from '../query/run';
import { columnChoices } from '../query/schemaFields';
import type { Services } from '../services';
import { notify } from '../ui/notify';
import { html, webviewPage } from './pageParts';

/** Rows the table holds; past it the table says so and Export holds all. */
const tableCap = 100_000;

export interface ResultsRun {
  connection: Connection;
  query: Query;
  scope: QueryScope;
  cache: PageCache;
}

type Cell = string | number | null;
interface Row {
  id: string;
  cells: Cell[];
  badge?: 'new' | 'changed';
}

/** From the page. */
type Incoming =
  | { type: 'ready' | 'cancel' | 'columns' }
  | { type: 'open' | 'reveal' | 'copyLink'; id: string }
  | { type: 'bulkEdit' | 'pull'; ids?: string[] }
  | { type: 'export'; format: 'json' | 'csv'; ids?: string[] };

export class QueryResults {
  private static current?: QueryResults;

  /** Runs `run` into the results panel (opened beside the editor, or the one open, its run cancelled). */
  static show(s: Services, run: ResultsRun): void {
    let shown = QueryResults.current;
    if (!shown) {
      const panel = vscode.window.createWebviewPanel('oms.queryResults', vscode.l10n.t('Query Results'), vscode.ViewColumn.Beside, {
        enableScripts: true,
        // 100,000 rows live in the page: kept while its tab is in the background, not sent again.
        retainContextWhenHidden: true,
        localResourceRoots: [vscode.Uri.joinPath(s.context.extensionUri, 'media')],
      });
      shown = QueryResults.current = new QueryResults(s, panel);
    } else shown.panel.reveal(undefined, false);
    void shown.start(run);
  }

  private run?: ResultsRun;
  private stop?: AbortController;
  /** Every match, by id (the export's and Bulk Edit's); the table holds the first `tableCap`. */
  private matches = new Map<string, Match>();
  private inTable = new Set<string>();
  private pending: Match[] = [];
  private columns: Column[] = [];
  private chosen?: string[];
  /** Set when the run ended whole: the results then follow the server. */
  private live?: LiveResults;
  private ready = false;
  private progress: { scanned: number; done: boolean; text: string } = { scanned: 0, done: false, text: '' };
  private followingText?: { text: string; off: boolean };
  private readonly held: vscode.Disposable[];

  private constructor(
    private readonly s: Services,
    private readonly panel: vscode.WebviewPanel,
  ) {
    panel.webview.html = this.html();
    this.held = [
      panel.webview.onDidReceiveMessage((m: Incoming) => void this.receive(m)),
      s.live.watch({
        visible: () => this.panel.visible && !!this.live,
        watched: (connectionId) =>
          this.live && this.run?.connection.id === connectionId ? { groups: this.live.watched(), objects: [] } : { groups: [], objects: [] },
        following: (reason) => {
          if (this.live) this.following(reason ? vscode.l10n.t('Not following the server: {0}', reason) : undefined);
        },
      }),
      s.live.onDidRead((read) => this.liveRead(read)),
      panel.onDidChangeViewState(() => s.live.wake()),
    ];
    panel.onDidDispose(() => {
      this.stop?.abort();
      for (const d of this.held) d.dispose();
      if (QueryResults.current === this) QueryResults.current = undefined;
    });
  }

  private async start(run: ResultsRun): Promise<void> {
    this.stop?.abort();
    const stop = new AbortController();
    Object.assign(this, { stop, run, matches: new Map(), inTable: new Set(), pending: [], chosen: undefined, live: undefined, followingText: undefined });
    this.columns = resultColumns(run.query);
    this.panel.title = vscode.l10n.t('Results: {0}', run.query.text.length > 40 ? `${run.query.text.slice(0, 39)}…` : run.query.text);
    const live = new LiveResults(run.query, run.scope.kinds);
    let last: QueryProgress = { scanned: 0, matched: 0, pages: 0, unchangedPages: 0, failed: 0 };
    this.progress = { scanned: 0, done: false, text: this.countText(0, 0, false) };
    this.sendAll();
    const timer = setInterval(() => this.flush(last), 100);
    const mine = () => this.stop === stop;
    try {
      last = await runQuery(run.connection.client, run.query, run.scope, {
        cache: run.cache,
        signal: stop.signal,
        onFolder: (f) => live.addFolder(f),
        onMatches: (found) => {
          for (const m of found) {
            this.matches.set(matchId(m), m);
            live.add(m);
            this.pending.push(m);
          }
        },
        onProgress: (p) => (last = { ...p }),
      });
      if (!mine()) return;
      this.progress = { scanned: last.scanned, done: true, text: this.countText(this.matches.size, last.scanned, true) };
      if (last.failed) {
        const objects = last.failed === 1 ? vscode.l10n.t('1 object') : vscode.l10n.t('{0} objects', last.failed);
        this.say(vscode.l10n.t('Not evaluated, so not matched: {0} ({1})', objects, last.firstFailure ?? ''));
      }
      if (this.matches.size > tableCap) this.following(vscode.l10n.t('Not following the server: more results than the table holds'), true);
      else {
        this.live = live;
        this.s.live.wake();
      }
    } catch (e) {
      if (!mine()) return;
      const cancelled = e instanceof QueryCancelled;
      const text = cancelled
        ? vscode.l10n.t('Cancelled: {0} matched of {1} read', this.matches.size, last.scanned)
        : vscode.l10n.t('The query failed: {0}', (e as Error).message);
      this.progress = { scanned: last.scanned, done: true, text };
      this.following(cancelled ? vscode.l10n.t('Not following the server: the query was cancelled') : undefined, true);
      if (!cancelled) notify('error', text);
    } finally {
      clearInterval(timer);
      if (mine()) this.flush(last);
    }
  }

  private countText(matched: number, scanned: number, done: boolean): string {
    const count = vscode.l10n.t('{0} matched of {1} read', matched, scanned);
    return done ? count : `${count}${vscode.l10n.t(', reading…')}`;
  }

  /** The rows found since the last flush, and the count. */
  private flush(progress: QueryProgress): void {
    if (!this.progress.done) this.progress = { scanned: progress.scanned, done: false, text: this.countText(this.matches.size, progress.scanned, false) };
    if (!this.ready) return;
    const rows = this.toTable(this.pending.splice(0));
    if (rows.length) void this.post({ type: 'rows', rows });
    void this.post({ type: 'progress', text: this.progress.text, done: this.progress.done });
  }

  /** Matches as rows, as long as the table has room; past it, said once. */
  private toTable(matches: readonly Match[], badge?: Row['badge']): Row[] {
    const rows: Row[] = [];
    for (const m of matches) {
      const id = matchId(m);
      if (!this.inTable.has(id) && this.inTable.size >= tableCap) {
        this.sayCapped();
        break;
      }
      this.inTable.add(id);
      rows.push(this.row(m, badge));
    }
    return rows;
  }

  private cappedSaid = false;
  private sayCapped(): void {
    if (this.cappedSaid) return;
    this.cappedSaid = true;
    void this.post({
      type: 'capped',
      text: vscode.l10n.t('More objects match than the table holds ({0}): it shows the first of them. Export holds them all.', tableCap.toLocaleString()),
    });
  }

  private row(m: Match, badge?: Row['badge']): Row {
    return { id: matchId(m), cells: this.columns.map((c) => cellOf(c.value(m))), badge };
  }

  /** The page (new, or a new run in it): everything it shows, from the start. */
  private sendAll(): void {
    if (!this.ready || !this.run) return;
    this.cappedSaid = false;
    this.inTable = new Set();
    void this.post({ type: 'start', query: this.run.query.text, columns: this.columns.map((c) => c.title) });
    this.pending = [];
    const rows = this.toTable([...this.matches.values()]);
    if (rows.length) void this.post({ type: 'rows', rows });
    void this.post({ type: 'progress', text: this.progress.text, done: this.progress.done });
    if (this.followingText) void this.post({ type: 'following', ...this.followingText });
  }

  private following(text: string | undefined, off = !!text): void {
    this.followingText = {
      text: text ?? vscode.l10n.t('Following the server: objects that start matching come, those that stop leave, changed ones are marked'),
      off,
    };
    void this.post({ type: 'following', ...this.followingText });
  }

  /** A poll's changed lists matched again: rows come (new), change (changed) and go. */
  private liveRead(read: LiveRead): void {
    const live = this.live;
    if (!live || read.connectionId !== this.run?.connection.id || !read.groups.length) return;
    const { added, changed, removed } = live.apply(read.groups);
    if (!added.length && !changed.length && !removed.length) return;
    for (const m of removed) {
      this.matches.delete(matchId(m));
      this.inTable.delete(matchId(m));
    }
    for (const m of [...added, ...changed]) this.matches.set(matchId(m), m);
    const rows = [...this.toTable(added, 'new'), ...this.toTable(changed, 'changed')];
    const text = vscode.l10n.t('From the server: {0} came, {1} changed, {2} left', added.length, changed.length, removed.length);
    void this.post({ type: 'live', rows, removed: removed.map(matchId), text });
    this.progress = { ...this.progress, text: this.countText(this.matches.size, this.progress.scanned, true) };
    void this.post({ type: 'progress', text: this.progress.text, done: true });
  }

  private async receive(m: Incoming): Promise<void> {
    const run = this.run;
    if (m.type === 'ready') {
      this.ready = true;
      return this.sendAll();
    }
    if (!run) return;
    try {
      if (m.type === 'cancel') this.stop?.abort();
      if (m.type === 'columns') await this.pickColumns(run);
      if (m.type === 'open' || m.type === 'reveal' || m.type === 'copyLink') {
        const match = this.matches.get(m.id);
        if (match) await this.rowAction(m.type, run, match);
      }
      if (m.type === 'bulkEdit') await this.bulkEdit(run, this.matchesOf(m.ids));
      if (m.type === 'pull') await this.pull(run, this.matchesOf(m.ids));
      if (m.type === 'export') await this.exportResults(this.matchesOf(m.ids), m.format);
    } catch (e) {
      if (e instanceof vscode.CancellationError) return;
      this.say((e as Error).message);
    }
  }

  /** The rows named (the selection), or every match. */
  private matchesOf(ids: readonly string[] | undefined): Match[] {
    if (!ids) return [...this.matches.values()];
    return ids.flatMap((id) => this.matches.get(id) ?? []);
  }

  private async rowAction(action: 'open' | 'reveal' | 'copyLink', run: ResultsRun, m: Match): Promise<void> {
    const address = { connectionId: run.connection.id, folderKey: m.folderKey, kind: m.kind, key: m.key };
    const name = String(m.object.CommonName ?? m.key);
    if (action === 'open') {
      // Beside the table, so that it stays in view.
      const column = this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
      await openObjectDocument(this.s, address, name, column);
    } else if (action === 'reveal') {
      await vscode.commands.executeCommand('oms.revealInTree', { ...address, kind: m.kind.id });
    } else {
      const base = new URL(run.connection.info.baseUrl);
      await vscode.env.clipboard.writeText(`${base.origin}${base.pathname.replace(/\/+$/, '')}${objectPath(m.kind, m.folderKey, m.key)}`);
      this.say(vscode.l10n.t('Copied the link of "{0}"', name));
    }
  }

  private async bulkEdit(run: ResultsRun, matches: readonly Match[]): Promise<void> {
    const targets = matches.map((m) => ({ kind: m.kind.id, folderKey: m.folderKey, key: m.key, name: String(m.object.CommonName ?? m.key) }));
    await vscode.commands.executeCommand('oms.bulkEdit', { connectionId: run.connection.id, targets });
  }

  /** Exactly these objects as files: a pull of the query's scope that writes only them (Pull as Files' `only`). */
  private async pull(run: ResultsRun, matches: readonly Match[]): Promise<void> {
    const kinds = [...new Set(matches.map((m) => m.kind))].filter((k) => pulledKinds.includes(k));
    if (!kinds.length) return this.say(vscode.l10n.t('None of these objects can be pulled as files.'));
    await vscode.commands.executeCommand(
      'oms.pullAsFiles',
      { connectionId: run.connection.id, folderKey: run.scope.folderKey },
      { recursive: run.scope.subfolders, kinds: kinds.map((k) => k.id), only: matches.map((m) => m.key) },
    );
  }

  /** To a file the user names: JSON (the objects) or CSV (the table's columns, formula cells made inert). */
  private async exportResults(matches: readonly Match[], format: 'json' | 'csv'): Promise<void> {
    const uri = await vscode.window.showSaveDialog({
      filters: format === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
      title: vscode.l10n.t('Export {0} results', matches.length),
    });
    if (!uri) return;
    const text =
      format === 'csv'
        ? csvText(
            this.columns.map((c) => c.title),
            matches.map((m) => this.columns.map((c) => c.value(m))),
          )
        : `${JSON.stringify(
            matches.map((m) => m.object),
            null,
            2,
          )}\n`;
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    this.say(vscode.l10n.t('Exported {0} results to {1}', matches.length, vscode.workspace.asRelativePath(uri)));
  }

  /** The fields shown after Name, Kind, Key and folder: the query's by default, else those ticked (nested ones among them). */
  private async pickColumns(run: ResultsRun): Promise<void> {
    const current = this.chosen ?? run.query.columns.filter((c) => c !== 'CommonName' && c !== 'Key');
    const names = [...new Set([...current, ...columnChoices(run.scope.kinds)])];
    const picked = await vscode.window.showQuickPick(
      names.map((label) => ({ label, picked: current.includes(label) })),
      { canPickMany: true, title: vscode.l10n.t('Columns of the results') },
    );
    if (!picked) return;
    this.chosen = picked.map((p) => p.label);
    this.columns = resultColumns(run.query, this.chosen.length ? this.chosen : undefined);
    const rows = [...this.inTable].flatMap((id) => {
      const m = this.matches.get(id);
      return m ? [this.row(m)] : [];
    });
    void this.post({ type: 'columns', columns: this.columns.map((c) => c.title), rows });
  }

  private say(text: string): void {
    void this.post({ type: 'say', text });
  }

  private post(message: object): Thenable<boolean> {
    return this.panel.webview.postMessage(message);
  }

  private html(): string {
    const t = (text: string) => html(vscode.l10n.t(text));
    return webviewPage(this.panel.webview, this.s.context.extensionUri, {
      title: t('Query Results'),
      stylesheet: 'results.css',
      scripts: ['resultRows.js', 'results.js'],
      strings: scriptStrings(),
      body: `<header>
  <h1 id="title">${t('Loading…')}</h1>
  <div class="line"><span id="progress"></span><span id="live"></span></div>
  <div class="toolbar" role="toolbar" aria-label="${t('Results')}">
    <button id="cancel" type="button">${t('Cancel')}</button>
    <button id="bulk" type="button" class="secondary">${t('Bulk Edit…')}</button>
    <button id="pull" type="button" class="secondary">${t('Pull as Files…')}</button>
    <button id="exportJson" type="button" class="secondary">${t('Export JSON…')}</button>
    <button id="exportCsv" type="button" class="secondary">${t('Export CSV…')}</button>
    <button id="columns" type="button" class="secondary">${t('Columns…')}</button>
  </div>
  <div id="capped" class="capped warning" hidden>
    <span id="cappedText"></span> <button id="exportAll" type="button" class="secondary">${t('Export CSV…')}</button>
  </div>
  <p class="hint" id="hint">${t(
    'Up and Down move between rows, Enter opens the object, Space selects, Ctrl+A selects all, Escape clears, Ctrl+C copies its link; Shift+F10 opens the row menu (Reveal in Tree). A column header sorts by it.',
  )}</p>
</header>
<div id="grid" role="grid" aria-labelledby="title" aria-describedby="hint" aria-rowcount="1" aria-multiselectable="true">
  <div class="head" role="rowgroup"><div id="headRow" class="row" role="row" aria-rowindex="1"></div></div>
  <div id="scroller"><div id="sizer"><div id="body" role="rowgroup"></div></div></div>
  <p id="empty" class="empty" hidden>${t('No object matches.')}</p>
</div>
<div id="menu" role="menu" class="menu" aria-label="${t('Row')}" hidden>
  <button type="button" role="menuitem" data-action="open">${t('Open')}</button>
  <button type="button" role="menuitem" data-action="reveal">${t('Reveal in Tree')}</button>
  <button type="button" role="menuitem" data-action="copyLink">${t('Copy Link')}</button>
</div>
<p id="status" role="status" aria-live="polite"></p>
<div id="announce" class="visually-hidden" aria-live="polite" aria-atomic="true"></div>`,
    });
  }
}

/** A cell as the table shows and sorts it: a number as a number, anything else as one line of text. */
function cellOf(value: unknown): Cell {
  if (typeof value === 'number') return value;
  const text = cellText(value, 200);
  return text === '' ? null : text;
}

/** What media/results.js says, in the user's language. */
function scriptStrings(): Record<string, string> {
  return {
    sortBy: vscode.l10n.t('Sort by {0}'),
    sortedUp: vscode.l10n.t('Sorted by {0}, ascending'),
    sortedDown: vscode.l10n.t('Sorted by {0}, descending'),
    new: vscode.l10n.t('new'),
    changed: vscode.l10n.t('changed'),
    bulkAll: vscode.l10n.t('Bulk Edit All…'),
    bulkSelected: vscode.l10n.t('Bulk Edit {0} Selected…'),
    pullAll: vscode.l10n.t('Pull All as Files…'),
    pullSelected: vscode.l10n.t('Pull {0} Selected as Files…'),
    exportJson: vscode.l10n.t('Export JSON…'),
    exportJsonSelected: vscode.l10n.t('Export {0} Selected as JSON…'),
    exportCsv: vscode.l10n.t('Export CSV…'),
    exportCsvSelected: vscode.l10n.t('Export {0} Selected as CSV…'),
    selectedRow: vscode.l10n.t('{0} selected, {1} in all'),
    unselectedRow: vscode.l10n.t('{0} not selected, {1} selected in all'),
    selectedAll: vscode.l10n.t('All {0} selected'),
    selectedNone: vscode.l10n.t('None selected'),
  };
}
