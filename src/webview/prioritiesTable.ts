/**
 * An input scanner's eight reporting priorities as an editable table
 * (a webview panel, one per scanner). Built to VS Code's webview guidelines:
 * a content security policy with a nonce, local scripts and styles only,
 * theme colours from CSS variables, native form controls (keyboard and screen
 * readers work as anywhere), no Node or remote content: it runs the same in
 * the desktop and in the web/server build. Saves go through the save entry (documents/saves.ts).
 * A scanner deleted on the server keeps its rows in the table, to be saved as a new scanner, exported
 * as JSON, or closed.
 */
import vscode = require('vscode');
import type { Services } from '../services';
import type { ObjectAddress } from '../fs/objectUri';
import { applyEdits, checkEdits, RowEdit, rowsOf, statusOptions } from '../model/priorities';
import type { InputScannerInfo } from '../model/types';
import { validate, formatErrors } from '../validation/validator';
import { documentText } from '../save/documentForm';
import { notify } from '../ui/notify';
import { FollowingTable, openTables } from './openTables';
import { stepDone } from '../walkthrough';
import { conflictText, notSavedText, savedText, unchangedText } from '../documents/saves';
import { mergedText } from '../documents/mergedText';
import { html, webviewPage } from './pageParts';

/** From the webview. */
type Incoming =
  | { type: 'ready' }
  | { type: 'reload' }
  | { type: 'close' }
  /** The scanner is gone: its rows as a new scanner, or as JSON in an editor. */
  | { type: 'saveAsNew'; edits: RowEdit[] }
  | { type: 'export'; edits: RowEdit[] }
  | { type: 'save'; version: number | null; edits: RowEdit[] }
  /** Sent as the user types: unsaved edits (none when the table matches the server). */
  | { type: 'edits'; version: number | null; edits?: RowEdit[] };

/** To the webview. */
interface Shown {
  type: 'show';
  name: string;
  version: number | null;
  rows: ReturnType<typeof rowsOf>;
  statuses: ReturnType<typeof statusOptions>;
  message?: { level: 'info' | 'error'; text: string };
  /** Edits to put back into the table (a reopened table). */
  restore?: RowEdit[];
}

const viewType = 'oms.prioritiesTable';
const panels = openTables;

export class PrioritiesTable implements FollowingTable {
  private scanner?: InputScannerInfo;
  /** What the user typed and has not saved, with the version it was typed on. */
  private unsaved?: { version: number | null; edits: RowEdit[] };

  static show(s: Services, address: ObjectAddress, restore?: { version: number | null; edits: RowEdit[] }): void {
    const id = `${address.connectionId}|${address.key}`;
    const known = panels.get(id);
    if (known) {
      known.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(viewType, vscode.l10n.t('Scanner priorities'), vscode.ViewColumn.Active, {
      enableScripts: true,
      // Unsaved edits live in the page: keep it while its tab is in the background.
      retainContextWhenHidden: true,
      localResourceRoots: [vscode.Uri.joinPath(s.context.extensionUri, 'media')],
    });
    const table = new PrioritiesTable(s, address, panel);
    table.unsaved = restore;
    panels.set(id, table);
    panel.onDidDispose(() => {
      panels.delete(id);
      table.closedUnsaved();
    });
  }

  reveal(): void {
    this.panel.reveal();
  }

  /** Deleted on the server (found by live updates, a save or a reload): said once; the rows stay. */
  private gone = false;

  deleted(): void {
    if (this.gone) return;
    this.gone = true;
    this.panel.title = this.title(!!this.unsaved);
    const text = vscode.l10n.t('"{0}" was deleted on the server.', this.name());
    // Told as an editor of a deleted object is told, and in the table, with what fits a table.
    notify('info', text);
    const next = this.scanner
      ? vscode.l10n.t('Save as New Scanner creates it again in the same folder with these rows (your edits included); Export as JSON opens them in an editor.')
      : vscode.l10n.t('There is nothing to show.');
    void this.panel.webview.postMessage({ type: 'gone', text: `${text} ${next}` });
  }

  private name(): string {
    return this.scanner?.CommonName ?? this.address.key;
  }

  /** The server version the table was told about while it held edits. */
  private told?: number;

  /** The scanner as live updates read it: shown when the table holds no unsaved edits, else said once (its save merges). */
  follow(object: InputScannerInfo): void {
    if (this.gone) return;
    const theirs = object.ConcurrencyVersion ?? 0;
    // Not called while a save is on its way, its questions too (`ObjectSaves.isSaving`): its answer shows the server's scanner.
    if (!this.scanner || theirs <= (this.scanner.ConcurrencyVersion ?? 0)) return;
    if (!this.unsaved) {
      this.scanner = object;
      void this.post();
      return;
    }
    if (this.told !== undefined) return;
    this.told = theirs;
    const name = this.scanner.CommonName ?? this.address.key;
    const text = vscode.l10n.t('"{0}" changed on the server (version {1}): Save merges your edits with it, Reload shows it.', name, theirs);
    void this.post({ level: 'info', text }, false);
  }

  private constructor(
    private readonly s: Services,
    readonly address: ObjectAddress,
    readonly panel: vscode.WebviewPanel,
  ) {
    panel.webview.html = this.html();
    panel.webview.onDidReceiveMessage((m: Incoming) => void this.receive(m));
  }

  /** A panel cannot refuse to close: say so, and offer the edits back. */
  private closedUnsaved(): void {
    const unsaved = this.unsaved;
    if (!unsaved) return;
    const name = this.name();
    // A deleted scanner cannot be reopened: its rows can still be exported.
    const action = this.gone
      ? { title: vscode.l10n.t('Export as JSON'), run: () => this.exportRows(unsaved.edits) }
      : { title: vscode.l10n.t('Reopen with My Edits'), run: () => PrioritiesTable.show(this.s, this.address, unsaved) };
    notify('warning', vscode.l10n.t('The priorities table of "{0}" was closed with edits that were not saved.', name), action);
  }

  private async receive(m: Incoming): Promise<void> {
    if (m.type === 'edits') {
      this.unsaved = m.edits ? { version: m.version, edits: m.edits } : undefined;
      this.panel.title = this.title(!!this.unsaved);
      return;
    }
    if (m.type === 'close') {
      // Closed from the deleted scanner's choices: the user chose to let the rows go.
      this.unsaved = undefined;
      this.panel.dispose();
      return;
    }
    try {
      if (m.type === 'ready' || m.type === 'reload') await this.load();
      if (m.type === 'save') await this.save(m.version, m.edits);
      if (m.type === 'saveAsNew') await this.saveAsNew(m.edits);
      if (m.type === 'export') await this.exportRows(m.edits);
    } catch (e) {
      // The service's 404 names keys ("No input scanner 6b16… in folder 65a1…"): the table names the scanner.
      if ((e as { kind?: string }).kind === 'notFound') return this.deleted();
      await this.post({ level: 'error', text: (e as Error).message }, !this.gone);
    }
  }

  private async load(message?: Shown['message']): Promise<void> {
    this.scanner = await this.s.connections
      .require(this.address.connectionId)
      .client.get<InputScannerInfo>(this.address.kind, this.address.folderKey, this.address.key);
    await this.post(message);
  }

  private async save(version: number | null, edits: RowEdit[]): Promise<void> {
    const scanner = this.scanner;
    if (!scanner) return this.load();
    const problem = checkEdits(edits, scanner.InputScannerReportingPriorities?.length ?? 0);
    if (problem) return this.post({ level: 'error', text: vscode.l10n.t('Not saved: {0}', problem) }, false);
    if (version !== (scanner.ConcurrencyVersion ?? null))
      return this.post({ level: 'error', text: vscode.l10n.t('Not saved: the table was reloaded meanwhile; make the change again') });
    const edited = applyEdits(scanner, edits);
    const errors = validate(this.address.kind.schema, edited);
    if (errors.length) return this.post({ level: 'error', text: vscode.l10n.t('Not saved: {0}', formatErrors(errors, 3).replace(/\n/g, '; ')) }, false);
    const name = scanner.CommonName ?? this.address.key;
    // The scanner the table shows is the edit's base: a change made meanwhile elsewhere merges in.
    const { outcome: result, tookTheirs } = await this.s.saves.saveMerging(
      { address: this.address, edit: edited, base: version, options: { notStored: 'ignore' } },
      scanner,
      name,
    );
    if (result.status === 'saved' || result.status === 'unchanged') {
      stepDone('savedPriorities');
      this.scanner = result.object as InputScannerInfo;
      const text =
        result.status === 'unchanged' ? unchangedText(name) : tookTheirs ? mergedText(name, this.scanner, tookTheirs) : savedText(name, this.scanner);
      return this.post({ level: 'info', text });
    }
    if (result.status === 'refused' && result.refusal.kind === 'notFound') return this.deleted();
    if (result.status === 'conflict') {
      // The edits stay in the table; Reload shows the server's priorities.
      return this.post(
        { level: 'error', text: `${conflictText(name, result.server, version)} ${vscode.l10n.t('Reload to see it, then make your change again.')}` },
        false,
      );
    }
    return this.post({ level: 'error', text: notSavedText(name, result) }, false);
  }

  /** The deleted scanner's rows (as edited) created again in its folder, under its name; the table then shows the new one. */
  private async saveAsNew(edits: RowEdit[]): Promise<void> {
    const scanner = this.scanner;
    if (!scanner) return;
    const problem = checkEdits(edits, scanner.InputScannerReportingPriorities?.length ?? 0);
    if (problem) return this.post({ level: 'error', text: vscode.l10n.t('Not saved: {0}', problem) }, false);
    const fresh = { ...applyEdits(scanner, edits), Key: null, Href: null } as unknown as InputScannerInfo;
    const name = this.name();
    const outcome = await this.s.saves.save({ address: this.address, edit: fresh, base: null, create: true });
    if (outcome.status === 'refused' || outcome.status === 'conflict') return this.post({ level: 'error', text: notSavedText(name, outcome) }, false);
    if (outcome.status !== 'saved') return;
    this.unsaved = undefined;
    this.panel.dispose();
    PrioritiesTable.show(this.s, { ...this.address, key: outcome.object.Key ?? '' });
    notify('info', savedText(name, outcome.object, true));
  }

  /** The rows (as edited) in the scanner's JSON, in a new editor the user saves where they like; nothing is sent. */
  private async exportRows(edits: RowEdit[]): Promise<void> {
    if (!this.scanner) return;
    const doc = await vscode.workspace.openTextDocument({ language: 'json', content: documentText(applyEdits(this.scanner, edits)) });
    await vscode.window.showTextDocument(doc, { preview: false });
  }

  /** Sends the scanner (or, with `replace` false, only a message: the user's edits stay). */
  private async post(message?: Shown['message'], replace = true): Promise<void> {
    const scanner = this.scanner;
    if (scanner) this.panel.title = this.title(!!this.unsaved && !replace);
    if (!replace || !scanner) {
      await this.panel.webview.postMessage({ type: 'message', message });
      return;
    }
    const shown: Shown = {
      type: 'show',
      name: scanner.CommonName ?? this.address.key,
      version: scanner.ConcurrencyVersion ?? null,
      rows: rowsOf(scanner),
      statuses: statusOptions(scanner),
      message,
      // Edits typed on the version shown come back (a reopened table); edits on an older version do not.
      restore: this.unsaved?.version === (scanner.ConcurrencyVersion ?? null) ? this.unsaved.edits : undefined,
    };
    this.unsaved = undefined;
    this.told = undefined;
    await this.panel.webview.postMessage(shown);
  }

  /** The tab's title; a dot while the table holds unsaved edits. */
  private title(unsaved: boolean): string {
    const title = this.gone ? vscode.l10n.t('Priorities: {0} (deleted)', this.name()) : vscode.l10n.t('Priorities: {0}', this.name());
    return `${unsaved ? '● ' : ''}${title}`;
  }

  private html(): string {
    const t = (text: string) => html(vscode.l10n.t(text));
    const hint = t(
      'Tab moves between cells, Up and Down move between rows; in Status, Enter or Space opens the list and typing picks a status. Ctrl+S saves. Nothing is sent until you save.',
    );
    return webviewPage(this.panel.webview, this.s.context.extensionUri, {
      title: t('Scanner priorities'),
      stylesheet: 'priorities.css',
      scripts: ['priorities.js'],
      strings: scriptStrings(),
      body: `<main>
<header>
  <h1 id="title">${t('Loading…')}</h1>
  <span id="version"></span>
</header>
<div id="gone" class="gone warning" hidden>
  <p id="goneText" role="alert"></p>
  <div class="actions">
    <button id="saveAsNew" type="button">${t('Save as New Scanner')}</button>
    <button id="export" type="button" class="secondary">${t('Export as JSON')}</button>
    <button id="close" type="button" class="secondary">${t('Close')}</button>
  </div>
</div>
<p class="hint" id="hint">${hint}</p>
<table id="table" role="grid" aria-labelledby="title" aria-describedby="hint" aria-colcount="5">
  <thead><tr role="row" aria-rowindex="1">
    <th scope="col" role="columnheader" aria-colindex="1"><span aria-hidden="true">#</span><span class="visually-hidden">${t('Row')}</span></th>
    <th scope="col" role="columnheader" aria-colindex="2">${t('Label')}</th>
    <th scope="col" role="columnheader" aria-colindex="3">${t('Resistance range')}</th>
    <th scope="col" role="columnheader" aria-colindex="4">${t('Priority')}</th>
    <th scope="col" role="columnheader" aria-colindex="5">${t('Status')}</th>
  </tr></thead>
  <tbody id="rows"></tbody>
</table>
<div class="actions" id="actions">
  <button id="save" type="button" disabled>${t('Save')}</button>
  <button id="revert" type="button" class="secondary" disabled>${t('Revert')}</button>
  <button id="reload" type="button" class="secondary">${t('Reload from Server')}</button>
</div>
<p id="status" role="status" aria-live="polite"></p>
<div id="announce" class="visually-hidden" aria-live="polite" aria-atomic="true"></div>
</main>`,
    });
  }
}

/** What media/priorities.js says, in the user's language (`{0}` and so on filled in there). */
function scriptStrings(): Record<string, string> {
  return {
    version: vscode.l10n.t('version {0}'),
    row: vscode.l10n.t('row {0} ({1})'),
    labelOf: vscode.l10n.t('Label of {0}'),
    priorityOf: vscode.l10n.t('Priority of {0}'),
    statusOf: vscode.l10n.t('Status of {0}'),
    notWhole: vscode.l10n.t('Priority in row {0} must be a whole number'),
    saving: vscode.l10n.t('Saving…'),
    reloading: vscode.l10n.t('Reloading…'),
    deleted: vscode.l10n.t('deleted on the server'),
    goneHint: vscode.l10n.t(
      'Tab moves between cells, Up and Down move between rows. The scanner is deleted: the buttons above say what can be done with these rows.',
    ),
    back: vscode.l10n.t("{0}: {1}, back to the server's value"),
    changed: vscode.l10n.t('{0}: {1}, was {2}, not saved yet'),
  };
}
