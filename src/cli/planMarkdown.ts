/**
 * A plan as Markdown for a pull-request comment (as Atlantis and tfcmt post Terraform's): the
 * counts, a table per kind, each entry's changed fields with old and new values (secrets already
 * masked). Long plans are cut well under GitHub's 65,536 characters of a comment.
 */
import { kind as kindOf } from '../model/kinds';
import type { Plan, PlanEntry } from '../changes/code/plan';
import { countsLine, moreFields, shown } from './planCounts';
import { l10n } from '../l10n';

const rowsPerKind = 200;
const fieldsPerRow = 10;
const maxLength = 60_000;

export function planMarkdown(plan: Plan): string {
  const out = [`### ${l10n.t('OMS plan for {0}', cell(plan.connection.label))}`, '', `\`${plan.connection.url}\` · **${countsLine(plan)}**`, ''];
  if (!plan.entries.length) out.push(l10n.t('No changes: the files, the manifest and the service agree.'), '');
  const byKind = new Map<string, PlanEntry[]>();
  for (const e of plan.entries) byKind.set(e.kind, [...(byKind.get(e.kind) ?? []), e]);
  for (const [kindId, entries] of byKind) {
    out.push(`#### ${l10n.t(kindOf(kindId as PlanEntry['kind']).pluralLabel)} (${entries.length})`, '');
    out.push(`| ${l10n.t('Action')} | ${l10n.t('Object')} | ${l10n.t('File')} | ${l10n.t('Changes')} |`, '| --- | --- | --- | --- |');
    for (const e of entries.slice(0, rowsPerKind)) out.push(row(e));
    const more = entries.length - rowsPerKind;
    if (more > 0) {
      out.push('', more === 1
        ? l10n.t('… and 1 more entry (oms plan --format text shows all)')
        : l10n.t('… and {0} more entries (oms plan --format text shows all)', more));
    }
    out.push('');
  }
  const text = out.join('\n');
  return text.length > maxLength ? `${text.slice(0, maxLength)}\n\n${l10n.t('… cut here: the plan is longer than a comment holds')}\n` : text;
}

function row(e: PlanEntry): string {
  const changes = e.changes.slice(0, fieldsPerRow).map((c) => `\`${cell(c.pointer || '/')}\`: ${code(shown(c.from))} → ${code(shown(c.to))}`);
  if (e.changes.length > fieldsPerRow) changes.push(moreFields(e.changes.length - fieldsPerRow));
  if (e.reason) changes.unshift(`*${cell(e.reason)}*`);
  return `| ${e.action} | ${cell(e.label)} | \`${cell(e.path)}\` | ${changes.join('<br>')} |`;
}

/** Text safe in a table cell: no pipe or line break ends it. */
function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function code(text: string): string {
  return `\`${cell(text).replace(/`/g, "'")}\``;
}
