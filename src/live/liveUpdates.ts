/**
 * Live updates, the VS Code side of the feed (liveFeed.ts): one poller per connection, reading every
 * `oms.live.interval` seconds while something that shows server objects is visible, the window focused
 * and the connection signed in. What a poll read reaches each view through the feed's `onDidRead`;
 * the subscribers live beside what they update (tree/liveTree.ts, liveDocuments.ts, webview/liveTables.ts,
 * views/planLive.ts, and Go to Object's index here). A connection that fails is said once, until it
 * answers again.
 */
import * as vscode from 'vscode';
import { log } from '../log';
import type { Services } from '../services';
import { notify, showLogAction } from '../ui/notify';
import { LiveFeed } from './liveFeed';

const defaultIntervalSeconds = 30;

/** The interval in ms (0: off); a wrong value counts as the default. */
function intervalMs(): number {
  const seconds = vscode.workspace.getConfiguration('oms').get<unknown>('live.interval', defaultIntervalSeconds);
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : defaultIntervalSeconds * 1000;
}

export function createLiveFeed(s: Pick<Services, 'connections' | 'saves'>): LiveFeed {
  const label = (id: string) => s.connections.get(id)?.info.label ?? id;
  return new LiveFeed({
    source: (id) => ({
      listAgain: (...a) => s.connections.require(id).client.listAgain(...a),
      getAgain: (...a) => s.connections.require(id).client.getAgain(...a),
    }),
    intervalMs,
    focused: () => vscode.window.state.focused,
    connectionIds: () => Array.from(s.connections.list(), (c) => c.id),
    label,
    signedIn: async (id) => !!(await s.connections.get(id)?.hasToken()),
    isSaving: (connectionId, o) => s.saves.isSaving({ ...o, connectionId }),
    failed: (name, e) => notify('warning', vscode.l10n.t(
      'Live updates of {0} could not read the service ({1}); they go on, less often, and say nothing more until it answers.', name, e.message), showLogAction),
    recovered: (name) => log().info(`Live updates of ${name} read the service again`),
    error: (text) => log().error(text),
    state: (text) => log().info(text),
  });
}

/** What wakes the feed that no consumer sees: the window's focus, the interval, the connections; and Go to Object's index. */
export function registerLiveUpdates(s: Services): vscode.Disposable {
  const live = s.live;
  return vscode.Disposable.from(
    live,
    vscode.window.onDidChangeWindowState(() => live.wake()),
    s.connections.onDidChange(() => live.wake()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('oms.live.interval')) return;
      live.pause();
      live.wake();
    }),
    // Go to Object's index takes every group read (its own reads are then fewer).
    live.onDidRead(({ connectionId, groups }) => {
      for (const read of groups) s.search.observed(connectionId, read.group.folderKey, read.group.kind.id, read.items, read.complete);
    }),
  );
}
