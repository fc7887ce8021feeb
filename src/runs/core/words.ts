/**
 * The words of runs, for the editor and the command line alike: a preview's every count; a run's
 * outcomes and an apply's parts only where not zero; an outcome's own word (never its key).
 */
import type { PreviewEntry } from '../../changes/bulk';
import { previewCounts } from '../../changes/bulk';
import type { EntryOutcome } from '../../changes/runJournal';
import { l10n } from '../../l10n';

export function previewCountsText(entries: readonly PreviewEntry[]): string {
  const c = previewCounts(entries);
  const parts = [
    l10n.t('{0} to change', c.change),
    l10n.t('{0} no-op', c.noop),
    l10n.t('{0} invalid', c.invalid),
    l10n.t('{0} not applicable', c.notApplicable),
  ];
  if (c.stale) parts.push(l10n.t('{0} stale (changed since; kept)', c.stale));
  return parts.join(' · ');
}

/** An outcome in words ("not sent", not `notSent`). */
export function outcomeWord(outcome: EntryOutcome): string {
  switch (outcome) {
    case 'applied':
      return l10n.t('applied');
    case 'failed':
      return l10n.t('failed');
    case 'notSent':
      return l10n.t('not sent');
    case 'unchanged':
      return l10n.t('unchanged');
    case 'stale':
      return l10n.t('stale');
    case 'unknown':
      return l10n.t('unknown');
  }
}

/** "3 applied · 1 failed · 1 unknown (may have been written)". */
export function outcomesText(counts: Partial<Record<EntryOutcome, number>>): string {
  const n = (o: EntryOutcome) => counts[o] ?? 0;
  const parts = [
    n('applied') && l10n.t('{0} applied', n('applied')),
    n('failed') && l10n.t('{0} failed', n('failed')),
    n('notSent') && l10n.t('{0} not sent', n('notSent')),
    n('unchanged') && l10n.t('{0} unchanged', n('unchanged')),
    n('stale') && l10n.t('{0} stale', n('stale')),
    n('unknown') && l10n.t('{0} unknown (may have been written)', n('unknown')),
  ].filter(Boolean);
  return parts.join(' · ') || l10n.t('nothing sent');
}

/** Each object's outcome, one a line, under the run's one-line summary (Show Results, the command line's report). */
export function resultsText(summary: string, results: ReadonlyArray<{ outcome: EntryOutcome; label: string; id: string; reason?: string }>): string {
  const width = Math.max(0, ...results.map((r) => outcomeWord(r.outcome).length));
  const lines = results.map((r) => `${outcomeWord(r.outcome).padEnd(width)}  ${r.label} (${r.id})${r.reason ? `: ${r.reason}` : ''}`);
  return [summary, '', ...lines].join('\n') + '\n';
}

/** "1 object" / "2 objects". */
export function objectsText(n: number): string {
  return n === 1 ? l10n.t('1 object') : l10n.t('{0} objects', n);
}

/**
 * What a retry sends, said truthfully: "send again to 1 object (failed), send to 4 never sent";
 * `again`: objects sent before that failed or whose answer was lost; `never`: objects not sent.
 */
export function retryCountsText(again: number, never: number): string {
  return [again && l10n.t('{0} sent before (failed or no answer)', objectsText(again)), never && l10n.t('{0} never sent', objectsText(never))]
    .filter(Boolean)
    .join(', ');
}
