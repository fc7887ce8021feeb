/**
 * Which runs Retry Failed offers and what it sends again, read from the journals on disk (so it
 * sees Apply runs and runs from before a reload): a run's failed, unsent and unknown objects,
 * minus those a later retry of it applied or found already as wanted.
 */
import type { JournalEntry, RunHeader, RunJournal } from '../changes/runJournal';

export interface Outstanding { header: RunHeader; entries: JournalEntry[] }

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
