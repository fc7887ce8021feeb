/**
 * Live updates, the VS Code side of the feed (liveFeed.ts): one poller per connection, reading every
 * `oms.live.interval` seconds while something that shows server objects is visible, the window focused
 * and the connection signed in. What a poll read reaches each view through the feed's `onDidRead`;
 * the subscribers live beside what they update (tree/liveTree.ts, liveDocuments.ts, webview/liveTables.ts,
 * views/planLive.ts, and Go to Object's index in livePollHost.ts). A connection that fails is said once, until it
 * answers again.
 */
import vscode = require('vscode');
import { log } from '../log';
import type { Services } from '../services';
import { LiveFeed } from './liveFeed';

const defaultIntervalSeconds = 30;

/** The interval in ms (0: off); a wrong value counts as the default. */
function intervalMs(): number {
  const seconds = vscode.workspace.getConfiguration('oms').get<unknown>('live.interval', defaultIntervalSeconds);
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : defaultIntervalSeconds * 1000;
}

export function createLiveFeed(s: Pick<Services, 'connections' | 'saves' | 'search'>): LiveFeed {
  const feed: LiveFeed = new LiveFeed(
    {
      intervalMs,
      focused: () => vscode.window.state.focused,
      connectionIds: () => Array.from(s.connections.list(), (c) => c.id),
      state: (text) => log().info(text),
    },
    () => import('./livePollHost').then(({ pollHost }) => pollHost(s, feed)),
  );
  return feed;
}

/** What wakes the feed that no consumer sees: the window's focus, the interval, the connections. */
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
  );
}
