/**
 * Object documents: `oms://<connection>/<folder>/<collection>/<key>/<name>.json`.
 * The last segment only names the tab; the key addresses the object.
 */
import * as vscode from 'vscode';
import { Kind, kindByCollection } from '../model/kinds';

export const scheme = 'oms';
/** Read-only view of the server's current version, for Compare. */
export const serverScheme = 'oms-server';
/**
 * The language of object documents (package.json `languages`, by the path's
 * shape): JSON to the JSON language features (`jsonLanguageParticipants`),
 * with `files.autoSave` off by default (`configurationDefaults`), so VS Code
 * never starts a save that would have to be refused.
 */
export const objectLanguage = 'oms-object';

export interface ObjectAddress {
  connectionId: string;
  folderKey: string;
  kind: Kind;
  key: string;
}

const draftPrefix = 'new-';

export function objectUri(a: ObjectAddress, name: string, uriScheme = scheme): vscode.Uri {
  const safe = (name || a.key).replace(/[\\/:*?"<>|#%]+/g, '_').trim() || a.key;
  const path = [a.folderKey, a.kind.collection, a.key].map(encodeURIComponent).join('/');
  return vscode.Uri.from({ scheme: uriScheme, authority: a.connectionId, path: `/${path}/${safe}.json` });
}

export function parseObjectUri(uri: vscode.Uri): ObjectAddress | undefined {
  const parts = uri.path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length !== 4) return undefined;
  const kind = kindByCollection(parts[1]);
  if (!kind) return undefined;
  return { connectionId: uri.authority, folderKey: parts[0], kind, key: parts[2] };
}

export function isDraftKey(key: string): boolean {
  return key.startsWith(draftPrefix);
}

let drafts = 0;
export function newDraftKey(): string {
  return `${draftPrefix}${Date.now().toString(36)}${(drafts++).toString(36)}`;
}

/** Same object, whatever the name segment says. */
export function sameObject(a: ObjectAddress, b: ObjectAddress): boolean {
  return a.connectionId === b.connectionId && a.folderKey === b.folderKey && a.kind.id === b.kind.id && a.key === b.key;
}

/** `/`, `/<folder>`, `/<folder>/<collection>` and `/<folder>/<collection>/<key>` are directories. */
export function isDirectoryPath(uri: vscode.Uri): boolean {
  return uri.path.split('/').filter(Boolean).length < 4;
}
