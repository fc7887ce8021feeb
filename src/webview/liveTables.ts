/**
 * Open priorities tables follow live reads: while one is open, its scanner is read, and each read of it
 * goes to the table's `follow` (a table with unsaved rows says so once; see prioritiesTable.ts).
 * A scanner gone from the server goes to its `deleted`. A table's panel is a
 * tab: opening or closing one wakes the feed (liveDocuments.ts hears the tabs change).
 */
import type { LiveFeed } from '../live/liveFeed';
import type { InputScannerInfo } from '../model/types';
import { openTables } from './openTables';

export function followServerInTables(live: LiveFeed): { dispose(): void } {
  const held = [
    live.watch({
      visible: () => openTables.size > 0,
      watched: (connectionId) => ({ groups: [], objects: [...openTables.values()].map((t) => t.address).filter((a) => a.connectionId === connectionId) }),
    }),
    live.onDidRead(({ connectionId, objects, gone }) => {
      for (const { watched, object } of objects) openTables.get(`${connectionId}|${watched.key}`)?.follow(object as InputScannerInfo);
      for (const watched of gone) openTables.get(`${connectionId}|${watched.key}`)?.deleted();
    }),
  ];
  return { dispose: () => held.forEach((h) => h.dispose()) };
}
