/** A plan's counts in words, shared by every output format. */
import type { Plan, PlanAction } from '../changes/code/plan';
import { l10n } from '../l10n';

export function countsOf(plan: Plan): Record<PlanAction, number> {
  const counts: Record<PlanAction, number> = { create: 0, update: 0, delete: 0, stale: 0, behind: 0, invalid: 0, deleteSkipped: 0 };
  for (const e of plan.entries) counts[e.action]++;
  return counts;
}

/** "2 to create · 3 to update · 1 stale · 10 unchanged": the counts that are not zero (creates, updates and deletes always). */
export function countsLine(plan: Plan, separator = ' · '): string {
  return [...actionWords(countsOf(plan), ['create', 'update', 'delete']), l10n.t('{0} unchanged', plan.unchanged)].join(separator);
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

/** Whether the plan shows any difference at all. */
export function hasChanges(plan: Plan): boolean {
  return plan.entries.length > 0;
}

/** A value as a plan shows it: JSON, cut at `max` characters. */
export function shown(value: unknown, max = 80): string {
  if (value === undefined) return l10n.t('(none)');
  const text = JSON.stringify(value);
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 2]) ? max - 2 : max - 1; // not between the halves of a character
  return `${text.slice(0, end)}…`;
}

export function moreFields(n: number): string {
  return n === 1 ? l10n.t('… and 1 more field') : l10n.t('… and {0} more fields', n);
}
