/**
 * Open object documents and their ↓ badges follow live reads. While an object's tab is open (its title
 * and badge show), the object is read; a read goes to followDocuments.ts (loaded with the first read of
 * an open object), which moves its badge (serverChanges.ts), then its document. The badges also hear
 * the user's own saves and the documents VS Code read again, which are not changes on the server.
 */
import vscode = require('vscode');
import { sameObject } from '../fs/objectUri';
import type { Services } from '../services';
import type { FollowDocuments } from './followDocuments';
import { openObjects } from './openObjects';
import { ServerChanges } from './serverChanges';

export function followServerInDocuments(s: Pick<Services, 'objectFiles' | 'saves' | 'live'>): vscode.Disposable {
  const { objectFiles, saves, live } = s;
  const changes = new ServerChanges();
  let documents: Promise<FollowDocuments> | undefined;
  const documentsNow = () => (documents ??= import('./followDocuments').then(({ FollowDocuments }) => new FollowDocuments(objectFiles, saves, changes)));
  /** What no tab shows any more is forgotten: its badge, that its editor was told. */
  const forgetClosed = () => {
    const open = openObjects(objectFiles);
    void documents?.then((d) => d.keepOnly(open));
    changes.keepOnly(open.map((o) => o.address));
  };
  return vscode.Disposable.from(
    changes,
    vscode.window.registerFileDecorationProvider(changes),
    live.watch({
      visible: () => openObjects(objectFiles).length > 0,
      watched: (connectionId) => ({ groups: [], objects: openObjects(objectFiles, connectionId).map((o) => o.address) }),
    }),
    live.onDidRead((read) => {
      forgetClosed(); // a tab closed while the poll was out
      if (openObjects(objectFiles, read.connectionId).length) void documentsNow().then((d) => d.received(read));
    }),
    vscode.window.tabGroups.onDidChangeTabs(() => {
      forgetClosed();
      live.wake();
    }),
    // A document read again by VS Code (a focus, a reload) may see the server's change before a poll does.
    objectFiles.onDidReadNewer(({ uri, from, to }) => {
      const address = objectFiles.addressOf(uri);
      if (address) changes.seen(address, from, to, uri);
    }),
    // The user's own saves are not changes on the server.
    saves.onDidSaveDocument(({ uri, object }) => {
      const address = objectFiles.addressOf(uri);
      if (address) changes.own(address, object.ConcurrencyVersion ?? 0);
    }),
    saves.onDidChangeObject((address) => {
      for (const o of openObjects(objectFiles, address.connectionId)) {
        const base = objectFiles.baseOf(o.uri);
        const clean = !vscode.workspace.textDocuments.find((d) => d.uri.toString() === o.uri.toString())?.isDirty;
        if (base && clean && sameObject(o.address, address)) changes.own(o.address, base.ConcurrencyVersion ?? 0);
      }
    }),
  );
}
