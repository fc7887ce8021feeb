/**
 * A plan's arithmetic, in one place for every surface (the Object Changes view, the editor's Apply, the
 * command line, Retry Failed): which entries a run sends, how many entries of each action, and their words.
 */
import { sendable, type Plan, type PlanAction, type PlanEntry } from './plan';
import { l10n } from '../../l10n';

/** Whether a run sends this entry: ticked, and of an action that sends. */
export function isTicked(e: PlanEntry): boolean {
  return e.selected && sendable.has(e.action);
}

/** The entries a run of the plan sends. */
export function ticked(plan: Plan): PlanEntry[] {
  return plan.entries.filter(isTicked);
}

/** How many of `entries` there are of each action. */
export function actionCounts(entries: readonly PlanEntry[]): Record<PlanAction, number> {
  const counts: Record<PlanAction, number> = { create: 0, update: 0, delete: 0, stale: 0, behind: 0, invalid: 0, deleteSkipped: 0 };
  for (const e of entries) counts[e.action]++;
  return counts;
}

/** "2 to create · 3 to update · 1 stale · 10 unchanged": the counts that are not zero (creates, updates and deletes always). */
export function countsLine(plan: Plan, separator = ' · '): string {
  return [...actionWords(actionCounts(plan.entries), ['create', 'update', 'delete']), l10n.t('{0} unchanged', plan.unchanged)].join(separator);
}

/** "1 to create, 2 to delete": what a run of the ticked `entries` sends. */
export function sendsText(entries: readonly PlanEntry[]): string {
  return actionWords(actionCounts(entries)).join(', ');
}

/** "2 to create", "1 stale", ...: one phrase per action whose count is not zero (or that is `always` named). */
export function actionWords(counts: Partial<Record<PlanAction, number>>, always: readonly PlanAction[] = []): string[] {
  const words: Record<PlanAction, (n: number) => string> = {
    create: (n) => l10n.t('{0} to create', n),
    update: (n) => l10n.t('{0} to update', n),
    delete: (n) => l10n.t('{0} to delete', n),
    stale: (n) => l10n.t('{0} stale', n),
    behind: (n) => l10n.t('{0} behind', n),
    invalid: (n) => l10n.t('{0} invalid', n),
    deleteSkipped: (n) => l10n.t('{0} deletes not included', n),
  };
  return (Object.keys(words) as PlanAction[]).filter((a) => counts[a] || always.includes(a)).map((a) => words[a](counts[a] ?? 0));
}
