/**
 * Where runs are found: the journals of this machine's runs and those of pulled folders
 * (`<folder>/.oms/runs/`, where `oms apply` and the editor's Apply write theirs), and a journal
 * file handed over on its own (a CI job's artifact). A run is one thing wherever it ran: listed,
 * shown, retried and undone the same way; its retries and undo are journalled beside it.
 */
import * as path from 'node:path';
import { lstat } from 'node:fs/promises';
import { cachePath } from '../../changes/code/manifest';
import { RunJournal, type RunHeader, type RunSummary } from '../../changes/runJournal';
import { l10n } from '../../l10n';

/** The journal of a pulled folder's runs. */
export function folderJournal(root: string): RunJournal {
  return new RunJournal(cachePath(root, 'runs'));
}

/** The pulled folder a journal belongs to, when it is `<folder>/.oms/runs/`. */
export function folderOfJournal(journal: RunJournal): string | undefined {
  const runs = path.resolve(journal.dir);
  const root = path.dirname(path.dirname(runs));
  return path.resolve(folderJournal(root).dir) === runs ? root : undefined;
}

/**
 * A journal file named on its own: its folder's journal and its run id (`<runId>.jsonl`). A link is
 * not followed (a file others handed over is input), and a file of another name is refused clearly.
 */
export async function journalFile(file: string): Promise<{ journal: RunJournal; runId: string }> {
  const full = path.resolve(file);
  const info = await lstat(full).catch(() => undefined);
  if (!info?.isFile()) throw new Error(l10n.t('{0} is not a run journal file', file));
  const runId = path.basename(full).replace(/\.jsonl$/, '');
  if (!/^[0-9a-z]+-[0-9a-f]+$/.test(runId) || !full.endsWith('.jsonl')) {
    throw new Error(l10n.t('{0} is not named as a run journal (<run id>.jsonl, as the run wrote it): keep the name it was written with', file));
  }
  return { journal: new RunJournal(path.dirname(full)), runId };
}

export interface FoundRun extends RunSummary {
  journal: RunJournal;
}

/** Every run of these journals, newest first; `matches`: only those of a service. */
export async function allRuns(journals: readonly RunJournal[], matches?: (header: RunHeader) => boolean): Promise<FoundRun[]> {
  const found: FoundRun[] = [];
  const seen = new Set<string>();
  for (const journal of journals) {
    if (seen.has(path.resolve(journal.dir))) continue;
    seen.add(path.resolve(journal.dir));
    for (const run of await journal.runs()) if (!matches || matches(run.header)) found.push({ ...run, journal });
  }
  return found.sort((a, b) => b.header.runId.localeCompare(a.header.runId));
}

/** The journal holding run `runId`, or a clear error. */
export async function journalOf(journals: readonly RunJournal[], runId: string): Promise<RunJournal> {
  for (const journal of journals) if (await journal.has(runId)) return journal;
  throw new Error(l10n.t('No run {0} on this machine (runs are kept in the pulled folders’ .oms/runs/ and in the editor’s storage)', runId));
}

/** Whether a run was made against the service of `connection` (by its id here, or by its URL anywhere). */
export function sameService(header: RunHeader, connection: { id: string; info: { baseUrl: string } }): boolean {
  const bare = (url: string) => url.trim().replace(/\/+$/, '');
  return header.connectionId === connection.id || (!!header.url && bare(header.url) === bare(connection.info.baseUrl));
}
