/**
 * Objects as files. Save = parse, schema, immutable fields, version check, PUT.
 * Every failure throws a FileSystemError, so the editor stays dirty and the
 * user's text is kept; nothing is sent unless every check passed.
 */
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import { supports } from '../model/kinds';
import { newObject } from '../model/templates';
import type { BaseInfo } from '../model/types';
import { changedImmutableFields, isStale, prettyJson, sameJson } from '../model/saveChecks';
import { formatErrors, validate } from '../validation/validator';
import type { ConnectionManager } from '../connection/connectionManager';
import { isDirectoryPath, isDraftKey, newDraftKey, ObjectAddress, objectUri, parseObjectUri } from './objectUri';
import { log } from '../log';

export type ConflictChoice = 'compare' | 'overwrite' | 'cancel';
export type ConflictResolver = (uri: vscode.Uri, serverVersion: BaseInfo) => Promise<ConflictChoice>;

interface Snapshot {
  object: BaseInfo;
  text: Uint8Array;
  fetchedAt: number;
}

/** A stat within this window reuses the last fetch (VS Code stats in bursts). */
const statReuseMs = 1000;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class ObjectFileSystem implements vscode.FileSystemProvider {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  private readonly saved = new vscode.EventEmitter<ObjectAddress>();
  /** Fires after a create, update or delete went through. */
  readonly onDidChangeObject = this.saved.event;

  private readonly snapshots = new Map<string, Snapshot>();
  /** Drafts of new objects (key `new-...`) until their first save; then the created key. */
  private readonly drafts = new Map<string, { text: Uint8Array; created?: string; ctime: number }>();

  constructor(private readonly connections: ConnectionManager, public resolveConflict: ConflictResolver) {}

  /** Opens an editor on a new object of `address.kind`, pre-filled with a valid template. */
  newDraft(address: Omit<ObjectAddress, 'key'>, name: string): vscode.Uri {
    const uri = objectUri({ ...address, key: newDraftKey() }, name);
    const template = newObject(address.kind, name);
    this.drafts.set(uri.toString(), { text: encoder.encode(prettyJson(template)), ctime: Date.now() });
    return uri;
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
    return (await this.fetch(uri, address, 0)).text;
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const { address, draft } = this.resolve(uri);
    const edited = this.parse(content, address);
    const connection = this.connection(address);

    if (draft && !draft.created) {
      const created = await this.call(() => connection.client.create(address.kind, address.folderKey, edited), 'create');
      if (!created?.Key) throw new vscode.FileSystemError('The service created the object but did not return its Key');
      draft.created = created.Key;
      this.remember(uri, created);
      log().info(`Created ${address.kind.label} ${created.CommonName ?? ''} (${created.Key})`);
      this.afterChange(uri, { ...address, key: created.Key });
      return;
    }
    if (!supports(address.kind, 'update')) {
      throw vscode.FileSystemError.NoPermissions(`The service cannot update ${address.kind.pluralLabel.toLowerCase()}`);
    }

    const current = (await this.fetch(uri, address, 0)).object;
    const moved = changedImmutableFields(current, edited);
    if (moved.length) {
      throw new vscode.FileSystemError(`Not saved: ${moved.join(', ')} cannot be changed (the server has ${moved.map((f) => JSON.stringify(current[f])).join(', ')})`);
    }
    if (isStale(edited, current)) {
      const choice = await this.resolveConflict(uri, current);
      if (choice !== 'overwrite') {
        throw new vscode.FileSystemError(
          `Not saved: the object changed on the server (version ${current.ConcurrencyVersion}, you opened ${edited.ConcurrencyVersion}). ` +
            (choice === 'compare' ? 'Compare the versions, then save again to overwrite or revert to take theirs.' : 'Revert the file to load the server version.'),
        );
      }
      edited.ConcurrencyVersion = current.ConcurrencyVersion;
    }
    if (sameJson(edited, current)) return; // nothing to send

    await this.call(() => connection.client.update(address.kind, { ...edited, Key: address.key, InFolderKey: current.InFolderKey ?? address.folderKey }), 'save');
    log().info(`Saved ${address.kind.label} ${edited.CommonName ?? ''} (${address.key})`);
    await this.fetch(uri, address, 0).catch(() => undefined);
    this.afterChange(uri, address);
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

  /** The object as last read from the server for this document, if any. */
  lastRead(uri: vscode.Uri): BaseInfo | undefined {
    return this.snapshots.get(uri.toString())?.object;
  }

  /** The server's current version, pretty-printed (for Compare). */
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

  private resolve(uri: vscode.Uri): { address: ObjectAddress; draft?: { text: Uint8Array; created?: string; ctime: number } } {
    const parsed = parseObjectUri(uri);
    if (!parsed) throw vscode.FileSystemError.FileNotFound(uri);
    if (!isDraftKey(parsed.key)) return { address: parsed };
    const draft = this.drafts.get(uri.toString());
    if (!draft) throw vscode.FileSystemError.FileNotFound(uri);
    return { address: draft.created ? { ...parsed, key: draft.created } : parsed, draft };
  }

  private connection(address: ObjectAddress) {
    const connection = this.connections.get(address.connectionId);
    if (!connection) throw vscode.FileSystemError.Unavailable(`The connection of this document was removed`);
    return connection;
  }

  private async fetch(uri: vscode.Uri, address: ObjectAddress, reuseMs: number): Promise<Snapshot> {
    const cached = this.snapshots.get(uri.toString());
    if (cached && Date.now() - cached.fetchedAt < reuseMs) return cached;
    const object = await this.call(() => this.connection(address).client.get(address.kind, address.folderKey, address.key), 'read');
    return this.remember(uri, object);
  }

  private remember(uri: vscode.Uri, object: BaseInfo): Snapshot {
    const snapshot = { object, text: encoder.encode(prettyJson(object)), fetchedAt: Date.now() };
    this.snapshots.set(uri.toString(), snapshot);
    return snapshot;
  }

  private parse(content: Uint8Array, address: ObjectAddress): BaseInfo {
    let value: unknown;
    try {
      value = JSON.parse(decoder.decode(content));
    } catch (e) {
      throw new vscode.FileSystemError(`Not saved: the document is not valid JSON (${(e as Error).message})`);
    }
    const errors = validate(address.kind.schema, value);
    if (errors.length) {
      throw new vscode.FileSystemError(`Not saved: ${errors.length} schema error${errors.length > 1 ? 's' : ''}: ${formatErrors(errors, 3)}`);
    }
    return value as BaseInfo;
  }

  /** Runs a call and turns an ApiError into a FileSystemError with the server's reason. */
  private async call<T>(fn: () => Promise<T>, what: string): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const detail = e.details.length ? ` (${e.details.slice(0, 3).map((d) => `${d.pointer ?? ''} ${d.message}`.trim()).join('; ')})` : '';
      const message = `Could not ${what}: ${e.message}${detail}`;
      if (e.kind === 'notFound') throw vscode.FileSystemError.FileNotFound(message);
      if (e.kind === 'permission' || e.kind === 'auth') throw vscode.FileSystemError.NoPermissions(message);
      if (e.kind === 'network' || e.kind === 'timeout') throw vscode.FileSystemError.Unavailable(message);
      throw new vscode.FileSystemError(message);
    }
  }

  private afterChange(uri: vscode.Uri, address: ObjectAddress): void {
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    this.saved.fire(address);
  }
}
