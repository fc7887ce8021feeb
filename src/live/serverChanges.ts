/**
 * A decoration on objects changed on the server since the user opened them
 * (or last saved them): a badge and a tooltip naming the versions, on the
 * editor's tab and on the object in the Objects view (both carry the
 * object's `oms:` address).
 */
import vscode = require('vscode');
import { parseObjectUri, type ObjectAddress } from '../fs/objectUri';

const idOf = (a: ObjectAddress) => `${a.connectionId}|${a.folderKey}|${a.kind.id}|${a.key}`;

/** Objects drawn but not open whose Uris are remembered (a row is usually drawn just before it is opened). */
const untrackedKept = 1000;

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
  /** The Uris asked about of objects not tracked yet, the most recently drawn last. */
  private readonly drawnBefore = new Map<string, Map<string, vscode.Uri>>();

  /** An open object's versions (`uri`: its document): `opened` counts only the first time (or after `own`). */
  seen(address: ObjectAddress, opened: number, server: number, uri: vscode.Uri): void {
    const id = idOf(address);
    const known = this.versions.get(id);
    if (known?.server === server) return;
    const uris = known?.uris ?? this.drawnBefore.get(id) ?? new Map<string, vscode.Uri>();
    this.drawnBefore.delete(id);
    const tracked = { opened: known?.opened ?? opened, server, uris };
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
      for (const uri of tracked.uris.values()) this.rememberDrawn(id, uri); // its rows stay drawn
    }
    if (dropped.length) this.changed(dropped);
  }

  /**
   * Each Uri the object was drawn under is named (its tab, its row, a row renamed since, one drawn before it
   * was opened): the workbench fetches those at once. Not "everything again": that drops every answer the
   * workbench holds from this provider and re-asks every row drawn (thousands after Load all) on each change;
   * with it, under load, the badge was sometimes not drawn (the live-updates UI check failed 2 runs of 6).
   */
  private changed(tracked: readonly Tracked[]): void {
    this.emitter.fire(tracked.flatMap((t) => [...t.uris.values()]));
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const address = parseObjectUri(uri);
    if (!address) return undefined;
    const id = idOf(address);
    const v = this.versions.get(id);
    if (!v) {
      this.rememberDrawn(id, uri);
      return undefined;
    }
    v.uris.set(uri.toString(), uri);
    if (v.server <= v.opened) return undefined;
    return {
      badge: '↓',
      tooltip: vscode.l10n.t('Changed on the server since you opened it: version {0} → {1}', v.opened, v.server),
      color: new vscode.ThemeColor('gitDecoration.modifiedResourceForeground'),
    };
  }

  private rememberDrawn(id: string, uri: vscode.Uri): void {
    const uris = this.drawnBefore.get(id) ?? new Map<string, vscode.Uri>();
    uris.set(uri.toString(), uri);
    this.drawnBefore.delete(id);
    this.drawnBefore.set(id, uris);
    if (this.drawnBefore.size > untrackedKept) this.drawnBefore.delete(this.drawnBefore.keys().next().value!);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
