/**
 * Objects as files. A document's text is the object without its
 * ConcurrencyVersion (save/documentForm.ts); the provider remembers, per
 * document, the version that text is based on. Writes go through the one save
 * operation (save/saveObject.ts) and only when the user meant them: a save
 * VS Code starts on its own (files.autoSave) is held back. Every refusal
 * throws, so the editor stays dirty and the user's text is kept.
 */
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import { supports } from '../model/kinds';
import { newObject } from '../model/templates';
import type { BaseInfo } from '../model/types';
import { documentText } from '../save/documentForm';
import type { SaveOutcome } from '../save/outcome';
import { saveObject } from '../save/saveObject';
import type { SaveHistory } from '../save/history';
import type { ConnectionManager } from '../connection/connectionManager';
import { isDirectoryPath, isDraftKey, newDraftKey, ObjectAddress, objectUri, parseObjectUri, sameObject, scheme } from './objectUri';
import { log } from '../log';

export type ConflictChoice = 'compare' | 'overwrite' | 'cancel';
export type ConflictResolver = (uri: vscode.Uri, serverVersion: BaseInfo) => Promise<ConflictChoice>;

/** A save that was not sent, with the one-line reason the user reads. */
class SaveRefused extends vscode.FileSystemError {
  constructor(readonly outcome: Exclude<SaveOutcome, { status: 'saved' | 'unchanged' }> | { status: 'heldBack' }, message: string) {
    super(message);
  }
}

interface Snapshot {
  object: BaseInfo;
  text: Uint8Array;
  fetchedAt: number;
}

interface Draft {
  text: Uint8Array;
  created?: BaseInfo;
  ctime: number;
}

/** A stat within this window reuses the last fetch (VS Code stats in bursts). */
const statReuseMs = 1000;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class ObjectFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  private readonly saved = new vscode.EventEmitter<ObjectAddress>();
  /** Fires after a create, update or delete went through. */
  readonly onDidChangeObject = this.saved.event;
  private readonly savedObject = new vscode.EventEmitter<{ uri: vscode.Uri; object: BaseInfo; replaced?: BaseInfo; created: boolean }>();
  /** Fires after a document's save went through, with the object as the server now holds it. */
  readonly onDidSaveObject = this.savedObject.event;

  /** The last fetch per document (stat, Compare). */
  private readonly snapshots = new Map<string, Snapshot>();
  /** The object each document's text is based on: what VS Code last read or wrote. */
  private readonly bases = new Map<string, BaseInfo>();
  /** Drafts of new objects (key `new-...`) until their first save; then the created object. */
  private readonly drafts = new Map<string, Draft>();
  /** Why VS Code is about to save a document (onWillSaveTextDocument), consumed by writeFile. */
  private readonly saveReasons = new Map<string, vscode.TextDocumentSaveReason>();
  /**
   * Text already sent by a command (Save); VS Code's write of it then sends
   * nothing, and until then stat keeps the version VS Code read, so its own
   * "file is newer" check does not mistake our save for someone else's.
   */
  private readonly committed = new Map<string, { text: string; mtime: number; size: number }>();

  constructor(
    private readonly connections: ConnectionManager,
    public resolveConflict: ConflictResolver,
    /** Where each save records the version it replaced. */
    readonly history?: SaveHistory,
  ) {}

  dispose(): void {
    this.emitter.dispose();
    this.saved.dispose();
    this.savedObject.dispose();
  }

  /** Opens an editor on a new object of `address.kind`, pre-filled with a valid template. */
  newDraft(address: Omit<ObjectAddress, 'key'>, name: string): vscode.Uri {
    const uri = objectUri({ ...address, key: newDraftKey() }, name);
    this.drafts.set(uri.toString(), { text: encoder.encode(documentText(newObject(address.kind, name))), ctime: Date.now() });
    return uri;
  }

  /** Called for every onWillSaveTextDocument of an object document. */
  willSave(uri: vscode.Uri, reason: vscode.TextDocumentSaveReason): void {
    this.saveReasons.set(uri.toString(), reason);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    // The folder/collection/key prefixes exist as directories (workspace.fs.writeFile checks the parent).
    if (isDirectoryPath(uri)) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const { address, draft } = this.resolve(uri);
    if (draft && !draft.created) {
      return { type: vscode.FileType.File, ctime: draft.ctime, mtime: draft.ctime, size: draft.text.byteLength };
    }
    const commit = this.committed.get(uri.toString());
    if (commit) return { type: vscode.FileType.File, ctime: 0, mtime: commit.mtime, size: commit.size };
    const snapshot = await this.fetch(uri, address, statReuseMs);
    return {
      type: vscode.FileType.File,
      ctime: 0,
      // The server's version drives VS Code's own "file is newer" check.
      mtime: (snapshot.object.ConcurrencyVersion ?? 0) + 1,
      size: snapshot.text.byteLength,
      permissions: supports(address.kind, 'update') ? undefined : vscode.FilePermission.Readonly,
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const { address, draft } = this.resolve(uri);
    if (draft && !draft.created) return draft.text;
    const snapshot = await this.fetch(uri, address, 0);
    this.bases.set(uri.toString(), snapshot.object);
    return snapshot.text;
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const key = uri.toString();
    const reason = this.saveReasons.get(key);
    this.saveReasons.delete(key);
    const text = decoder.decode(content);
    const commit = this.committed.get(key);
    this.committed.delete(key);
    if (commit?.text === text) return; // a command sent exactly this text a moment ago
    if (reason !== undefined && reason !== vscode.TextDocumentSaveReason.Manual) {
      throw new SaveRefused({ status: 'heldBack' }, heldBackMessage);
    }
    const outcome = await this.save(uri, text);
    if (outcome.status === 'saved' || outcome.status === 'unchanged') return;
    throw new SaveRefused(outcome, outcome.status === 'conflict'
      ? `The object changed on the server (now version ${outcome.server.ConcurrencyVersion}, your edit is based on ${outcome.base}): Compare, then save again to overwrite, or Revert to take theirs.`
      : outcome.refusal.message);
  }

  /**
   * Sends a document's text through the save operation, asking what to do on a
   * conflict. A command that calls this and then saves the document passes
   * `commit`, so VS Code's write of the same text sends nothing.
   */
  async save(uri: vscode.Uri, text: string, options: { commit?: boolean; base?: number | null } = {}): Promise<SaveOutcome> {
    const { address, draft } = this.resolve(uri);
    const connection = this.connection(address);
    const creating = !!draft && !draft.created;
    const based = creating ? undefined : await this.baseObject(uri, address);
    const base = options.base !== undefined ? options.base : based?.ConcurrencyVersion ?? null;
    const target = { kind: address.kind, folderKey: address.folderKey, key: creating ? undefined : address.key };
    let outcome: SaveOutcome;
    try {
      outcome = await saveObject(connection.client, target, text, base);
      if (outcome.status === 'conflict') {
        const choice = await this.resolveConflict(uri, outcome.server);
        if (choice === 'overwrite') outcome = await saveObject(connection.client, target, text, base, { overwrite: true });
      }
    } catch (e) {
      if (!(e instanceof vscode.CancellationError)) throw e;
      return { status: 'refused', refusal: { kind: 'cancelled', message: `Not sent: you cancelled the write to ${connection.info.label}.` } };
    }
    if (outcome.status === 'saved' || outcome.status === 'unchanged') {
      if (draft && outcome.status === 'saved' && outcome.created) draft.created = outcome.object;
      this.remember(uri, outcome.object);
      this.bases.set(uri.toString(), outcome.object);
      if (options.commit) {
        const stat = draft && creating ? { mtime: draft.ctime, size: draft.text.byteLength } : { mtime: (based?.ConcurrencyVersion ?? 0) + 1, size: encoder.encode(documentText(based ?? outcome.object)).byteLength };
        this.committed.set(uri.toString(), { text, ...stat });
      }
    }
    if (outcome.status === 'saved') this.afterSave(address, outcome, uri);
    return outcome;
  }

  /**
   * Sends an edit made outside an editor (quick edit, Restore) through the
   * same save operation; a conflict is returned, not asked about. Open
   * documents of the object that hold no edits then reload.
   */
  async sendEdit(address: ObjectAddress, edited: BaseInfo, base: number | null): Promise<SaveOutcome> {
    const connection = this.connection(address);
    let outcome: SaveOutcome;
    try {
      outcome = await saveObject(connection.client, { kind: address.kind, folderKey: address.folderKey, key: address.key }, edited, base);
    } catch (e) {
      if (!(e instanceof vscode.CancellationError)) throw e;
      return { status: 'refused', refusal: { kind: 'cancelled', message: `Not sent: you cancelled the write to ${connection.info.label}.` } };
    }
    if (outcome.status === 'saved') {
      this.afterSave(address, outcome);
      const open = vscode.workspace.textDocuments.filter((d) => !d.isDirty && d.uri.scheme === scheme && sameAddress(this.addressOf(d.uri), address));
      for (const doc of open) this.snapshots.delete(doc.uri.toString());
      if (open.length) this.emitter.fire(open.map((d) => ({ type: vscode.FileChangeType.Changed, uri: d.uri })));
    }
    return outcome;
  }

  private afterSave(address: ObjectAddress, outcome: Extract<SaveOutcome, { status: 'saved' }>, uri?: vscode.Uri): void {
    const at = { ...address, key: outcome.object.Key ?? address.key };
    log().info(`${outcome.created ? 'Created' : 'Saved'} ${address.kind.label} ${outcome.object.CommonName ?? ''} (${at.key}), version ${outcome.object.ConcurrencyVersion}`);
    if (outcome.replaced) {
      void this.history?.record(address.connectionId, { savedAt: new Date().toISOString(), kind: address.kind.id, folderKey: address.folderKey, key: at.key, object: outcome.replaced })
        .catch((e) => log().warn(`Save history not recorded: ${(e as Error).message}`));
    }
    this.saved.fire(at);
    if (uri) this.savedObject.fire({ uri, object: outcome.object, replaced: outcome.replaced, created: outcome.created });
  }

  /** Deletes on the server; the caller closes editors. */
  async deleteObject(address: ObjectAddress): Promise<void> {
    await this.call(() => this.connection(address).client.delete(address.kind, address.folderKey, address.key), 'delete');
    for (const key of [...this.snapshots.keys()]) if (key.includes(`/${encodeURIComponent(address.key)}/`)) this.snapshots.delete(key);
    this.saved.fire(address);
  }

  /** The object a document addresses; a saved draft resolves to the object it created. */
  addressOf(uri: vscode.Uri): ObjectAddress | undefined {
    try {
      return this.resolve(uri).address;
    } catch {
      return undefined;
    }
  }

  /** Makes VS Code read a document again (a copy of it it still holds may be stale); edits in it are kept. */
  reload(uri: vscode.Uri): void {
    this.snapshots.delete(uri.toString());
    this.bases.delete(uri.toString());
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  /** True while the document is a draft nothing has been created for. */
  isUncreatedDraft(uri: vscode.Uri): boolean {
    return !!this.drafts.get(uri.toString()) && !this.drafts.get(uri.toString())?.created;
  }

  /** The object a document's text is based on (its version is the one a save checks). */
  baseOf(uri: vscode.Uri): BaseInfo | undefined {
    return this.bases.get(uri.toString()) ?? this.drafts.get(uri.toString())?.created;
  }

  /** The server's current version as a document shows it (for Compare). */
  async serverText(uri: vscode.Uri): Promise<string> {
    const { address } = this.resolve(uri);
    return decoder.decode((await this.fetch(uri, address, 0)).text);
  }

  // Not a hierarchy: directories are not browsed through the file system.
  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions('Folders are not created through the file system');
  }
  delete(): void {
    throw vscode.FileSystemError.NoPermissions('Use "Delete Object" from the tree or the palette');
  }
  rename(): void {
    throw vscode.FileSystemError.NoPermissions('Rename the object by editing its CommonName');
  }

  private resolve(uri: vscode.Uri): { address: ObjectAddress; draft?: Draft } {
    const parsed = parseObjectUri(uri);
    if (!parsed) throw vscode.FileSystemError.FileNotFound(uri);
    if (!isDraftKey(parsed.key)) return { address: parsed };
    const draft = this.drafts.get(uri.toString());
    if (!draft) throw vscode.FileSystemError.FileNotFound(uri);
    return { address: draft.created?.Key ? { ...parsed, key: draft.created.Key } : parsed, draft };
  }

  /** The object the document's text was read at; read now when VS Code got it elsewhere. */
  private async baseObject(uri: vscode.Uri, address: ObjectAddress): Promise<BaseInfo> {
    const known = this.baseOf(uri);
    if (known) return known;
    const snapshot = await this.fetch(uri, address, 0);
    this.bases.set(uri.toString(), snapshot.object);
    return snapshot.object;
  }

  /** Drops a commit VS Code did not write (the save found nothing to do). */
  forgetCommit(uri: vscode.Uri): void {
    this.committed.delete(uri.toString());
  }

  private connection(address: ObjectAddress) {
    return this.connections.require(address.connectionId);
  }

  private async fetch(uri: vscode.Uri, address: ObjectAddress, reuseMs: number): Promise<Snapshot> {
    const cached = this.snapshots.get(uri.toString());
    if (cached && Date.now() - cached.fetchedAt < reuseMs) return cached;
    const object = await this.call(() => this.connection(address).client.get(address.kind, address.folderKey, address.key), 'read');
    return this.remember(uri, object);
  }

  private remember(uri: vscode.Uri, object: BaseInfo): Snapshot {
    const snapshot = { object, text: encoder.encode(documentText(object)), fetchedAt: Date.now() };
    this.snapshots.set(uri.toString(), snapshot);
    return snapshot;
  }

  /** Runs a call and turns an ApiError into a FileSystemError with the server's reason. */
  private async call<T>(fn: () => Promise<T>, what: string): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const message = `Could not ${what}: ${e.message}`;
      if (e.kind === 'notFound') throw vscode.FileSystemError.FileNotFound(message);
      if (e.kind === 'permission' || e.kind === 'auth') throw vscode.FileSystemError.NoPermissions(message);
      if (e.kind === 'network' || e.kind === 'timeout') throw vscode.FileSystemError.Unavailable(message);
      throw new vscode.FileSystemError(message);
    }
  }
}

const sameAddress = (a: ObjectAddress | undefined, b: ObjectAddress) => !!a && sameObject(a, b);

const heldBackMessage = 'Not sent: auto-save never writes to the service. Press Ctrl+S (File: Save) to send this object.';
