/**
 * Whether live reads show the server moved since a plan was made (no `vscode`): an object the plan
 * listed at another version, one gone, or (in a list read whole) one new. Every object of the plan
 * counts, the unchanged ones too: a change on the server alone makes one of them Behind.
 */
import type { BaseInfo } from '../../model/types';
import type { PlanResult } from './plan';

/** A list live reads read: its objects, and whether they are all of it (every page read). */
export interface ListRead {
  kind: { id: string };
  folderKey: string;
  items: readonly BaseInfo[];
  whole: boolean;
}

export function movedSincePlan(
  planned: Pick<PlanResult, 'onServer' | 'lists'>,
  lists: readonly ListRead[],
  objects: readonly BaseInfo[],
  gone: readonly string[],
): boolean {
  const { onServer } = planned;
  const moved = (o: BaseInfo) => !!o.Key && onServer.has(o.Key) && onServer.get(o.Key)!.version !== (o.ConcurrencyVersion ?? null);
  if (lists.some((l) => l.items.some(moved)) || objects.some(moved) || gone.some((key) => onServer.has(key))) return true;
  for (const l of lists) {
    if (!l.whole || !planned.lists.some((p) => p.kind.id === l.kind.id && p.folderKey === l.folderKey)) continue;
    const keys = new Set(l.items.map((o) => o.Key));
    if (l.items.some((o) => o.Key && !onServer.has(o.Key))) return true;
    for (const [key, o] of onServer) if (o.kind.id === l.kind.id && o.folderKey === l.folderKey && !keys.has(key)) return true;
  }
  return false;
}
