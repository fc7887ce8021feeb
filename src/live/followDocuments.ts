/**
 * Open object documents follow the server's reads. An editor without unsaved
 * edits is moved on to the server's object the way editors follow a save made
 * elsewhere (the provider's rebase and reload: VS Code keeps the cursor and
 * folding, nothing asks, focus stays), and a rename moves its tab to the new name
 * as the user's own rename does. An editor with unsaved edits keeps them and is
 * told once per version its edits are based on, quietly, with Merge (the merge
 * saves use) and Compare: the notice names that version, not the server's, so a
 * later change on the server leaves it true (the tab's badge names both).
 */
import vscode = require('vscode');
import type { ObjectFileSystem } from '../fs/objectFileSystem';
import { documentNames, renamedUri, sameObject } from '../fs/objectUri';
import { openObjects, type OpenObject } from './openObjects';
import type { LiveRead } from './liveFeed';
import type { ServerChanges } from './serverChanges';
import { compareWithServer } from '../documents/compare';
import type { BaseInfo } from '../model/types';
import { fieldLabels } from '../model/fieldNames';
import type { ObjectSaves } from '../documents/saves';
import { mergeServer } from '../documents/mergeServer';
import { followRename } from '../documents/followSavedDocument';
import { notify } from '../ui/notify';

export class FollowDocuments {
  /** Documents told that the server moved past the version their edits are based on (uri -> that version), so each is told once. */
  private readonly told = new Map<string, number | 'gone'>();

  constructor(
    private readonly objectFiles: ObjectFileSystem,
    private readonly saves: ObjectSaves,
    private readonly changes?: ServerChanges,
  ) {}

  /** A poll's reads: each open document of an object read moves its badge, then follows. */
  received({ connectionId, objects, gone }: LiveRead): void {
    const open = openObjects(this.objectFiles, connectionId);
    const reads = [...objects, ...gone.map((watched) => ({ watched, object: undefined }))].flatMap(({ watched, object }) =>
      open.filter((o) => sameObject(o.address, { ...watched, connectionId })).map((o) => ({ open: o, object })),
    );
    // The badge first: it counts from the version the document is based on before the document moves on.
    for (const { open: o, object } of reads) {
      const base = this.objectFiles.baseOf(o.uri);
      if (object && base) this.changes?.seen(o.address, base.ConcurrencyVersion ?? 0, object.ConcurrencyVersion ?? 0, o.uri);
    }
    for (const { open: o, object } of reads) this.follow(o, object);
  }

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
    if (theirs <= ours) {
      this.told.delete(key);
      return;
    }
    if (!doc.isDirty) {
      this.objectFiles.rebase(uri, server, { reload: true });
      this.told.delete(key);
      const renamed = renamedUri(uri, address, server.CommonName ?? address.key);
      if (renamed.toString() !== uri.toString()) {
        this.objectFiles.reload(renamed);
        void followRename(uri, renamed);
      }
      return;
    }
    // Told once per base; a conflict question on its save already told of this version.
    if (this.told.get(key) === ours || (this.saves.askedAbout(uri) ?? -1) >= theirs) return;
    this.told.set(key, ours);
    notify(
      'info',
      vscode.l10n.t('"{0}" changed on the server since version {1}, which your unsaved edits are based on.', name, ours),
      { title: vscode.l10n.t('Merge'), run: () => this.merge(uri, name) },
      { title: vscode.l10n.t('Compare'), run: () => compareWithServer(uri) },
    );
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
      ? vscode.l10n.t(
          '"{0}": the server\'s changes merged in ({1}); Ctrl+S sends your edits on version {2}',
          name,
          fieldLabels(merged.tookTheirs, merged.object),
          version,
        )
      : vscode.l10n.t('"{0}": now on version {1}, which held no change your edits lacked; Ctrl+S sends them', name, version);
    vscode.window.setStatusBarMessage(text, 8000);
  }
}
