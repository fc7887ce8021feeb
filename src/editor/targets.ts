/**
 * Where a reference in an object document leads, and how to get there: open
 * the object, reveal the folder (or the object's notes) in the tree, or show
 * another resource of the service read-only.
 */
import vscode = require('vscode');
import type { Services } from '../services';
import { ObjectAddress, objectUri } from '../fs/objectUri';
import { showCurrent } from '../documents/openCurrent';
import { Kind, kind as kindOf, kindByCollection } from '../model/kinds';
import { leavesBase, parseHref } from '../model/routes';
import type { IndexEntry, ObjectIndex } from '../search/objectIndex';
import type { TreePlace } from '../tree/objectTree';
import { showJson } from '../ui/showJson';
import type { LinkSpan } from './documentModel';
import { kindLabel } from '../l10n';

export type Target =
  | { type: 'object'; connectionId: string; folderKey: string; kind: Kind; key: string; notes?: boolean }
  | { type: 'folder'; connectionId: string; key: string }
  | { type: 'resource'; connectionId: string; path: string }
  | { type: 'key'; connectionId: string; key: string };

export function targetOf(connectionId: string, link: Pick<LinkSpan, 'href' | 'key'>): Target | undefined {
  if (link.href) {
    const parsed = parseHref(link.href);
    if (!parsed) return leavesBase(link.href) ? undefined : { type: 'resource', connectionId, path: link.href };
    if (!('key' in parsed)) return { type: 'folder', connectionId, key: parsed.folderKey };
    const kind = kindByCollection(parsed.collection);
    if (kind?.id === 'folder' && !parsed.rest.length) return { type: 'folder', connectionId, key: parsed.key };
    if (kind && (!parsed.rest.length || (parsed.rest.length === 1 && parsed.rest[0] === 'notes'))) {
      return { type: 'object', connectionId, folderKey: parsed.folderKey, kind, key: parsed.key, notes: parsed.rest.length === 1 };
    }
    return { type: 'resource', connectionId, path: link.href };
  }
  return link.key ? { type: 'key', connectionId, key: link.key } : undefined;
}

/** Kind and name of a target, for a hover ("Input scanner · Front Door"). */
export async function describe(s: Services, target: Target): Promise<{ kind: string; name: string; key?: string }> {
  const connection = s.connections.require(target.connectionId);
  const client = connection.client;
  switch (target.type) {
    case 'object': {
      const o = await client.get(target.kind, target.folderKey, target.key);
      return {
        kind: target.notes ? vscode.l10n.t('Notes of {0}', kindLabel(target.kind).toLocaleLowerCase()) : kindLabel(target.kind),
        name: o.CommonName || target.key,
        key: target.key,
      };
    }
    case 'folder': {
      const f = await client.folder(target.key);
      return {
        kind: target.key === (await connection.rootFolderKey()) ? vscode.l10n.t('Instance (root folder)') : vscode.l10n.t('Folder'),
        name: f.CommonName || target.key,
        key: target.key,
      };
    }
    case 'resource':
      return { kind: vscode.l10n.t('Resource of the service'), name: target.path };
    case 'key': {
      const entry = s.search.existing(target.connectionId)?.entry(target.key);
      if (entry) return { kind: kindLabel(entry.kind), name: entry.name, key: entry.key };
      if (target.key === (await connection.rootFolderKey())) return describe(s, { type: 'folder', connectionId: target.connectionId, key: target.key });
      return { kind: vscode.l10n.t('Object found by its key'), name: vscode.l10n.t('Ctrl+click to look it up'), key: target.key };
    }
  }
}

/** Opens or reveals a target. */
export async function follow(s: Services, target: Target): Promise<void> {
  const connection = s.connections.require(target.connectionId);
  if (target.type === 'object' && !target.notes) {
    // The tab is named after the object: from the index, else as the service has it.
    const name =
      s.search.existing(target.connectionId)?.entry(target.key)?.name ??
      (await connection.client.get(target.kind, target.folderKey, target.key)).CommonName ??
      target.key;
    await openObjectDocument(s, target, name);
    return;
  }
  if (target.type === 'object' || target.type === 'folder') {
    const place = await placeOf(
      s,
      target.connectionId,
      target.type === 'folder' ? kindOf('folder') : target.kind,
      target.key,
      target.type === 'object' ? target.folderKey : undefined,
    );
    const node = await s.tree.reveal(place);
    if (!node) throw new Error(vscode.l10n.t('Not found in the tree'));
    if (target.type === 'object') await s.tree.view?.reveal(node, { expand: true, select: true, focus: true });
    return;
  }
  if (target.type === 'resource') {
    const body = await connection.client.http({ method: 'GET', path: target.path });
    const doc = await vscode.workspace.openTextDocument({ language: 'json', content: JSON.stringify(body, null, 2) });
    await vscode.window.showTextDocument(doc, { preview: true });
    return;
  }
  const entry = await findByKey(s, target.connectionId, target.key);
  if (entry)
    return follow(
      s,
      entry.kind.id === 'folder'
        ? { type: 'folder', connectionId: target.connectionId, key: entry.key }
        : { type: 'object', connectionId: target.connectionId, folderKey: entry.folderKey, kind: entry.kind, key: entry.key },
    );
  if (target.key === (await connection.rootFolderKey())) return follow(s, { type: 'folder', connectionId: target.connectionId, key: target.key });
  throw new Error(vscode.l10n.t('No object with the key {0} on {1}', target.key, connection.info.label));
}

/** Opens an object's document (a preview tab named after the object, its path after its folder). */
/** `viewColumn`: where the editor opens (the active column when not given). */
export async function openObjectDocument(s: Services, address: ObjectAddress, name: string, viewColumn?: vscode.ViewColumn): Promise<vscode.Uri> {
  const uri = objectUri(address, name, await folderNameOf(s, address.connectionId, address.folderKey));
  await showCurrent(s.objectFiles, uri);
  await showJson(uri, { preview: true, viewColumn });
  return uri;
}

/** A folder's name for a document's path: from the index, else as the service has it (its key only when neither answers). */
export async function folderNameOf(s: Services, connectionId: string, folderKey: string): Promise<string> {
  const indexed = s.search.existing(connectionId)?.entry(folderKey)?.name;
  if (indexed) return indexed;
  const folder = await s.connections
    .require(connectionId)
    .client.folder(folderKey)
    .catch(() => undefined);
  return folder?.CommonName || folderKey;
}

/** Where an object or folder sits in the tree; the folders on its way come from the index. */
export async function placeOf(s: Services, connectionId: string, kind: Kind, key: string, folderKey?: string): Promise<TreePlace> {
  const rootKey = await s.connections.require(connectionId).rootFolderKey();
  if (kind.id === 'folder' && key === rootKey) return { connectionId, folderKeys: [], kindId: 'folder', key };
  if (folderKey === rootKey) return { connectionId, folderKeys: [rootKey], kindId: kind.id, key };
  const entry = await findByKey(s, connectionId, folderKey ?? key);
  if (!entry) throw new Error(vscode.l10n.t('Folder {0} not found on this connection', folderKey ?? key));
  const path = entry.folders.map((f) => f.key);
  return folderKey === undefined
    ? { connectionId, folderKeys: path, kindId: kind.id, key }
    : { connectionId, folderKeys: [...path, entry.key], kindId: kind.id, key };
}

/** An object by key: from the index, walking the connection (with a cancellable progress) until it shows up. */
async function findByKey(s: Services, connectionId: string, key: string): Promise<IndexEntry | undefined> {
  const index = s.search.of(connectionId);
  const known = index.entry(key);
  if (known) return known;
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Looking for the object on the service…'), cancellable: true },
    (_progress, token) => waitForEntry(index, key, token),
  );
}

function waitForEntry(index: ObjectIndex, key: string, token: vscode.CancellationToken): Promise<IndexEntry | undefined> {
  return new Promise<IndexEntry | undefined>((resolve, reject) => {
    const done = (entry: IndexEntry | undefined) => {
      stopListening();
      cancel.dispose();
      resolve(entry);
    };
    const stopListening = index.onEntries((added) => {
      const found = added.find((e) => e.key === key);
      if (found) done(found);
    });
    const cancel = token.onCancellationRequested(() => {
      index.stop();
      done(undefined);
    });
    index.ensure().then(
      () => done(index.entry(key)),
      (e: unknown) => {
        stopListening();
        cancel.dispose();
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
