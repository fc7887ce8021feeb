/**
 * Object documents' Uris (see `objectUri`): names in the path, which VS Code
 * shows; the keys, which address the object, in the query. Every Uri of an
 * object document is built and read here.
 */
import vscode = require('vscode');
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

/** A name as one path segment: characters that would split or confuse it become `_`. */
function segment(name: string, fallback: string): string {
  return name.replace(/[\\/:*?"<>|#%]+/g, '_').trim() || fallback;
}

/**
 * `oms://<connection>/<folder name>/<collection>/<name>.json?folder=<key>&key=<key>`:
 * the path, which VS Code shows (tab, breadcrumb), names things; the query,
 * which it keeps but does not show, holds the keys that address the object.
 */
export function objectUri(a: ObjectAddress, name: string, folderName: string, uriScheme = scheme): vscode.Uri {
  const path = `/${segment(folderName, a.folderKey)}/${a.kind.collection}/${segment(name, a.key)}.json`;
  return vscode.Uri.from({ scheme: uriScheme, authority: a.connectionId, path, query: new URLSearchParams({ folder: a.folderKey, key: a.key }).toString() });
}

/** The same document place for another object or name (a saved draft, a rename): the folder's name stays. */
export function renamedUri(uri: vscode.Uri, a: ObjectAddress, name: string): vscode.Uri {
  return objectUri(a, name, documentNames(uri).folder, uri.scheme);
}

export function parseObjectUri(uri: vscode.Uri): ObjectAddress | undefined {
  const parts = segments(uri);
  const query = new URLSearchParams(uri.query);
  const [folderKey, key] = [query.get('folder'), query.get('key')];
  if (parts.length === 3 && folderKey && key) {
    const kind = kindByCollection(parts[1]);
    return kind && { connectionId: uri.authority, folderKey, kind, key };
  }
  // The earlier form, keys in the path (`/<folder>/<collection>/<key>/<name>.json`), of editors VS Code restores.
  if (parts.length !== 4) return undefined;
  const kind = kindByCollection(parts[1]);
  return kind && { connectionId: uri.authority, folderKey: parts[0], kind, key: parts[2] };
}

/** The names a document's path shows: its folder's and its own (the tab's title without `.json`). */
export function documentNames(uri: vscode.Uri): { folder: string; object: string } {
  const parts = segments(uri);
  return { folder: parts[0] ?? '', object: (parts[parts.length - 1] ?? '').replace(/\.json$/, '') };
}

function segments(uri: vscode.Uri): string[] {
  return uri.path.split('/').filter(Boolean);
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

/** What is not an object document (`/`, `/<folder>`, `/<folder>/<collection>`) is a directory. */
export function isDirectoryPath(uri: vscode.Uri): boolean {
  return !parseObjectUri(uri) && segments(uri).length < 4;
}
