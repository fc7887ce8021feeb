/**
 * Batch add of people: split, send with bounded concurrency, report per batch
 * so that only the failed batches are resent (spec 4.5, rule 3).
 */
import type { PersonInfo } from '../model/types';
import { ApiError } from './errors';
import type { WriteApproval } from './http';

export interface BatchOptions {
  /** People per request; the public documentation recommends about 100. */
  batchSize?: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /** Cancels between batches, and ends a wait to resend a batch refused with 429; never a batch in flight. */
  signal?: AbortSignal;
  onProgress?: (progress: BatchProgress) => void;
  /** The confirmation the whole batch add was given (production connections). */
  approval?: WriteApproval;
  /** After a batch fails, start no other (those in flight end). */
  stopOnError?: boolean;
  /**
   * Write-ahead: awaited before a batch goes out (its intent on disk). If it throws, the batch is not
   * sent and fails with its message.
   */
  beforeBatch?: (outcome: BatchOutcome) => Promise<void>;
  /** A batch ended (added or failed). */
  onBatch?: (outcome: BatchOutcome) => void;
}

export interface BatchProgress {
  sentPeople: number;
  totalPeople: number;
  doneBatches: number;
  totalBatches: number;
}

export interface BatchOutcome {
  /** Index of the batch, and the item range it covered in the input: [start, end). */
  index: number;
  start: number;
  end: number;
  ok: boolean;
  /** People the server reported as added. */
  added: number;
  error?: ApiError;
  /** True when the batch was never sent (cancelled before its turn). */
  skipped?: boolean;
}

export interface BatchReport {
  added: number;
  outcomes: BatchOutcome[];
  failed: BatchOutcome[];
  cancelled: boolean;
}

export async function addPeopleInBatches(
  /** Sends one batch; `stopWaiting` ends a wait to send it again, never a request in flight. */
  send: (batch: PersonInfo[], stopWaiting?: AbortSignal) => Promise<number>,
  people: PersonInfo[],
  options: BatchOptions = {},
): Promise<BatchReport> {
  const size = Math.max(1, Math.floor(options.batchSize ?? 100));
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
  const outcomes: BatchOutcome[] = [];
  for (let start = 0; start < people.length; start += size) {
    outcomes.push({ index: outcomes.length, start, end: Math.min(start + size, people.length), ok: false, added: 0, skipped: true });
  }
  const progress: BatchProgress = { sentPeople: 0, totalPeople: people.length, doneBatches: 0, totalBatches: outcomes.length };

  let next = 0;
  let stopped = false;
  const worker = async () => {
    // Cancellation is honoured between batches: a batch in flight is never abandoned half-sent.
    while (next < outcomes.length && !options.signal?.aborted && !stopped) {
      const outcome = outcomes[next++];
      outcome.skipped = false;
      try {
        await options.beforeBatch?.(outcome);
        outcome.added = await send(people.slice(outcome.start, outcome.end), options.signal);
        outcome.ok = true;
        progress.sentPeople += outcome.end - outcome.start;
      } catch (e) {
        outcome.error = e instanceof ApiError ? e : new ApiError('network', (e as Error).message);
        stopped ||= !!options.stopOnError;
      }
      progress.doneBatches++;
      options.onBatch?.(outcome);
      options.onProgress?.({ ...progress });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, outcomes.length) }, worker));

  const failed = outcomes.filter((o) => !o.ok);
  return {
    added: outcomes.reduce((sum, o) => sum + o.added, 0),
    outcomes,
    failed,
    cancelled: options.signal?.aborted ?? false,
  };
}

/** The people of the failed (or never sent) batches, in input order: what to resend. */
export function peopleToResend(people: PersonInfo[], report: BatchReport): PersonInfo[] {
  return report.failed.flatMap((o) => people.slice(o.start, o.end));
}
