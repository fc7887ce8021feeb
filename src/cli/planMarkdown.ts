/**
 * A plan as Markdown for a pull-request comment (as Atlantis and tfcmt post Terraform's): the counts and
 * every delete first, then a table per kind, each entry's changed fields with old and new values (secrets
 * already masked). Every name, path, value and reason shows as an inert code span (inertMarkdown.ts). A
 * comment that would pass GitHub's limit leaves out whole rows, creates and updates before what a reviewer
 * must see (invalid, stale, behind), and says how many of each action; the counts and deletes stay.
 */
import { kind as kindOf } from '../model/kinds';
import type { Plan, PlanAction, PlanEntry } from '../changes/code/plan';
import { actionCounts, actionWords, countsLine } from '../changes/code/planCounts';
import { moreFields, shown } from './planValues';
import { codeSpan } from './inertMarkdown';
import { l10n } from '../l10n';

const fieldsPerRow = 10;
/** GitHub's most for a comment is 65,536 characters; `length` counts UTF-16 code units, never fewer than GitHub counts. Kept under it by a margin. */
const commentLimit = 64_000;

export interface MarkdownOptions {
  /** Where the whole plan was saved (`oms plan --out`), named when rows are left out. */
  fullPlan?: string;
}

export function planMarkdown(plan: Plan, options: MarkdownOptions = {}): string {
  const head = [`### ${l10n.t('OMS plan for {0}', codeSpan(plan.connection.label))}`, '', `${codeSpan(plan.connection.url)} · **${countsLine(plan)}**`, ''];
  if (!plan.entries.length) return [...head, l10n.t('No changes: the files, the manifest and the service agree.'), ''].join('\n');
  // Room for the note of what was left out, at its longest (every action's full count).
  let room = commentLimit - size(head) - size([leftOutNote(actionCounts(plan.entries), plan.entries.length, options), '']);

  const deletes = plan.entries.filter((e) => e.action === 'delete');
  const deleteLines: string[] = [];
  if (deletes.length) {
    const top = [`**${l10n.t('To delete ({0}):', deletes.length)}**`, ''];
    room -= size(top) + 1;
    deleteLines.push(...top);
  }
  const left: Partial<Record<PlanAction, number>> = {};
  const leave = (e: PlanEntry) => {
    left[e.action] = (left[e.action] ?? 0) + 1;
  };
  for (const e of deletes) {
    const line = `- ${l10n.t(kindOf(e.kind).label)} ${codeSpan(e.label)} · ${codeSpan(e.path)}`;
    if (line.length + 1 > room) leave(e);
    else {
      deleteLines.push(line);
      room -= line.length + 1;
    }
  }
  if (deletes.length) deleteLines.push('');

  // Each kind's table, its rows by what needs a reviewer most; when they cannot all fit, the rows that do.
  const byKind = new Map<string, PlanEntry[]>();
  for (const e of plan.entries) if (e.action !== 'delete') byKind.set(e.kind, [...(byKind.get(e.kind) ?? []), e]);
  const tops = new Map([...byKind].map(([kindId, entries]) => [kindId, tableTop(kindId, entries.length)]));
  for (const [kindId, entries] of byKind) room -= size(tops.get(kindId)!) + size([kindLeftOut(entries.length), '']);
  const rows = new Map<PlanEntry, string>();
  for (const e of [...byKind.values()].flat().sort(byUrgency)) {
    const r = row(e);
    if (r.length + 1 > room) leave(e);
    else {
      rows.set(e, r);
      room -= r.length + 1;
    }
  }
  const tables: string[] = [];
  for (const [kindId, entries] of byKind) {
    const shownRows = entries.sort(byUrgency).flatMap((e) => rows.get(e) ?? []);
    if (shownRows.length) tables.push(...tops.get(kindId)!, ...shownRows, '');
    else tables.push(tops.get(kindId)![0], '');
    if (shownRows.length < entries.length) tables.push(kindLeftOut(entries.length - shownRows.length), '');
  }

  const omitted = Object.values(left).reduce((a, b) => a + b, 0);
  const note = omitted ? [leftOutNote(left, omitted, options), ''] : [];
  return [...head, ...note, ...deleteLines, ...tables].join('\n');
}

const urgency: readonly PlanAction[] = ['invalid', 'stale', 'behind', 'deleteSkipped', 'update', 'create'];
const byUrgency = (a: PlanEntry, b: PlanEntry) => urgency.indexOf(a.action) - urgency.indexOf(b.action);

function tableTop(kindId: string, count: number): string[] {
  return [
    `#### ${l10n.t(kindOf(kindId as PlanEntry['kind']).pluralLabel)} (${count})`,
    '',
    `| ${l10n.t('Action')} | ${l10n.t('Object')} | ${l10n.t('File')} | ${l10n.t('Changes')} |`,
    '| --- | --- | --- | --- |',
  ];
}

function kindLeftOut(n: number): string {
  return n === 1 ? l10n.t('… and 1 more, left out (see above)') : l10n.t('… and {0} more, left out (see above)', n);
}

function row(e: PlanEntry): string {
  const changes = e.changes
    .slice(0, fieldsPerRow)
    .map((c) => `${codeSpan(c.pointer || '/', true)}: ${codeSpan(shown(c.from), true)} → ${codeSpan(shown(c.to), true)}`);
  if (e.changes.length > fieldsPerRow) changes.push(moreFields(e.changes.length - fieldsPerRow));
  if (e.reason) changes.unshift(`*${codeSpan(e.reason, true)}*`);
  return `| ${e.action} | ${codeSpan(e.label, true)} | ${codeSpan(e.path, true)} | ${changes.join('<br>')} |`;
}

function leftOutNote(left: Partial<Record<PlanAction, number>>, omitted: number, options: MarkdownOptions): string {
  const what =
    omitted === 1
      ? l10n.t('1 entry is left out to fit one comment ({0}).', actionWords(left).join(' · '))
      : l10n.t('{0} entries are left out to fit one comment ({1}).', omitted, actionWords(left).join(' · '));
  const where = options.fullPlan
    ? l10n.t('The whole plan is in {0}, saved by `oms plan --out` (the pipeline keeps it with the job).', codeSpan(options.fullPlan))
    : l10n.t('`oms plan --out <file>` saves the whole plan.');
  return `> **${what}** ${where}`;
}

/** Characters the lines take once joined, with the line break after the last. */
function size(lines: readonly string[]): number {
  return lines.reduce((n, line) => n + line.length + 1, 0);
}
