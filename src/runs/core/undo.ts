/**
 * What Undo Run puts back: the run's own writes and those of its Retry Failed runs (a retry of a
 * retry included), undone together as one; the preview and the report name the retries. A retry
 * is journalled beside the run it retries, so one journal holds them all.
 */
import { undoPlan, type UndoPlan } from '../../changes/bulk';
import type { JournalEntry, RunHeader, RunJournal } from '../../changes/runJournal';
import { kind as kindOf } from '../../model/kinds';
import { l10n } from '../../l10n';
import { originOf } from './retry';

export interface UndoSelection extends UndoPlan {
  header: RunHeader;
  /** One entry per object: the last write of the run or its retries, with the object as before the run. */
  entries: JournalEntry[];
  /** The retries undone with it, oldest first. */
  retries: RunHeader[];
  /** The title of the undo: "Undo of “…”" (and its retries). */
  title: string;
  /** Lines for the preview: which retries are undone with the run. */
  lines: string[];
}

export async function undoSelection(journal: RunJournal, runId: string): Promise<UndoSelection> {
  const run = await journal.read(runId);
  if (run.header.recipe?.type === 'people') return peopleNotUndone(run.header, run.entries);
  // Every run of the journal: a retry made in the editor of a run of the command line has another connection id.
  const summaries = await journal.runs();
  const byId = new Map(summaries.map((r) => [r.header.runId, r.header]));
  byId.set(runId, run.header);
  // Oldest first: a later write of an object is the one the server holds now.
  const retries = [...byId.values()]
    .filter((h) => h.runId !== runId && h.retryOf && originOf(byId, h.runId) === runId)
    .sort((a, b) => a.runId.localeCompare(b.runId));
  const entries = new Map(run.entries.map((e) => [e.id, e]));
  for (const header of retries) {
    const retry = await journal.read(header.runId);
    for (const e of retry.entries) {
      if (e.outcome !== 'applied' && e.outcome !== 'unknown') continue;
      const first = entries.get(e.id);
      // The object as it was before the first run that may have written it.
      const before = first && (first.outcome === 'applied' || first.outcome === 'unknown') ? first.before : undefined;
      entries.set(e.id, { ...e, ...(before ? { before } : {}) });
    }
  }
  const all = [...entries.values()];
  const plan = undoPlan(all, (id) => kindOf(id));
  const title =
    retries.length === 0
      ? l10n.t('Undo of “{0}”', run.header.title)
      : retries.length === 1
        ? l10n.t('Undo of “{0}” and its Retry Failed run', run.header.title)
        : l10n.t('Undo of “{0}” and its {1} Retry Failed runs', run.header.title, retries.length);
  const lines = retries.length
    ? [l10n.t('Also undone, the runs that sent its failed objects again: {0}', retries.map((r) => `${r.title} (${r.startedAt})`).join('; '))]
    : [];
  return { ...plan, header: run.header, entries: all, retries, title, lines };
}

/**
 * A batch add is not undone: the service answers a batch with a count, not the Keys of the people it
 * made, so which person to delete is a guess (someone else may bear the same name or address), and a
 * wrong guess deletes a person nobody meant to. Said once, for the whole run.
 */
function peopleNotUndone(header: RunHeader, entries: JournalEntry[]): UndoSelection {
  const added = entries.filter((e) => e.outcome === 'applied' || e.outcome === 'unknown').length;
  const note = l10n.t(
    'people added in batches cannot be undone: the service answers a batch with a count, not the Keys of the people it made, so which person to delete is not known for certain ({0} added or maybe added). Delete them by hand where needed.',
    added,
  );
  return { changes: [], notes: [{ label: header.title, note }], header, entries, retries: [], title: l10n.t('Undo of “{0}”', header.title), lines: [] };
}
