/**
 * Objects as files (the `oms:` scheme). The provider only serves files: it
 * reads objects, keeps per document the object its text is based on (its
 * base), and hands every write to the save entry (documents/saves.ts,
 * given as `writer` by the composition root, extension.ts). A document's text is the object
 * without its ConcurrencyVersion (save/documentForm.ts).
 *
 * `stat().mtime` is the base's version, not the server's: VS Code's own
 * "the file is newer" check never fires (a conflict is ours to ask about,
 * once, when the save meets it), and an editor reloads exactly when its base
 * moves on (`rebase`, for editors without edits after a save made elsewhere).
 */
import vscode = require('vscode');
import { ApiError } from '../api/errors';
import type { ConnectionManager } from '../connection/connectionManager';
import { supports } from '../model/kinds';
import { newObject } from '../model/templates';
import type { BaseInfo } from '../model/types';
import { documentText } from '../save/documentForm';
import { isDirectoryPath, isDraftKey, newDraftKey, ObjectAddress, objectUri, parseObjectUri } from './objectUri';

interface Served {
  object: BaseInfo;
  text: Uint8Array;
  at: number;
}

interface Draft {
  text: Uint8Array;
  created?: BaseInfo;
  ctime: number;
}

/** What the provider does with a write: the save entry. */
export type DocumentWriter = (uri: vscode.Uri, text: string) => Promise<void>;

/** A read within this window reuses the last fetch (VS Code stats and reads in bursts). */
const reuseMs = 1000;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class ObjectFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  private readonly baseChanged = new vscode.EventEmitter<vscode.Uri>();
  /** Fires when the object a document is based on changes (a save, a reload): the status bar's version. */
  readonly onDidChangeBase = this.baseChanged.event;
  private readonly readNewer = new vscode.EventEmitter<{ uri: vscode.Uri; from: number; to: number }>();
  /** Fires when VS Code's read of a document found the server ahead of its base: a change on the server (live/serverChanges.ts). */
  readonly onDidReadNewer = this.readNewer.event;

  /** The last object served per document. */
  private readonly served = new Map<string, Served>();
  /** The object each document's text is based on: what VS Code last read or wrote. */
  private readonly bases = new Map<string, BaseInfo>();
  /**
   * Documents moved on to a newer base while they hold edits (the server's changes merged in): VS Code
   * still holds the mtime it last read, which `stat` keeps answering until the next save or read, so
   * VS Code's own "the file is newer" check does not stop the save the merge was for.
   */
  private readonly heldMtimes = new Map<string, number>();
  /** Drafts of new objects (key `new-...`) until their first save; then the created object. */
  private readonly drafts = new Map<string, Draft>();
  /** The save entry (documents/saves.ts); set by the composition root. */
  writer?: DocumentWriter;

  constructor(private readonly connections: ConnectionManager) {}

  dispose(): void {
    this.emitter.dispose();
    this.baseChanged.dispose();
    this.readNewer.dispose();
  }

  /** A new object of `address.kind`, pre-filled with a valid template; its first save creates it. */
  newDraft(address: Omit<ObjectAddress, 'key'>, name: string, folderName: string): vscode.Uri {
    const uri = objectUri({ ...address, key: newDraftKey() }, name, folderName);
    this.drafts.set(uri.toString(), { text: encoder.encode(documentText(newObject(address.kind, name))), ctime: Date.now() });
    return uri;
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    // The folder and collection prefixes exist as directories (workspace.fs.writeFile checks the parent).
    if (isDirectoryPath(uri)) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const { address, draft } = this.resolve(uri);
    if (draft && !draft.created) return { type: vscode.FileType.File, ctime: draft.ctime, mtime: draft.ctime, size: draft.text.byteLength };
    const base = this.baseOf(uri) ?? (await this.read(uri, address)).object;
    return {
      type: vscode.FileType.File,
      ctime: 0,
      mtime: this.heldMtimes.get(uri.toString()) ?? (base.ConcurrencyVersion ?? 0) + 1,
      size: encoder.encode(documentText(base)).byteLength,
      permissions: supports(address.kind, 'update') ? undefined : vscode.FilePermission.Readonly,
    };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const { address, draft } = this.resolve(uri);
    if (draft && !draft.created) return draft.text;
    return (await this.read(uri, address)).text;
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    if (!this.writer) throw vscode.FileSystemError.Unavailable(uri);
    await this.writer(uri, decoder.decode(content));
  }

  /**
   * The document's text is now based on `object` (it was saved, or a save
   * elsewhere moved it on). With `reload`, VS Code reads it again: an editor
   * without edits then shows the server's text. With `keepMtime` (edits merged
   * with the server's, not saved), VS Code's stat stays as it read it.
   */
  rebase(uri: vscode.Uri, object: BaseInfo, options: { reload?: boolean; keepMtime?: boolean } = {}): void {
    const held = this.bases.get(uri.toString());
    if (!options.keepMtime) this.heldMtimes.delete(uri.toString());
    else if (held && !this.heldMtimes.has(uri.toString())) this.heldMtimes.set(uri.toString(), (held.ConcurrencyVersion ?? 0) + 1);
    const draft = this.drafts.get(uri.toString());
    if (draft && !draft.created) draft.created = object;
    this.bases.set(uri.toString(), object);
    this.served.set(uri.toString(), { object, text: encoder.encode(documentText(object)), at: Date.now() });
    if (options.reload) this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    this.baseChanged.fire(uri);
  }

  /** Makes VS Code read a document again from the server (edits in it are kept). */
  reload(uri: vscode.Uri): void {
    this.heldMtimes.delete(uri.toString());
    this.served.delete(uri.toString());
    this.bases.delete(uri.toString());
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  /** The object a document addresses; a saved draft resolves to the object it created. */
  addressOf(uri: vscode.Uri): ObjectAddress | undefined {
    try {
      return this.resolve(uri).address;
    } catch {
      return undefined;
    }
  }

  /** True while the document is a draft nothing has been created for. */
  isUncreatedDraft(uri: vscode.Uri): boolean {
    const draft = this.drafts.get(uri.toString());
    return !!draft && !draft.created;
  }

  /** The object a document's text is based on (its version is the one a save checks). */
  baseOf(uri: vscode.Uri): BaseInfo | undefined {
    return this.bases.get(uri.toString()) ?? this.drafts.get(uri.toString())?.created;
  }

  /** The object as the server holds it now. */
  async serverObject(uri: vscode.Uri): Promise<BaseInfo> {
    const { address } = this.resolve(uri);
    return this.call(async () => (await this.connections.whenRestored(address.connectionId)).client.get(address.kind, address.folderKey, address.key));
  }

  /** The server's current version as a document shows it (for Compare). */
  async serverText(uri: vscode.Uri): Promise<string> {
    return documentText(await this.serverObject(uri));
  }

  // Not a hierarchy: directories are not browsed through the file system.
  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Folders are not created through the file system'));
  }
  delete(): void {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Use "Delete Object" from the tree or the palette'));
  }
  rename(): void {
    throw vscode.FileSystemError.NoPermissions(vscode.l10n.t('Rename the object by editing its CommonName'));
  }

  private resolve(uri: vscode.Uri): { address: ObjectAddress; draft?: Draft } {
    const parsed = parseObjectUri(uri);
    if (!parsed) throw vscode.FileSystemError.FileNotFound(uri);
    if (!isDraftKey(parsed.key)) return { address: parsed };
    const draft = this.drafts.get(uri.toString());
    if (!draft) throw vscode.FileSystemError.FileNotFound(uri);
    return { address: draft.created?.Key ? { ...parsed, key: draft.created.Key } : parsed, draft };
  }

  /** Reads the object (or reuses a read of the last second) and makes it the document's base. */
  private async read(uri: vscode.Uri, address: ObjectAddress): Promise<Served> {
    const key = uri.toString();
    const cached = this.served.get(key);
    if (cached && Date.now() - cached.at < reuseMs) return cached;
    // After a reload the connection may still be restoring (the sandbox starting, the token read): wait for it.
    const object = await this.call(async () => {
      const connection = await this.connections.whenRestored(address.connectionId);
      return connection.client.get(address.kind, address.folderKey, address.key);
    });
    const served = { object, text: encoder.encode(documentText(object)), at: Date.now() };
    this.served.set(key, served);
    const before = this.bases.get(key)?.ConcurrencyVersion;
    const moved = before !== object.ConcurrencyVersion;
    this.bases.set(key, object);
    this.heldMtimes.delete(key);
    if (moved) this.baseChanged.fire(uri);
    // VS Code stats before it reads: that stat answered the older base, whose mtime it now holds with the newer
    // text, and its save would then be refused as "newer". Told of the change, it stats and reads again (the read
    // reuses this one): its mtime is the new base's.
    if (moved && before !== undefined) this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    if (typeof before === 'number' && (object.ConcurrencyVersion ?? 0) > before) this.readNewer.fire({ uri, from: before, to: object.ConcurrencyVersion ?? 0 });
    return served;
  }

  /** Runs a read and turns an ApiError into a FileSystemError with the server's reason. */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const message = vscode.l10n.t('Could not read: {0}', e.message);
      if (e.kind === 'notFound') throw vscode.FileSystemError.FileNotFound(message);
      if (e.kind === 'permission' || e.kind === 'auth') throw vscode.FileSystemError.NoPermissions(message);
      if (e.kind === 'network' || e.kind === 'timeout') throw vscode.FileSystemError.Unavailable(message);
      throw new vscode.FileSystemError(message);
    }
  }
}
