/**
 * Ticks carried from one plan of a folder to the next: an entry that is still
 * the same (same object or file, same action, same file text, same server
 * version) keeps the tick the user left on it; anything that moved starts
 * from the plan's own default again.
 */
import type { Plan, PlanEntry } from './plan';

function sameness(e: PlanEntry): string {
  return JSON.stringify([e.id, e.action, e.local?.hash ?? null, e.live?.version ?? null, e.base?.hash ?? null]);
}

/** Sets `next`'s ticks from `previous` where an entry is unchanged. */
export function carryTicks(previous: Plan, next: Plan): void {
  const ticks = new Map(previous.entries.map((e) => [sameness(e), e.selected]));
  for (const e of next.entries) e.selected = ticks.get(sameness(e)) ?? e.selected;
}
