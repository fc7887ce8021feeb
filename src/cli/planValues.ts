/** A plan's values and fields as the command line's outputs show them. */
import type { Plan } from '../changes/code/plan';
import { l10n } from '../l10n';

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
