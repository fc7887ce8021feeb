/**
 * A decoration on objects changed on the server since the user opened them
 * (or last saved them): a badge and a tooltip naming the versions, on the
 * editor's tab and on the object in the Objects view (both carry the
 * object's `oms:` address).
 */
import * as vscode from 'vscode';
import { parseObjectUri, type ObjectAddress } from '../fs/objectUri';

const idOf = (a: ObjectAddress) => `${a.connectionId}|${a.folderKey}|${a.kind.id}|${a.key}`;

export class ServerChanges implements vscode.FileDecorationProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<undefined>();
  readonly onDidChangeFileDecorations = this.emitter.event;
  /** Per open object: the version the user opened (or saved), and the server's as last read. */
  private readonly versions = new Map<string, { opened: number; server: number }>();

  /** An open object's versions: `opened` counts only the first time (or after `own`). */
  seen(address: ObjectAddress, opened: number, server: number): void {
    const id = idOf(address);
    const known = this.versions.get(id);
    if (known?.server === server) return;
    this.versions.set(id, { opened: known?.opened ?? opened, server });
    this.emitter.fire(undefined);
  }

  /** The user saved the object (the version is theirs, not a change on the server). */
  own(address: ObjectAddress, version: number): void {
    if (!this.versions.has(idOf(address))) return;
    this.versions.set(idOf(address), { opened: version, server: version });
    this.emitter.fire(undefined);
  }

  /** Forgets the objects no longer open. */
  keepOnly(open: readonly ObjectAddress[]): void {
    const ids = new Set(open.map(idOf));
    let dropped = false;
    for (const id of this.versions.keys()) if (!ids.has(id)) dropped = this.versions.delete(id);
    if (dropped) this.emitter.fire(undefined);
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const address = parseObjectUri(uri);
    const v = address && this.versions.get(idOf(address));
    if (!v || v.server <= v.opened) return undefined;
    return {
      badge: '↓',
      tooltip: vscode.l10n.t('Changed on the server since you opened it: version {0} → {1}', v.opened, v.server),
      color: new vscode.ThemeColor('gitDecoration.modifiedResourceForeground'),
    };
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
