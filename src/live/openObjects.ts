/** The object documents open in editor tabs, which live updates read again and follow. */
import vscode = require('vscode');
import type { ObjectFileSystem } from '../fs/objectFileSystem';
import { scheme, type ObjectAddress } from '../fs/objectUri';

/** An open document of an object. */
export interface OpenObject {
  uri: vscode.Uri;
  address: ObjectAddress;
}

/** The object documents open in editor tabs, of one connection or all (drafts not yet created are no server's object). */
export function openObjects(objectFiles: ObjectFileSystem, connectionId?: string): OpenObject[] {
  const seen = new Set<string>();
  const open: OpenObject[] = [];
  for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
    const uri = tab.input instanceof vscode.TabInputText ? tab.input.uri : undefined;
    if (uri?.scheme !== scheme || seen.has(uri.toString()) || objectFiles.isUncreatedDraft(uri)) continue;
    const address = objectFiles.addressOf(uri);
    if (!address || (connectionId !== undefined && address.connectionId !== connectionId)) continue;
    seen.add(uri.toString());
    open.push({ uri, address });
  }
  return open;
}
