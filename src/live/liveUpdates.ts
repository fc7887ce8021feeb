/**
 * Live updates, the VS Code side: one poller per connection (poller.ts, liveReads.ts), polling every
 * `oms.live.interval` seconds while the Objects view is visible, the window focused and the
 * connection signed in. A poll's answers go to the groups the view shows, the open documents and
 * priorities tables, the decorations of objects changed on the server, Go to Object's index and the
 * Object Changes view. A connection that fails is said once, until it answers again.
 */
import * as vscode from 'vscode';
import { sameObject } from '../fs/objectUri';
import { log } from '../log';
import type { InputScannerInfo } from '../model/types';
import type { Services } from '../services';
import type { CollectionNode } from '../tree/nodes/collectionNode';
import type { TreeNode } from '../tree/nodes/node';
import type { PlanView } from '../views/planView';
import { loadedPlanView } from '../views/planViewSlot';
import { openTables } from '../webview/openTables';
import { notify, showLogAction } from '../ui/notify';
import type { FollowDocuments } from './followDocuments';
import { openObjects, type OpenObject } from './openObjects';
import type { PollResult, Watched, WatchedObject } from './liveReads';
import type { Poller } from './poller';
import { ServerChanges } from './serverChanges';

const defaultIntervalSeconds = 30;

/** The interval in ms (0: off); a wrong value counts as the default. */
function intervalMs(): number {
  const seconds = vscode.workspace.getConfiguration('oms').get<unknown>('live.interval', defaultIntervalSeconds);
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : defaultIntervalSeconds * 1000;
}

export function registerLiveUpdates(s: Services, view: vscode.TreeView<TreeNode>): vscode.Disposable {
  const changes = new ServerChanges();
  /** Loaded with the first poll, as the pollers (poller.ts and liveReads.ts are a chunk of their own, not activation's). */
  let documents: FollowDocuments | undefined;
  const pollers = new Map<string, Promise<Poller>>();
  /** Nodes the user collapsed: groups under them are not read. */
  const collapsed = new Set<string>();
  let replanning = false;

  const shown = (node: TreeNode) => {
    for (let n: TreeNode | undefined = node; n; n = n.parent) if (collapsed.has(n.id)) return false;
    return true;
  };
  const groupsOf = (connectionId: string) => s.tree.loadedGroups(connectionId).filter(shown);
  const canRead = async (connectionId: string) =>
    view.visible && vscode.window.state.focused && intervalMs() > 0 && !!(await s.connections.get(connectionId)?.hasToken());

  const watchedOf = (connectionId: string, open: OpenObject[]): Watched => {
    const objects: WatchedObject[] = open.map((o) => o.address);
    for (const { address } of openTables.values()) {
      if (address.connectionId === connectionId && !objects.some((o) => sameObject({ ...o, connectionId }, address))) objects.push(address);
    }
    return { groups: groupsOf(connectionId).map((g) => ({ kind: g.kind, folderKey: g.folderKey, ...g.shownPages! })), objects };
  };

  const received = (connectionId: string, result: PollResult, open: OpenObject[], groups: CollectionNode[]) => {
    for (const read of result.groups) {
      const node = groups.find((g) => g.kind.id === read.group.kind.id && g.folderKey === read.group.folderKey);
      node?.followServer(read.items, read.complete, read.group.pages);
      s.search.observed(connectionId, read.group.folderKey, read.group.kind.id, read.items, read.complete);
    }
    for (const read of result.objects) {
      const address = { ...read.watched, connectionId };
      // The object as its own save left it, read before the save's answer: the answer moves its views on.
      if (s.saves.isSaving(address)) continue;
      for (const o of open) if (sameObject(o.address, address)) documents?.follow(o, read.object);
      const table = openTables.get(`${connectionId}|${address.key}`);
      if (read.object) table?.follow(read.object as InputScannerInfo);
      else table?.deleted();
    }
    forgetClosed(); // a tab closed while the poll was out
    const seen = [...result.groups.flatMap((g) => g.items), ...result.objects.flatMap((o) => (o.object ? [o.object] : []))];
    // The plan view's code is there only once a plan was shown (it is not loaded at activation).
    const planView = loadedPlanView<PlanView>();
    if (planView?.view?.visible && planView.serverMoved(connectionId, seen)) void replan(planView, connectionId);
  };

  /** The plan shown is out of date: planned again (ticks kept), as Plan Changes would. */
  const replan = async (planView: PlanView, connectionId: string) => {
    const shownPlan = planView.current;
    const connection = s.connections.get(connectionId);
    if (replanning || !shownPlan || !connection) return;
    replanning = true;
    try {
      const { makePlan } = await import('../changes/code/plan');
      const result = await makePlan(connection.client, shownPlan.root, shownPlan.plan.connection, { includeDeletes: shownPlan.plan.includeDeletes });
      if (planView.current !== shownPlan) return;
      planView.show({ ...result, root: shownPlan.root, connectionId }, { replanned: true }); // ticks kept while an entry is unchanged
    } catch (e) {
      log().warn(`Object Changes not planned again: ${(e as Error).message}`);
    } finally {
      replanning = false;
    }
  };

  const pollerOf = (connectionId: string): Promise<Poller> => {
    let poller = pollers.get(connectionId);
    if (poller) return poller;
    // What a poll read is applied to what was shown when it started (documents and groups by identity).
    let open: OpenObject[] = [];
    let groups: CollectionNode[] = [];
    poller = Promise.all([import('./poller'), import('./followDocuments')]).then(([{ Poller }, { FollowDocuments }]) => {
      documents ??= new FollowDocuments(s.objectFiles, s.saves, changes);
      return new Poller({
        source: {
          listAgain: (...a) => s.connections.require(connectionId).client.listAgain(...a),
          getAgain: (...a) => s.connections.require(connectionId).client.getAgain(...a),
        },
        watched: () => {
          open = openObjects(s.objectFiles, connectionId);
          groups = groupsOf(connectionId);
          return watchedOf(connectionId, open);
        },
        intervalMs,
        canRead: () => canRead(connectionId),
        onResult: (result) => {
          try {
            received(connectionId, result, open, groups);
          } catch (e) {
            log().error(`Live updates of ${connectionId} not shown: ${(e as Error).stack ?? String(e)}`);
          }
        },
        onFailure: (e) => {
          const label = s.connections.get(connectionId)?.info.label ?? connectionId;
          const text = vscode.l10n.t('Live updates of {0} could not read the service ({1}); they go on, less often, and say nothing more until it answers.',
            label, (e as Error).message);
          notify('warning', text, showLogAction);
        },
        onRecovered: () => log().info(`Live updates of ${connectionId} read the service again`),
      });
    });
    pollers.set(connectionId, poller);
    return poller;
  };

  /** Said in the log when it changes: whether live updates run, and why not. */
  let state = '';
  const wakeAll = () => {
    for (const [id, p] of pollers) {
      if (s.connections.get(id)) continue;
      void p.then((x) => x.dispose());
      pollers.delete(id);
    }
    const interval = intervalMs();
    const now = interval <= 0 ? 'off (oms.live.interval is 0)' : !view.visible ? 'paused: the Objects view is hidden'
      : !vscode.window.state.focused ? 'paused: the window is not focused' : `every ${interval / 1000} s`;
    if (now !== state) log().info(`Live updates ${(state = now)}`);
    if (interval <= 0 || !view.visible || !vscode.window.state.focused) {
      for (const p of pollers.values()) void p.then((x) => x.pause());
      return;
    }
    for (const c of s.connections.list()) void pollerOf(c.id).then((p) => p.wake());
  };

  /** What no tab shows any more is forgotten: its badge, that its editor was told (of every connection: each poll sees only its own). */
  const forgetClosed = () => {
    const open = openObjects(s.objectFiles);
    documents?.keepOnly(open);
    changes.keepOnly(open.map((o) => o.address));
  };

  const subscriptions = [
    changes,
    vscode.window.registerFileDecorationProvider(changes),
    view.onDidChangeVisibility(wakeAll),
    vscode.window.onDidChangeWindowState(wakeAll),
    view.onDidCollapseElement((e) => collapsed.add(e.element.id)),
    view.onDidExpandElement((e) => {
      collapsed.delete(e.element.id);
      wakeAll();
    }),
    vscode.window.tabGroups.onDidChangeTabs(() => {
      forgetClosed();
      wakeAll();
    }),
    s.connections.onDidChange(wakeAll),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('oms.live.interval')) return;
      for (const p of pollers.values()) void p.then((x) => x.pause());
      wakeAll();
    }),
    // A document read again by VS Code (a focus, a reload) may see the server's change before a poll does.
    s.objectFiles.onDidReadNewer(({ uri, from, to }) => {
      const address = s.objectFiles.addressOf(uri);
      if (address) changes.seen(address, from, to, uri);
    }),
    // The user's own saves are not changes on the server.
    s.saves.onDidSaveDocument(({ uri, object }) => {
      const address = s.objectFiles.addressOf(uri);
      if (address) changes.own(address, object.ConcurrencyVersion ?? 0);
    }),
    s.saves.onDidChangeObject((address) => {
      for (const o of openObjects(s.objectFiles, address.connectionId)) {
        const base = s.objectFiles.baseOf(o.uri);
        const clean = !vscode.workspace.textDocuments.find((d) => d.uri.toString() === o.uri.toString())?.isDirty;
        if (base && clean && sameObject(o.address, address)) changes.own(o.address, base.ConcurrencyVersion ?? 0);
      }
    }),
    { dispose: () => pollers.forEach((p) => void p.then((x) => x.dispose())) },
  ];
  wakeAll();
  return vscode.Disposable.from(...subscriptions);
}
