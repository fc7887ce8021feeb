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
  const c = countsOf(plan);
  const parts = [l10n.t('{0} to create', c.create), l10n.t('{0} to update', c.update), l10n.t('{0} to delete', c.delete)];
  if (c.stale) parts.push(l10n.t('{0} stale', c.stale));
  if (c.behind) parts.push(l10n.t('{0} behind', c.behind));
  if (c.invalid) parts.push(l10n.t('{0} invalid', c.invalid));
  if (c.deleteSkipped) parts.push(l10n.t('{0} deletes not included', c.deleteSkipped));
  parts.push(l10n.t('{0} unchanged', plan.unchanged));
  return parts.join(separator);
}

/** Whether the plan shows any difference at all. */
export function hasChanges(plan: Plan): boolean {
  return plan.entries.length > 0;
}

/** A value as a plan shows it: JSON, cut at `max` characters. */
export function shown(value: unknown, max = 80): string {
  if (value === undefined) return l10n.t('(none)');
  const text = JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function moreFields(n: number): string {
  return n === 1 ? l10n.t('… and 1 more field') : l10n.t('… and {0} more fields', n);
}
