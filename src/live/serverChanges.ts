/**
 * A decoration on objects changed on the server since the user opened them
 * (or last saved them): a badge and a tooltip naming the versions, on the
 * editor's tab and on the object in the Objects view (both carry the
 * object's `oms:` address).
 */
import * as vscode from 'vscode';
import { parseObjectUri, type ObjectAddress } from '../fs/objectUri';

const idOf = (a: ObjectAddress) => `${a.connectionId}|${a.folderKey}|${a.kind.id}|${a.key}`;

/** An open object's versions, and the Uris the workbench drew it under (its tab, its row in the Objects view). */
interface Tracked {
  opened: number;
  server: number;
  uris: Map<string, vscode.Uri>;
}

export class ServerChanges implements vscode.FileDecorationProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri[] | undefined>();
  readonly onDidChangeFileDecorations = this.emitter.event;
  /** Per open object: the version the user opened (or saved), and the server's as last read. */
  private readonly versions = new Map<string, Tracked>();

  /** An open object's versions (`uri`: its document): `opened` counts only the first time (or after `own`). */
  seen(address: ObjectAddress, opened: number, server: number, uri: vscode.Uri): void {
    const id = idOf(address);
    const known = this.versions.get(id);
    if (known?.server === server) return;
    const tracked = { opened: known?.opened ?? opened, server, uris: known?.uris ?? new Map<string, vscode.Uri>() };
    tracked.uris.set(uri.toString(), uri);
    this.versions.set(id, tracked);
    this.changed([tracked]);
  }

  /** The user saved the object (the version is theirs, not a change on the server). */
  own(address: ObjectAddress, version: number): void {
    const tracked = this.versions.get(idOf(address));
    if (!tracked) return;
    tracked.opened = tracked.server = version;
    this.changed([tracked]);
  }

  /** Forgets the objects no longer open. */
  keepOnly(open: readonly ObjectAddress[]): void {
    const ids = new Set(open.map(idOf));
    const dropped: Tracked[] = [];
    for (const [id, tracked] of this.versions) {
      if (ids.has(id)) continue;
      this.versions.delete(id);
      dropped.push(tracked);
    }
    if (dropped.length) this.changed(dropped);
  }

  /**
   * Everything drawn is asked again (a Uri drawn before the object was tracked, a row renamed since), and
   * then each Uri the object was drawn under, by name: the workbench fetches those at once, whether or not
   * it still holds an answer for them.
   */
  private changed(tracked: readonly Tracked[]): void {
    this.emitter.fire(undefined);
    this.emitter.fire(tracked.flatMap((t) => [...t.uris.values()]));
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const address = parseObjectUri(uri);
    const v = address && this.versions.get(idOf(address));
    v?.uris.set(uri.toString(), uri);
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
