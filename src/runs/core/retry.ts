/**
 * Which runs Retry Failed offers and what it sends again, read from a journal on disk (so it sees
 * runs of the command line and from before a reload): a run's failed, unsent and unknown objects,
 * minus those a later retry of it applied or found already as wanted. A retry is journalled beside
 * the run it retries, so one journal holds a run and all its retries.
 */
import { sendable, type Plan } from '../../changes/code/plan';
import type { JournalEntry, RunHeader, RunJournal } from '../../changes/runJournal';
import { l10n } from '../../l10n';
import { retryCountsText } from './words';

export interface Outstanding {
  header: RunHeader;
  entries: JournalEntry[];
}

const again = new Set<JournalEntry['outcome']>(['failed', 'notSent', 'unknown']);
const settled = new Set<JournalEntry['outcome']>(['applied', 'unchanged']);

/** Runs of the connection with objects still to send, newest first; `runId`: only that run. */
export async function outstandingRuns(journal: RunJournal, connectionId?: string, runId?: string): Promise<Outstanding[]> {
  // Read whole only where they count: runs that left objects to send, and the retries of runs.
  const summaries = (await journal.runs(connectionId)).filter((r) => r.header.retryOf || [...again].some((o) => r.counts[o]));
  const runs = await Promise.all(summaries.map((r) => journal.read(r.header.runId).catch(() => undefined)));
  const done = new Map<string, Set<string>>();
  // Oldest first: a retry of a retry settles the objects of the run the first one retried.
  const byId = new Map(runs.filter((r) => r !== undefined).map((r) => [r.header.runId, r]));
  const origin = (h: RunHeader): string => (h.retryOf && byId.has(h.retryOf) ? origin(byId.get(h.retryOf)!.header) : h.runId);
  for (const r of byId.values()) {
    if (!r.header.retryOf) continue;
    const ids = done.get(origin(r.header)) ?? new Set<string>();
    for (const e of r.entries) if (settled.has(e.outcome)) ids.add(e.id);
    done.set(origin(r.header), ids);
  }
  const wanted = runId && byId.has(runId) ? origin(byId.get(runId)!.header) : runId;
  const out: Outstanding[] = [];
  for (const r of byId.values()) {
    if (r.header.retryOf || (wanted && r.header.runId !== wanted)) continue;
    const ids = done.get(r.header.runId) ?? new Set<string>();
    const entries = r.entries.filter((e) => again.has(e.outcome) && !ids.has(e.id));
    if (entries.length) out.push({ header: r.header, entries });
  }
  return out;
}

/** The run a retry (of a retry…) goes back to: `runId` itself when it is no retry. */
export function originOf(byId: ReadonlyMap<string, RunHeader>, runId: string): string {
  const seen = new Set<string>();
  let id = runId;
  while (byId.get(id)?.retryOf && byId.has(byId.get(id)!.retryOf!) && !seen.has(id)) {
    seen.add(id);
    id = byId.get(id)!.retryOf!;
  }
  return id;
}

/**
 * What a retry of `entries` will do, said truthfully: objects sent before (failed, or sent with no
 * answer) against objects never sent; creates whose answer was lost are left out (they may exist
 * under a Key nobody saw) and named.
 */
export function retrySelection(entries: readonly JournalEntry[]): { entries: JournalEntry[]; lostCreates: JournalEntry[]; lines: string[] } {
  const lostCreates = entries.filter((e) => e.outcome === 'unknown' && e.op === 'create');
  const kept = entries.filter((e) => !lostCreates.includes(e));
  const never = kept.filter((e) => e.outcome === 'notSent').length;
  const lines = [l10n.t('To send: {0}', retryCountsText(kept.length - never, never))];
  if (lostCreates.length) {
    lines.push(
      l10n.t('Not sent again, they may have been created (no answer came): {0}. Plan or look for them first.', lostCreates.map((e) => e.label).join(', ')),
    );
  }
  return { entries: kept, lostCreates, lines };
}

/** A fresh plan of the pulled folder with exactly the run's outstanding entries ticked; how many are. */
export function tickOutstanding(plan: Plan, entries: readonly JournalEntry[]): number {
  const ids = new Set(entries.flatMap((e) => [e.id, ...(e.key ? [e.key] : [])]));
  let ticked = 0;
  for (const e of plan.entries) {
    e.selected = sendable.has(e.action) && (ids.has(e.id) || (!!e.key && ids.has(e.key)));
    if (e.selected) ticked++;
  }
  return ticked;
}
