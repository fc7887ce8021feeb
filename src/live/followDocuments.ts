/**
 * Open object documents follow the server's reads. An editor without unsaved
 * edits is moved on to the server's object the way editors follow a save made
 * elsewhere (the provider's rebase and reload: VS Code keeps the cursor and
 * folding, nothing asks, focus stays). An editor with unsaved edits keeps them
 * and is told once, quietly, with Merge (the merge saves use) and Compare.
 */
import * as vscode from 'vscode';
import type { ObjectFileSystem } from '../fs/objectFileSystem';
import { documentNames } from '../fs/objectUri';
import type { OpenObject } from './openObjects';
import { compareWithServer } from '../documents/compare';
import type { BaseInfo } from '../model/types';
import { fieldLabels } from '../model/fieldNames';
import type { ObjectSaves } from '../documents/saves';
import { mergeServer } from '../documents/mergeServer';
import { notify } from '../ui/notify';
import type { ServerChanges } from './serverChanges';

export class FollowDocuments {
  /** Documents told about a server version (uri -> version), so each is told once. */
  private readonly told = new Map<string, number | 'gone'>();

  constructor(private readonly objectFiles: ObjectFileSystem, private readonly saves: ObjectSaves, private readonly changes: ServerChanges) {}

  /** The server's object (undefined: deleted) for an open document. */
  follow(open: OpenObject, server: BaseInfo | undefined): void {
    const { uri, address } = open;
    const key = uri.toString();
    const base = this.objectFiles.baseOf(uri);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    if (!base || !doc) return;
    const name = documentNames(uri).object;
    if (!server) {
      if (this.told.get(key) !== 'gone') notify('info', vscode.l10n.t('"{0}" was deleted on the server.', name));
      this.told.set(key, 'gone');
      return;
    }
    const ours = base.ConcurrencyVersion ?? 0;
    const theirs = server.ConcurrencyVersion ?? 0;
    this.changes.seen(address, ours, theirs, uri);
    if (theirs <= ours) {
      this.told.delete(key);
      return;
    }
    if (!doc.isDirty) {
      this.objectFiles.rebase(uri, server, { reload: true });
      this.told.delete(key);
      return;
    }
    // Told once; a conflict question on its save already told of this version.
    if (this.told.has(key) || (this.saves.askedAbout(uri) ?? -1) >= theirs) return;
    this.told.set(key, theirs);
    notify('info', vscode.l10n.t('"{0}" changed on the server (version {1}); your unsaved edits are based on version {2}.', name, theirs, ours),
      { title: vscode.l10n.t('Merge'), run: () => this.merge(uri, name) },
      { title: vscode.l10n.t('Compare'), run: () => compareWithServer(uri) });
  }

  /** Forgets closed documents. */
  keepOnly(open: readonly OpenObject[]): void {
    const uris = new Set(open.map((o) => o.uri.toString()));
    for (const key of this.told.keys()) if (!uris.has(key)) this.told.delete(key);
  }

  private async merge(uri: vscode.Uri, name: string): Promise<void> {
    const merged = await mergeServer(uri, this.objectFiles, this.saves.chooseFields).catch((e: Error) => {
      notify('warning', vscode.l10n.t('"{0}": the server\'s changes were not merged in: {1}', name, e.message));
      return undefined;
    });
    if (!merged) return;
    this.told.delete(uri.toString());
    const version = String(merged.object.ConcurrencyVersion);
    const text = merged.tookTheirs.length
      ? vscode.l10n.t('"{0}": the server\'s changes merged in ({1}); Ctrl+S sends your edits on version {2}', name, fieldLabels(merged.tookTheirs, merged.object), version)
      : vscode.l10n.t('"{0}": now on version {1}, which held no change your edits lacked; Ctrl+S sends them', name, version);
    vscode.window.setStatusBarMessage(text, 8000);
  }
}
