/**
 * What `oms apply` says at its end, and its exit code: 0 only when every entry of the plan it applied was
 * applied or already so. An entry it did not send (stale, behind, invalid, not ticked, refused) or that
 * failed is named with its reason (others' text: shown with `visible`), and makes the exit code 2.
 */
import type { ResultLine } from '../changes/executor';
import type { Plan, PlanEntry } from '../changes/code/plan';
import { exitCodes } from './exit';
import { visible } from './visible';
import { l10n } from '../l10n';

/** An entry's end as the report names it: the executor's outcomes, and the plan's actions that are never sent. */
type Shown = ResultLine['outcome'] | 'behind' | 'invalid';
type Ended = Pick<ResultLine, 'label' | 'reason'> & { outcome: Shown };

/** The plan's entries an apply does not hand to the executor (not ticked: stale, behind, invalid, deletes not included, unticked), as results. */
export function leftOut(plan: Plan): Ended[] {
  return plan.entries.filter((e) => !e.selected).map((e) => ({ label: e.label, outcome: outcomeOf(e), reason: e.reason }));
}

/** The plan's invalid entries, one line each (a refusal names them all). */
export function invalidLines(plan: Plan): string[] {
  return plan.entries.filter((e) => e.action === 'invalid').map((e) => `  ${visible(e.label)} (${visible(e.path)}): ${visible(e.reason ?? '')}`);
}

/** Prints every entry that was not applied and the counts; returns the exit code. */
export function reportApply(ended: readonly Ended[], write: (line: string) => void): number {
  for (const r of ended) if (r.outcome !== 'applied') write(`  ${words(r.outcome)}: ${visible(r.label)}${r.reason ? ` (${visible(r.reason)})` : ''}`);
  const count = (o: Shown) => ended.filter((r) => r.outcome === o).length;
  const counts = [count('applied'), count('unchanged'), count('stale'), count('failed'), count('notSent')];
  let line = l10n.t('Applied {0} · unchanged {1} · stale {2} · failed {3} · not sent {4}', ...counts);
  if (count('behind')) line += ` · ${l10n.t('behind {0}', count('behind'))}`;
  if (count('invalid')) line += ` · ${l10n.t('invalid {0}', count('invalid'))}`;
  write(line);
  return ended.every((r) => r.outcome === 'applied' || r.outcome === 'unchanged') ? exitCodes.ok : exitCodes.changes;
}

function outcomeOf(e: PlanEntry): Shown {
  return e.action === 'stale' || e.action === 'behind' || e.action === 'invalid' ? e.action : 'notSent';
}

function words(o: Shown): string {
  return o === 'notSent' ? l10n.t('not sent') : o;
}
