/** The run shell's words for counts: a preview's every count; a run's outcomes and an apply's parts only where not zero. */
import * as vscode from 'vscode';
import type { PreviewEntry } from '../changes/bulk';
import { countsOf } from '../changes/bulk';
import type { EntryOutcome } from '../changes/runJournal';

export function previewCountsText(entries: readonly PreviewEntry[]): string {
  const c = countsOf(entries);
  const parts = [
    vscode.l10n.t('{0} to change', c.change), vscode.l10n.t('{0} no-op', c.noop), vscode.l10n.t('{0} invalid', c.invalid),
    vscode.l10n.t('{0} not applicable', c.notApplicable),
  ];
  if (c.stale) parts.push(vscode.l10n.t('{0} stale (changed since; kept)', c.stale));
  return parts.join(' · ');
}

/** "3 applied · 1 failed · 1 unknown (may have been written)". */
export function outcomesText(counts: Partial<Record<EntryOutcome, number>>): string {
  const n = (o: EntryOutcome) => counts[o] ?? 0;
  const parts = [
    n('applied') && vscode.l10n.t('{0} applied', n('applied')),
    n('failed') && vscode.l10n.t('{0} failed', n('failed')),
    n('notSent') && vscode.l10n.t('{0} not sent', n('notSent')),
    n('unchanged') && vscode.l10n.t('{0} unchanged', n('unchanged')),
    n('stale') && vscode.l10n.t('{0} stale', n('stale')),
    n('unknown') && vscode.l10n.t('{0} unknown (may have been written)', n('unknown')),
  ].filter(Boolean);
  return parts.join(' · ') || vscode.l10n.t('nothing sent');
}

/** "1 to create, 2 to delete": the non-zero parts of an apply. */
export function applyCountsText(create: number, update: number, remove: number): string {
  return [
    create && vscode.l10n.t('{0} to create', create),
    update && vscode.l10n.t('{0} to update', update),
    remove && vscode.l10n.t('{0} to delete', remove),
  ].filter(Boolean).join(', ');
}

/** "1 object" / "2 objects". */
export function objectsText(n: number): string {
  return n === 1 ? vscode.l10n.t('1 object') : vscode.l10n.t('{0} objects', n);
}
