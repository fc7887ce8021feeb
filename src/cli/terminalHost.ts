/**
 * The run core's host on the command line (the editor's is src/runs/vscodeHost.ts): progress lines
 * on a terminal, Ctrl+C to cancel (nothing more starts; writes under way end), the go-ahead as
 * "yes" typed or --auto-approve, the report as lines, and the exit code of a run.
 */
import type { PreviewEntry } from '../changes/bulk';
import type { RunHost, RunRecord } from '../runs/core/run';
import { objectsText, outcomesText, outcomeWord, previewCountsText } from '../runs/core/words';
import { CliError, exitCodes, partlyApplied } from './exit';
import { askYes, interactive, progressLines } from './terminal';
import { l10n } from '../l10n';

export interface TerminalOptions {
  /** Send without asking (a CI job, or a person who already read the plan). */
  autoApprove: boolean;
  stopOnError: boolean;
  /** The report's lines written by the command itself (apply's own), not the host's. */
  ownReport?: boolean;
  /** A progress line's words ("Applied 3 of 10 objects"); else "<title>: 3/10". */
  progressWords?: (done: number, total: number) => string;
}

/** Refuses before anything is read when there is neither a terminal to ask nor --auto-approve. */
export function checkCanAsk(options: TerminalOptions): void {
  if (!options.autoApprove && !interactive()) {
    throw new CliError(l10n.t('No terminal to ask for a yes: run with --auto-approve to send without asking. Nothing was sent.'));
  }
}

/** The go-ahead: given by --auto-approve, else "yes" typed on the terminal. */
export async function approved(options: TerminalOptions, question: string): Promise<boolean> {
  return options.autoApprove || (await askYes(question));
}

export function terminalHost(options: TerminalOptions): RunHost {
  return {
    view: {
      async progress(title, work) {
        const stop = new AbortController();
        const cancel = () => stop.abort();
        process.once('SIGINT', cancel);
        const show = progressLines((done, total) => options.progressWords?.(done, total ?? done) ?? `${title}: ${done}/${total ?? done}`);
        try {
          return await work((done, total) => show(done, total), stop.signal);
        } finally {
          process.off('SIGINT', cancel);
        }
      },
      async confirm(_connection, title, entries, words) {
        const changed = entries.filter((e) => e.status === 'change');
        process.stdout.write(`${title}: ${previewCountsText(entries)}\n`);
        for (const e of entries) if (e.status !== 'change') process.stdout.write(`  ${entryLine(e)}\n`);
        for (const note of words.notes ?? []) process.stdout.write(`  ${note.label}: ${note.note}\n`);
        for (const line of words.lines ?? []) process.stdout.write(`${line}\n`);
        if (!changed.length) return { stopOnError: options.stopOnError };
        const what = words.objects?.(changed) ?? objectsText(changed.length);
        return (await approved(options, l10n.t('{0} {1}?', words.runLabel, what))) ? { stopOnError: options.stopOnError } : undefined;
      },
      stopOnError: () => Promise.resolve(options.stopOnError),
      say(level, message) {
        (level === 'info' ? process.stdout : process.stderr).write(`${message}\n`);
      },
      report(record) {
        if (options.ownReport) return;
        for (const r of record.results) {
          if (r.outcome !== 'applied') process.stdout.write(`  ${outcomeWord(r.outcome)}: ${r.label}${r.reason ? ` (${r.reason})` : ''}\n`);
        }
        const counts: Record<string, number> = {};
        for (const r of record.results) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
        process.stdout.write(`${record.title}: ${outcomesText(counts)}\n${l10n.t('Run {0}', record.runId)}\n`);
      },
    },
  };
}

function entryLine(e: PreviewEntry): string {
  return `${e.status}: ${e.change.label}${e.reason ? ` (${e.reason})` : ''}`;
}

/** 0: every object done (applied, or already as wanted); 1: nothing was sent; 2: sent in part. */
export function runExitCode(record: Pick<RunRecord, 'results' | 'writes'>): number {
  if (record.results.every((r) => r.outcome === 'applied' || r.outcome === 'unchanged')) return exitCodes.ok;
  return record.writes ? partlyApplied : exitCodes.error;
}
