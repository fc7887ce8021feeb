/**
 * The save entry of every surface. Every write of an object goes through `save`: an
 * editor's save (VS Code hands the text to the file system provider once,
 * which hands it here), the priorities table, the quick edit, Restore; bulk
 * runs and plan apply use the operation below it (save/saveObject.ts) and
 * report here through `saved`. After a save, every open editor of the object
 * follows: one without edits shows the server's text and version, one with
 * edits keeps them and its base (its next save meets the conflict).
 *
 * A refused explicit save of a document is reported once, in our words, and
 * the document stays dirty without an error thrown at VS Code (which would
 * add its own raw "Failed to save" notification, and a second conflict
 * prompt). VS Code does not auto-save object documents: their language
 * (`objectLanguage`) has `files.autoSave` off by default, whatever the user's
 * general setting. Where a user turns it on for that language, an auto-save
 * is still refused, with an error (see `writeDocument`).
 *
 * What the user reads about a save is written here, each message once (the
 * end of this file); the questions on a conflict are in conflictQuestions.ts.
 */
import vscode = require('vscode');
import type { ConnectionManager } from '../connection/connectionManager';
import type { ObjectFileSystem } from '../fs/objectFileSystem';
import { ObjectAddress, sameObject, scheme } from '../fs/objectUri';
import { compareWithServer } from './compare';
import { log } from '../log';
import type { BaseInfo } from '../model/types';
import type { SaveHistory } from '../save/history';
import type { Refusal, SaveOutcome } from '../save/outcome';
import { saveObject, SaveOptions } from '../save/saveObject';
import type { MergeChoices, MergeConflict } from '../changes/merge3';
import { documentText } from '../save/documentForm';
import { notify, MessageAction } from '../ui/notify';
import { discardAndClose } from './closeDocuments';
import { documentName, parsed, replaceText } from './documentEdits';

export type ConflictChoice = 'compare' | 'overwrite' | 'cancel';
export type ConflictQuestion = (uri: vscode.Uri, name: string, server: BaseInfo, base: number | null) => Promise<ConflictChoice>;
/** The user's side per conflicting field (undefined: stop, nothing sent). */
/** Asks which side each conflicting field takes; `object` (the user's edit) names the fields' array items. */
export type FieldChoices = (name: string, conflicts: MergeConflict[], uri?: vscode.Uri, object?: unknown) => Promise<MergeChoices | undefined>;

export interface SaveRequest {
  address: ObjectAddress;
  /** The edited object, or a document's text. */
  edit: string | BaseInfo;
  /** The version the edit is based on. */
  base: number | null;
  /** Create instead of update (a draft's first save). */
  create?: boolean;
  /** The document that saves (it is not reloaded; it already holds the text). */
  uri?: vscode.Uri;
  options?: SaveOptions;
}

/** Objects of one collection a run wrote up to which the views re-read each; above, the whole collection once. */
const rereadEach = 20;

/** Save reasons VS Code starts on its own (files.autoSave): nothing is sent for them. */
const automatic = new Set([vscode.TextDocumentSaveReason.AfterDelay, vscode.TextDocumentSaveReason.FocusOut]);

export class ObjectSaves implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ObjectAddress>();
  /** Fires after a create, update or delete went through (the tree and Go to Object re-read). */
  readonly onDidChangeObject = this.changed.event;
  private readonly documentSaved = new vscode.EventEmitter<{ uri: vscode.Uri; object: BaseInfo; created: boolean }>();
  /** Fires after a document's save went through, with the object as the server now holds it. */
  readonly onDidSaveDocument = this.documentSaved.event;
  /** Why VS Code saves a document (onWillSaveTextDocument comes right before the provider's write). */
  private readonly reasons = new Map<string, vscode.TextDocumentSaveReason>();
  /** Documents saved again only to settle after a merge: their "no changes" must not replace the merge's message. */
  private readonly settling = new Set<string>();
  /** The last message per document, so one reason is reported once while the text stays the same. */
  private readonly reported = new Map<string, string>();
  /** Per document, the server version its last save's conflict question was about (`askedAbout`). */
  private readonly asked = new Map<string, number>();
  /** The objects of the saves on their way (`isSaving`). */
  private readonly onTheirWay: ObjectAddress[] = [];
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly connections: ConnectionManager,
    private readonly objectFiles: ObjectFileSystem,
    /** Where each save records the version it replaced. */
    readonly history: SaveHistory | undefined,
    /** The question on a conflict the merge cannot settle without the user (documents/conflictQuestions.ts; replaceable by tests). */
    public resolveConflict: ConflictQuestion,
    /** Keep mine or take theirs, per field changed on both sides (documents/conflictQuestions.ts; replaceable by tests). */
    public chooseFields: FieldChoices,
  ) {
    this.subscriptions = [
      vscode.workspace.onWillSaveTextDocument((e) => {
        if (e.document.uri.scheme === scheme) this.reasons.set(e.document.uri.toString(), e.reason);
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        this.reported.delete(doc.uri.toString());
        this.asked.delete(doc.uri.toString());
      }),
    ];
  }

  dispose(): void {
    this.changed.dispose();
    this.documentSaved.dispose();
    vscode.Disposable.from(...this.subscriptions).dispose();
  }

  /** The save operation of every surface: sends, records the history, and lets every open editor follow. */
  async save(request: SaveRequest): Promise<SaveOutcome> {
    const { address } = request;
    const connection = this.connections.require(address.connectionId);
    const target = { kind: address.kind, folderKey: address.folderKey, key: request.create ? undefined : address.key };
    return this.onItsWay(address, async () => {
      try {
        const outcome = await saveObject(connection.client, target, request.edit, request.base, request.options);
        if (outcome.status === 'saved') this.saved(address, outcome.object, outcome.replaced, request.uri);
        return outcome;
      } catch (e) {
        if (!(e instanceof vscode.CancellationError)) throw e;
        return {
          status: 'refused',
          refusal: { kind: 'cancelled', message: vscode.l10n.t('Not sent: you cancelled the write to {0}.', connection.info.label) },
        };
      }
    });
  }

  /** `work` with a save of the object on its way (`isSaving`) until it ends. */
  private async onItsWay<T>(address: ObjectAddress, work: () => Promise<T>): Promise<T> {
    this.onTheirWay.push(address);
    try {
      return await work();
    } finally {
      this.onTheirWay.splice(this.onTheirWay.indexOf(address), 1);
    }
  }

  /**
   * The server version a conflict question on this document's save was about, since its last save went through:
   * the user was asked about that version (live updates do not tell of it again).
   */
  askedAbout(uri: vscode.Uri): number | undefined {
    return this.asked.get(uri.toString());
  }

  /**
   * Whether a save of this object is on its way (asked, sent, or its answer awaited). A read meanwhile may
   * already hold the saved version: that is the user's own change, which the save's answer shows, not one made
   * on the server (live updates leave the object to it).
   */
  isSaving(address: ObjectAddress): boolean {
    return this.onTheirWay.some((a) => sameObject(a, address));
  }

  /**
   * `save`, and on a conflict the three-way merge of `baseObject` (what the
   * edit started from), the edit and the server's copy (changes/merge3.ts, the
   * merge of every surface): a clean merge is sent based on the server's
   * version; fields changed on both sides get the user's choice each first.
   * `merged` says what the server's changes brought in.
   */
  async saveMerging(
    request: SaveRequest,
    baseObject: BaseInfo | undefined,
    name: string,
  ): Promise<{ outcome: SaveOutcome; tookTheirs?: string[]; asked?: boolean }> {
    // On its way through the per-field question too: a poll meanwhile reads the version asked about, not news.
    return this.onItsWay(request.address, async () => {
      const outcome = await this.save(request);
      if (outcome.status !== 'conflict' || !baseObject) return { outcome };
      const mine = typeof request.edit === 'string' ? parsed(request.edit) : request.edit;
      if (!mine) return { outcome };
      // Loaded on the first conflict: activation does not load the merge.
      const { merge3 } = await import('../changes/merge3');
      let merge = merge3(request.address.kind, baseObject, mine, outcome.server);
      if (merge.conflicts.length) {
        const choices = await this.chooseFields(name, merge.conflicts, request.uri, mine);
        if (!choices) return { outcome, asked: true };
        merge = merge3(request.address.kind, baseObject, mine, outcome.server, choices);
        if (merge.conflicts.length) return { outcome, asked: true };
      }
      const merged = await this.save({ ...request, edit: merge.merged, base: outcome.server.ConcurrencyVersion ?? null });
      return { outcome: merged, tookTheirs: merge.tookTheirs };
    });
  }

  /**
   * A save that went through (here, or in a run of the executor): logged, the
   * replaced version in the save history, the tree told, and the open editors
   * of the object moved on (except `from`, the document that saved).
   */
  saved(address: ObjectAddress, object: BaseInfo, replaced?: BaseInfo, from?: vscode.Uri): void {
    const at = { ...address, key: object.Key ?? address.key };
    log().info(`Saved ${address.kind.label} ${object.CommonName ?? ''} (${at.key}), version ${object.ConcurrencyVersion}`);
    if (replaced) {
      void this.history
        ?.record(address.connectionId, {
          savedAt: new Date().toISOString(),
          kind: address.kind.id,
          folderKey: address.folderKey,
          key: at.key,
          object: replaced,
        })
        .catch((e) => log().warn(`Save history not recorded: ${(e as Error).message}`));
    }
    this.follow(at, object, from);
    this.changed.fire(at);
  }

  /** Open editors of the object without edits show `object`; one with edits keeps them and its base (its next save meets the conflict). */
  private follow(at: ObjectAddress, object: BaseInfo, from?: vscode.Uri): void {
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme !== scheme || doc.uri.toString() === from?.toString()) continue;
      const other = this.objectFiles.addressOf(doc.uri);
      if (other && sameObject(other, at) && !doc.isDirty) this.objectFiles.rebase(doc.uri, object, { reload: true });
    }
  }

  /** An object a run wrote (as the server now holds it) or deleted (undefined): its open editors follow at once. */
  runWrote(address: ObjectAddress, object: BaseInfo | undefined): void {
    if (object) this.follow(address, object);
  }

  /**
   * A run ended: the editors of what it deleted close (their edits would save into nothing), and the
   * tree and Go to Object re-read each object, or each collection once when the run wrote many of it.
   */
  async runEnded(written: readonly ObjectAddress[], deleted: readonly ObjectAddress[]): Promise<void> {
    if (deleted.length) {
      await discardAndClose((uri) => {
        const a = this.objectFiles.addressOf(uri);
        return !!a && deleted.some((d) => sameObject(a, d));
      });
    }
    const byCollection = new Map<string, ObjectAddress[]>();
    for (const a of [...written, ...deleted]) {
      const id = `${a.connectionId}\n${a.folderKey}\n${a.kind.id}`;
      const same = byCollection.get(id);
      if (same) same.push(a);
      else byCollection.set(id, [a]);
    }
    for (const addresses of byCollection.values()) {
      if (addresses.length <= rereadEach) addresses.forEach((a) => this.changed.fire(a));
      else this.changed.fire({ ...addresses[0], key: '' });
    }
  }

  /** Deletes on the server; the caller closes the editors. */
  async delete(address: ObjectAddress): Promise<void> {
    await this.connections.require(address.connectionId).client.delete(address.kind, address.folderKey, address.key);
    log().info(`Deleted ${address.kind.label} ${address.key}`);
    this.changed.fire(address);
  }

  /** The provider's write: an editor's save hands its text here, once. */
  async writeDocument(uri: vscode.Uri, text: string): Promise<void> {
    const key = uri.toString();
    const reason = this.reasons.get(key);
    this.reasons.delete(key);
    const settles = this.settling.delete(key);
    const name = documentName(uri);
    if (reason !== undefined && automatic.has(reason)) {
      // Only where the user turned auto-save on for the object language (it is off by default).
      // Auto-save never writes to the service; the edits stay, unsent. Thrown, not kept dirty by an edit
      // as a refused explicit save is: that edit would start the next auto-save, and the next, each
      // an undo step. The error puts the document in VS Code's error state, where auto-save waits for
      // the next explicit save (VS Code shows it once, in its own words).
      log().info(`Auto-save of ${name} held back: nothing sent`);
      throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Not sent: auto-save never writes to the service. Press Ctrl+S to send "{0}".', name));
    }
    const address = this.objectFiles.addressOf(uri);
    if (!address) throw vscode.FileSystemError.FileNotFound(uri);
    const create = this.objectFiles.isUncreatedDraft(uri);
    const base = create ? null : (this.objectFiles.baseOf(uri)?.ConcurrencyVersion ?? null);
    const merging = await this.saveMerging({ address, edit: text, base, create, uri }, create ? undefined : this.objectFiles.baseOf(uri), name);
    let outcome = merging.outcome;
    if (outcome.status === 'conflict') this.asked.set(key, outcome.server.ConcurrencyVersion ?? 0);
    if (merging.tookTheirs && (outcome.status === 'saved' || outcome.status === 'unchanged')) {
      // Merged with the server's changes: the editor shows the merge as one undoable edit, then settles (saved again: read, found unchanged, nothing written).
      const object = outcome.object;
      this.objectFiles.rebase(uri, object);
      await replaceText(uri, documentText(object));
      // Loaded with the merge that needs it: activation does not load the fields' names.
      const { mergedText } = await import('./mergedText');
      const merged = mergedText(name, object, merging.tookTheirs);
      vscode.window.setStatusBarMessage(merged, 8000);
      notify('info', merged);
      this.settling.add(key);
      setTimeout(() => void vscode.workspace.textDocuments.find((d) => d.uri.toString() === key)?.save(), 0);
      return;
    }
    if (outcome.status === 'conflict' && merging.asked) {
      // The per-field question was the only question: nothing more is said, the edits stay.
      if (reason === undefined) throw vscode.FileSystemError.Unavailable(notSavedText(name, outcome));
      return keepDirty(uri);
    }
    if (outcome.status === 'conflict') {
      const choice = await this.resolveConflict(uri, name, outcome.server, base);
      if (choice === 'overwrite') outcome = await this.save({ address, edit: text, base, uri, options: { overwrite: true } });
      else {
        if (choice === 'compare') await compareWithServer(uri);
        // The question was the only message: the document stays dirty, nothing more is said.
        if (reason === undefined) throw vscode.FileSystemError.Unavailable(notSavedText(name, outcome));
        return keepDirty(uri);
      }
    }
    if (outcome.status === 'saved' || outcome.status === 'unchanged') {
      this.reported.delete(key);
      this.asked.delete(key);
      this.objectFiles.rebase(uri, outcome.object);
      if (outcome.status === 'saved') this.documentSaved.fire({ uri, object: outcome.object, created: outcome.created });
      if (!settles || outcome.status === 'saved')
        vscode.window.setStatusBarMessage(outcome.status === 'saved' ? savedText(name, outcome.object, outcome.created) : unchangedText(name), 5000);
      return;
    }
    // A write that is not a document's save (workspace.fs.writeFile): its caller gets the error.
    if (reason === undefined) throw vscode.FileSystemError.Unavailable(notSavedText(name, outcome));
    const refused = outcome;
    this.once(uri, notSavedText(name, refused), () => reportNotSaved(refused, name, { uri, connectionId: address.connectionId }));
    await keepDirty(uri);
  }

  /** Shows a message about a document unless the same one was shown for the same text. */
  private once(uri: vscode.Uri, message: string, show: (message: string) => unknown): void {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    const key = `${message}\n${doc?.getText() ?? ''}`;
    if (this.reported.get(uri.toString()) === key) return;
    this.reported.set(uri.toString(), key);
    show(message);
  }
}

/**
 * Keeps a document dirty after a write that sent nothing, without throwing at
 * VS Code: a change made while the write runs makes VS Code keep the document
 * dirty when the write returns. The change leaves the text as it was (a space
 * added at the end and taken away again; an edit of a text by itself would be
 * no change at all).
 */
async function keepDirty(uri: vscode.Uri): Promise<void> {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (!doc) return;
  const end = doc.positionAt(doc.getText().length);
  const add = new vscode.WorkspaceEdit();
  add.insert(uri, end, ' ');
  const remove = new vscode.WorkspaceEdit();
  remove.delete(uri, new vscode.Range(end, end.translate(0, 1)));
  if (!(await vscode.workspace.applyEdit(add)) || !(await vscode.workspace.applyEdit(remove)))
    log().warn(`${uri.path}: could not keep the unsent edit marked unsaved`);
}

// What the user reads about a save, each message written once: saved, unchanged, merged, a conflict,
// a refusal (with the action that helps). Every save surface (editor, priorities table, quick edit,
// Restore) words its outcome through these.

type NotSaved = Exclude<SaveOutcome, { status: 'saved' | 'unchanged' }>;

export function savedText(name: string, object: BaseInfo, created = false): string {
  return created
    ? vscode.l10n.t('Created "{0}" (version {1})', object.CommonName ?? name, String(object.ConcurrencyVersion))
    : vscode.l10n.t('Saved "{0}" (version {1})', object.CommonName ?? name, String(object.ConcurrencyVersion));
}

export function unchangedText(name: string): string {
  return vscode.l10n.t('"{0}": no changes to send', name);
}

/** The wording of a conflict: whose version is where. */
export function conflictText(name: string, server: BaseInfo, base: number | null): string {
  return vscode.l10n.t(
    '"{0}" changed on the server (now version {1}; your edit is based on version {2}).',
    name,
    String(server.ConcurrencyVersion),
    String(base),
  );
}

export function notSavedText(name: string, outcome: NotSaved): string {
  return notSavedBecause(name, outcome.status === 'conflict' ? conflictText(name, outcome.server, outcome.base) : outcome.refusal.message);
}

/** A save not sent, and why (also for an edit refused before it became a save). */
export function notSavedBecause(name: string, reason: string): string {
  return vscode.l10n.t('"{0}" not saved: {1}', name, reason);
}

export interface ReportPlace {
  /** The document saved: Compare and Show Problems act on it. */
  uri?: vscode.Uri;
  connectionId?: string;
}

/** Says, in one notification with the actions that help, why a save was not sent. */
export function reportNotSaved(outcome: NotSaved, name: string, place: ReportPlace = {}): void {
  if (outcome.status === 'refused' && outcome.refusal.kind === 'cancelled') {
    vscode.window.setStatusBarMessage(vscode.l10n.t('"{0}" not sent: cancelled', name), 5000);
    return;
  }
  const actions: MessageAction[] = outcome.status === 'conflict' ? compareAction(place) : refusalActions(outcome.refusal, place);
  notify(outcome.status === 'conflict' ? 'warning' : 'error', notSavedText(name, outcome), ...actions);
}

function compareAction(place: ReportPlace): MessageAction[] {
  const uri = place.uri;
  return uri ? [{ title: vscode.l10n.t('Compare'), run: () => compareWithServer(uri) }] : [];
}

function refusalActions(refusal: Refusal, place: ReportPlace): MessageAction[] {
  const actions: MessageAction[] = [];
  if (refusal.kind === 'invalid' || refusal.kind === 'identity' || refusal.kind === 'notStored') {
    actions.push({ title: vscode.l10n.t('Show Problems'), run: () => vscode.commands.executeCommand('workbench.actions.view.problems') });
  }
  if (refusal.kind === 'auth' && place.connectionId) {
    const id = place.connectionId;
    actions.push({ title: vscode.l10n.t('Sign In'), run: () => vscode.commands.executeCommand('oms.signIn', id) });
  }
  if (refusal.kind === 'server') actions.push(...compareAction(place));
  return actions;
}
