/**
 * What a command acts on, resolved one way for every command: from a tree
 * node, an `oms:` Uri, an args object (tests, scripts, other extensions), or,
 * when nothing names it, the palette pickers. Nodes and args objects are read
 * by the same field names (`connectionId`, `folderKey`, `kind`, `key`), so an
 * args object works wherever a node does. A failure after a resolver settled
 * on a connection names it (`onConnection`), so the report can offer Sign In
 * for it. A command acting on a connection, folder, group, object, note or
 * document is `targeted()`: its target is resolved here before it runs. Only Batch-Add People and Send Push
 * Notification from File call `folderTarget` themselves, after reading the
 * file: a bad file asks nothing.
 */
import vscode = require('vscode');
import type { Connection } from '../../connection/connection';
import { documentNames, type ObjectAddress } from '../../fs/objectUri';
import { Kind, KindId, kind as kindOf, supports } from '../../model/kinds';
import { CollectionNode } from '../../tree/nodes/collectionNode';
import type { Paged } from '../../tree/nodes/loadMoreNode';
import { NoteNode } from '../../tree/nodes/noteNode';
import { namedBy } from './namedBy';
import { pickConnection, pickFolder, pickKind, pickObject } from './pick';
import type { Command, Services, TargetedCommand } from './command';
import { onConnection } from './failure';
import { kindLabel, kindsLabel } from '../../l10n';

export interface ConnectionTarget {
  connection: Connection;
}

export interface FolderTarget extends ConnectionTarget {
  folderKey: string;
}

export interface CollectionTarget extends FolderTarget {
  kind: Kind;
}

export interface ObjectTarget extends CollectionTarget {
  key: string;
  name: string;
}

/** A TargetedCommand as registered: its target resolved from the first argument, then run; a failure names the target's connection. */
export function targeted<T>(command: TargetedCommand<T>): Command {
  return {
    id: command.id,
    async run(s, ...args) {
      const target = await command.target(s, args[0]);
      const connectionId = connectionIdOfTarget(target);
      const run = () => command.run(s, target, ...args);
      return connectionId ? onConnection(connectionId, run) : run();
    },
  };
}

/** The connection a resolved target is on: its `connection`, or the `connectionId` of its `address`. */
function connectionIdOfTarget(target: unknown): string | undefined {
  const t = target as { connection?: { id?: unknown }; address?: { connectionId?: unknown } } | undefined;
  const id = t?.connection?.id ?? t?.address?.connectionId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * The connection an argument names, without asking: see `namedBy.ts`, or the
 * authority of an `oms:` Uri.
 */
export function connectionIdOf(arg: unknown): string | undefined {
  if (arg instanceof vscode.Uri) return arg.scheme === 'oms' && arg.authority ? arg.authority : undefined;
  return namedBy(arg).connectionId;
}

/** The named connection, else the one picked. */
async function resolveConnection(s: Services, arg: unknown): Promise<{ connection: Connection; named: boolean }> {
  const id = connectionIdOf(arg);
  const connection = id ? s.connections.require(id) : await pickConnection(s);
  return { connection, named: id !== undefined };
}

export async function connectionTarget(s: Services, arg: unknown): Promise<ConnectionTarget> {
  return { connection: (await resolveConnection(s, arg)).connection };
}

/** The connection the argument names, else the active one (searching and undoing should not start with a question), else the picker. */
export function activeConnectionTarget(s: Services, arg: unknown): Promise<ConnectionTarget> {
  return connectionTarget(s, connectionIdOf(arg) ?? s.connections.active?.id ?? arg);
}

/**
 * A folder, group or object node (its folder), a connection node or an args
 * object without `folderKey` (the connection's root folder), or the pickers.
 */
export async function folderTarget(s: Services, arg: unknown): Promise<FolderTarget> {
  const { connection, named } = await resolveConnection(s, arg);
  return onConnection(connection.id, async () => {
    const folderKey = namedBy(arg).folderKey ?? (named ? await connection.rootFolderKey() : await pickFolder(connection));
    return { connection, folderKey };
  });
}

/** A group node, args with `kind`, or the pickers (connection, kind that supports `operation`, folder). */
export async function collectionTarget(s: Services, arg: unknown, operation: 'list' | 'create'): Promise<CollectionTarget> {
  const given = namedBy(arg);
  const { connection, named } = await resolveConnection(s, arg);
  return onConnection(connection.id, async () => {
    const kind =
      given.kind ?? (await pickKind(operation, operation === 'create' ? vscode.l10n.t('Kind of object to create') : vscode.l10n.t('Kind of object')));
    const folderKey = given.folderKey ?? (named ? await connection.rootFolderKey() : await pickFolder(connection));
    return { connection, folderKey, kind };
  });
}

/** An object named in a command's args (scripts, tests, links): what `objectTarget` reads. */
export interface ObjectArgs {
  connectionId: string;
  folderKey: string;
  kind: KindId;
  key: string;
}

/**
 * An object node, an `oms:` Uri of an object document, args with
 * `connectionId`, `folderKey` and `key` (or `keyArg`, e.g. `siteKey`), or the
 * pickers. With `kindId`, anything of another kind is refused.
 */
export async function objectTarget(s: Services, kindId: KindId | undefined, arg: unknown, keyArg = 'key'): Promise<ObjectTarget> {
  if (arg instanceof vscode.Uri) return objectOfUri(s, kindId, arg);
  const given = namedBy(arg, keyArg);
  const wanted = kindId ? kindOf(kindId) : undefined;
  if (wanted && given.kind && given.kind.id !== wanted.id) throw new Error(worksOn(wanted));
  const { connection, named } = await resolveConnection(s, arg);
  const kind = wanted ?? given.kind;
  return onConnection(connection.id, async () => {
    if (named && given.key && kind) {
      const folderKey = given.folderKey ?? (await connection.rootFolderKey());
      return { connection, folderKey, kind, key: given.key, name: given.name ?? given.key };
    }
    const k = kind ?? (await pickKind('list', vscode.l10n.t('Kind of object')));
    const folderKey = given.folderKey ?? (await pickFolder(connection));
    const picked = await pickObject(connection, k, folderKey, kind ? vscode.l10n.t('{0} in this folder', kindLabel(k)) : undefined);
    return { connection, folderKey, kind: k, key: picked.Key ?? '', name: picked.CommonName || picked.Key || '' };
  });
}

async function objectOfUri(s: Services, kindId: KindId | undefined, uri: vscode.Uri): Promise<ObjectTarget> {
  const address = s.objectFiles.addressOf(uri);
  if (!address) throw new Error(vscode.l10n.t('{0} is not an object of the service', documentNames(uri).object || uri.toString()));
  if (kindId && address.kind.id !== kindId) throw new Error(worksOn(kindOf(kindId)));
  const { connection } = await resolveConnection(s, uri);
  const name = documentNames(uri).object || address.key;
  return { connection, folderKey: address.folderKey, kind: address.kind, key: address.key, name };
}

/**
 * The object a command about "this object" acts on: a tree node, an object
 * document's Uri, args, or else the object in the active editor (then the pickers).
 * With `kindId`, anything of another kind is refused.
 */
export async function thisObject(s: Services, arg: unknown, kindId?: KindId): Promise<ObjectTarget & { address: ObjectAddress }> {
  const editor = vscode.window.activeTextEditor?.document.uri;
  const t = await objectTarget(s, kindId, arg ?? (editor?.scheme === 'oms' ? editor : undefined));
  return { ...t, address: { connectionId: t.connection.id, folderKey: t.folderKey, kind: t.kind, key: t.key } };
}

/** An object document: its Uri (editor title), else the active editor's. */
export function objectDocumentTarget(_s: Services, arg: unknown): Promise<vscode.Uri> {
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  if (uri?.scheme !== 'oms') throw new Error(vscode.l10n.t('Open an object document to review its changes'));
  return Promise.resolve(uri);
}

/** Refuses an operation the registry says the service does not offer for the kind. */
export function requireOperation(kind: Kind, operation: 'create' | 'delete' | 'update'): void {
  if (!supports(kind, operation)) {
    const kinds = kindsLabel(kind).toLowerCase();
    throw new Error(
      operation === 'create'
        ? vscode.l10n.t('The service cannot create {0}', kinds)
        : operation === 'delete'
          ? vscode.l10n.t('The service cannot delete {0}', kinds)
          : vscode.l10n.t('The service cannot update {0}', kinds),
    );
  }
}

function worksOn(kind: Kind): string {
  return vscode.l10n.t('This command works on {0}', kindsLabel(kind).toLowerCase());
}

/** A file named by a Uri, by args `{ uri }` (a Uri, a URI string or a path), or by a path. */
export function uriOf(arg: unknown): vscode.Uri | undefined {
  const given = arg instanceof vscode.Uri || typeof arg === 'string' ? arg : (arg as { uri?: unknown } | undefined)?.uri;
  if (given instanceof vscode.Uri) return given;
  if (typeof given !== 'string' || !given) return undefined;
  // `c:\x` is a Windows path, not a URI with scheme `c`.
  return /^[a-z][\w+.-]+:/i.test(given) && !/^[a-z]:[\\/]/i.test(given) ? vscode.Uri.parse(given) : vscode.Uri.file(given);
}

/** A group that pages: itself, or the group of its "Load more" node. */
export function pagedTarget(_s: Services, arg: unknown): Promise<Paged> {
  const t = arg as (Partial<Paged> & { parent?: Partial<Paged> }) | undefined;
  const paged = typeof t?.loadAll === 'function' ? t : typeof t?.parent?.loadAll === 'function' ? t.parent : undefined;
  if (!paged) throw new Error(vscode.l10n.t('Choose a group of objects in the Objects view'));
  return Promise.resolve(paged as Paged);
}

/** A group of objects in the tree (filtering is the tree's own). */
export function groupTarget(_s: Services, arg: unknown): Promise<CollectionNode> {
  if (!(arg instanceof CollectionNode)) throw new Error(vscode.l10n.t('Filter works on a group of objects in the tree'));
  return Promise.resolve(arg);
}

/** One note of an object: a note in the tree, or args with the object and `noteKey`. */
export interface NoteTarget {
  address: ObjectAddress;
  noteKey: string;
  /** The object's name (its key when named by args). */
  name: string;
  /** Set from the tree: the note as shown, which a confirmation quotes. */
  node?: NoteNode;
}

export function noteTarget(_s: Services, arg: unknown): Promise<NoteTarget> {
  if (arg instanceof NoteNode) {
    if (!arg.note.Key) throw new Error(vscode.l10n.t('This note has no key, so it cannot be deleted'));
    return Promise.resolve({ address: arg.parent.address, noteKey: arg.note.Key, name: arg.parent.name, node: arg });
  }
  const { connectionId, folderKey, kind, key } = namedBy(arg);
  const noteKey = (arg as { noteKey?: unknown } | undefined)?.noteKey;
  if (!connectionId || !folderKey || !kind || !key || typeof noteKey !== 'string' || !noteKey) {
    throw new Error(vscode.l10n.t('Choose a note in the Objects view'));
  }
  return Promise.resolve({ address: { connectionId, folderKey, kind, key }, noteKey, name: key });
}
