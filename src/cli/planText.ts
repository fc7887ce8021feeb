/**
 * A plan for a terminal or a CI log: one line per entry, its changed fields below it (secrets already
 * masked). Names, paths, reasons and values are others' text: shown with `visible`, so none can move the
 * cursor, colour or clear the log, or hide a line.
 */
import type { Plan, PlanAction } from '../changes/code/plan';
import { countsLine } from '../changes/code/planCounts';
import { moreFields, shown } from './planValues';
import { visible } from './visible';
import { l10n } from '../l10n';

const marks: Record<PlanAction, string> = { create: '+', update: '~', delete: '-', stale: '!', behind: '<', invalid: 'x', deleteSkipped: '.' };
const fieldsShown = 20;

export function planText(plan: Plan): string {
  const lines = [l10n.t('Plan for {0} ({1}): {2}', visible(plan.connection.label), visible(plan.connection.url), countsLine(plan, ', '))];
  for (const e of plan.entries) {
    lines.push(`  ${marks[e.action]} ${e.action.padEnd(7)} ${visible(e.label)}  (${visible(e.path)})`);
    if (e.reason) lines.push(`      ${visible(e.reason)}`);
    for (const c of e.changes.slice(0, fieldsShown)) lines.push(`      ${visible(c.pointer || '/')}: ${visible(shown(c.from))} -> ${visible(shown(c.to))}`);
    if (e.changes.length > fieldsShown) lines.push(`      ${moreFields(e.changes.length - fieldsShown)}`);
  }
  if (!plan.entries.length) lines.push(l10n.t('No changes: the files, the manifest and the service agree.'));
  return lines.join('\n') + '\n';
}
