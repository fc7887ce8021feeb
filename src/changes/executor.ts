/**
 * The one executor of many writes: bulk edits, plan apply, undo and retry runs all go
 * through `runChanges`. Each object: read it (that read is `before`), build what to send
 * from it, check the version the change was planned against, send through the one save
 * (src/save/saveObject.ts), read it back. Rules:
 * - bounded concurrency, lowered by one (not below two) on 429/503, raised again after
 *   successes; 429/503 honour Retry-After (capped) and the object restarts from its read;
 *   a waiting object holds no slot, so waits overlap rather than add up;
 * - a write is never resent blindly: after a write of unknown effect (no answer, 5xx) the
 *   object is read again and counts as applied only if the server holds what was sent at a
 *   newer version;
 * - cancel lets requests in flight finish; what never started ends 'notSent';
 * - stop or continue on error, as the user chose; one result per change.
 */
import { OmsClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { Http, RequestOptions, WriteApproval } from '../api/http';
import { Kind, serverOwnedFields } from '../model/kinds';
import { sameJson } from '../model/saveChecks';
import type { BaseInfo } from '../model/types';
import { saveObject } from '../save/saveObject';
import { l10n } from '../l10n';

export interface Change {
  /** Stable id of the entry: the object's Key, or a file path for a create. */
  id: string;
  /** What the user sees: CommonName (and folder). */
  label: string;
  kind: Kind;
  folderKey: string;
  /** Absent for a create. */
  key?: string;
  op: 'create' | 'update' | 'delete';
  /**
   * The version the change was planned against: the object read right before sending must
   * still be at it, else the result is 'stale' and nothing is sent. Undefined: no
   * precondition (a bulk edit re-applies its operations to the fresh read).
   */
  baseVersion?: number | null;
  /**
   * What to send, from the object as read right before sending (undefined for a create).
   * `{ skip }`: nothing to send (a no-op, or not applicable to this object).
   */
  build(live: BaseInfo | undefined): BaseInfo | Skip;
}

export interface Skip {
  skip: string;
  notApplicable?: boolean;
}

export type Outcome = 'applied' | 'unchanged' | 'stale' | 'failed' | 'notSent';

/** A result without the objects: what a run's report and its answer to a command keep (see `resultLine`). */
export type ResultLine = Pick<ChangeResult, 'id' | 'label' | 'outcome' | 'reason'>;

export const resultLine = ({ id, label, outcome, reason }: ResultLine): ResultLine => ({ id, label, outcome, reason });

export interface ChangeResult {
  id: string;
  label: string;
  outcome: Outcome;
  /** The service's reason for 'failed', why 'stale' (versions), why skipped. */
  reason?: string;
  /** The object as read right before sending, and as read after. */
  before?: BaseInfo;
  after?: BaseInfo;
  /** A create that was not applied: what it sends, kept by the journal so a retry needs no source (a batch add's people). */
  sent?: BaseInfo;
}

export interface RunProgress {
  done: number;
  total: number;
  failed: number;
  waitingSeconds?: number;
}

export interface RunOptions {
  /** Objects in flight at most (default 4); lowered on 429/503, raised again after successes. */
  concurrency?: number;
  /** Chosen by the user before the run starts: after the first failure, start nothing more. */
  stopOnError: boolean;
  /** Cancel: requests in flight finish, the rest end 'notSent'. */
  signal?: AbortSignal;
  onProgress?(p: RunProgress): void;
  /** Per change as it ends. */
  onResult?(r: ChangeResult): void;
  /** Longest wait for one Retry-After (default 30 s). */
  maxWaitMs?: number;
  /** Tries per object when unanswered (default 5). */
  maxAttempts?: number;
  /** Tries per object when told to wait (429/503: a refusal before any work, the service's own advice is to come back; default 20). */
  maxThrottled?: number;
  /** The user's one confirmation of the whole run on a production connection (src/connection/connection.ts). */
  approval?: WriteApproval;
  /**
   * Write-ahead: awaited before every write request of a change (POST, PUT, DELETE) goes out,
   * with the body about to be sent and the object as read before it (none for a create). A crash
   * after it leaves a record of what may have been written; if it throws, nothing is sent and the
   * change fails with its message.
   */
  beforeWrite?: (change: Change, body: unknown, live?: BaseInfo) => Promise<void>;
}

/** Successes after which a lowered concurrency goes up by one again. */
const raiseAfter = 10;
/** Longest pause of new sends after a 429/503 (the throttled object itself waits its whole Retry-After). */
const pauseMs = 250;

export async function runChanges(client: OmsClient, changes: Change[], options: RunOptions): Promise<ChangeResult[]> {
  const run = new ChangeRun(client, changes, options);
  await run.settled();
  return run.allResults();
}

/** How fast a run sends: how many in flight, lowered on 429/503 (not below two) and raised again after successes. */
class Pace {
  limit: number;
  /** New objects start no earlier than this. */
  pausedUntil = 0;
  private successes = 0;
  /** The last slow-down, one per Retry-After. */
  private slowedAt = -Infinity;
  private readonly floor: number;

  constructor(private readonly most: number) {
    this.limit = most;
    this.floor = Math.min(2, most);
  }

  /** A change ended neither failed nor unsent. */
  succeeded(): void {
    if (this.limit < this.most && ++this.successes >= raiseAfter) {
      this.limit++;
      this.successes = 0;
    }
  }

  /** Told to wait `ms` (429/503): once per Retry-After, one fewer in flight and a short pause of new objects. */
  throttled(now: number, ms: number): void {
    if (now - this.slowedAt < ms) return;
    this.slowedAt = now;
    this.limit = Math.max(this.floor, this.limit - 1);
    this.successes = 0;
    this.pausedUntil = Math.max(this.pausedUntil, now + Math.min(ms, pauseMs));
  }
}

/** One run's schedule: which change starts when, which waits to come back, and each one's result as it ends. */
class ChangeRun {
  private readonly total: number;
  private readonly results: ChangeResult[];
  private readonly tries: number[];
  private readonly throttles: number[];
  private readonly pace: Pace;
  private readonly maxWaitMs: number;
  private readonly maxAttempts: number;
  private readonly maxThrottled: number;
  private next = 0;
  private active = 0;
  private done = 0;
  private failed = 0;
  private stopped = false;
  private pumpAt = 0;
  /** Objects told to come back later (index → when), off the concurrency; then ready to try again from the read. */
  private readonly waiting = new Map<number, number>();
  private readonly ready: number[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private resolve = () => {};

  constructor(
    private readonly client: OmsClient,
    private readonly changes: Change[],
    private readonly options: RunOptions,
  ) {
    this.total = changes.length;
    this.results = new Array<ChangeResult>(this.total);
    this.tries = new Array<number>(this.total).fill(0);
    this.throttles = new Array<number>(this.total).fill(0);
    this.pace = new Pace(Math.max(1, options.concurrency ?? 4));
    this.maxWaitMs = options.maxWaitMs ?? 30_000;
    this.maxAttempts = options.maxAttempts ?? 5;
    this.maxThrottled = options.maxThrottled ?? 20;
  }

  /** Starts the changes; resolves once none is in flight and no more will start. */
  settled(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.resolve = resolve;
      this.options.signal?.addEventListener('abort', this.pump, { once: true });
      this.pump();
    });
  }

  /** One result per change: those that never ended are not sent, saying why. */
  allResults(): ChangeResult[] {
    for (let i = 0; i < this.total; i++) {
      if (this.results[i]) continue;
      this.results[i] = ended(this.changes[i], 'notSent', this.notSentReason(i));
      this.options.onResult?.(this.results[i]);
    }
    return this.results;
  }

  private notSentReason(index: number): string {
    if (this.stopped) return l10n.t('not sent: the run stopped at the first failure');
    return this.waiting.has(index) || this.ready.includes(index)
      ? l10n.t('not sent: the run was cancelled while this object waited to be sent again')
      : l10n.t('not sent: the run was cancelled');
  }

  private halted(): boolean {
    return this.stopped || (this.options.signal?.aborted ?? false);
  }

  private progress(): void {
    const { done, total, failed } = this;
    const until = Math.max(0, ...this.waiting.values());
    const waitingSeconds = until > Date.now() ? Math.ceil((until - Date.now()) / 1000) : undefined;
    this.options.onProgress?.({ done, total, failed, ...(waitingSeconds ? { waitingSeconds } : {}) });
  }

  private later(ms: number, f: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      f();
    }, ms);
    this.timers.add(timer);
  }

  /** Starts what may start now (the ready first), wakes up when a pause ends, resolves when all is done. */
  private readonly pump = (): void => {
    const now = Date.now();
    const { pace, total, ready } = this;
    const due = () => ready.length || (this.next < total && now >= pace.pausedUntil);
    while (!this.halted() && this.active < pace.limit && due()) this.start(ready.shift() ?? this.next++);
    if (!this.halted() && this.next < total && pace.pausedUntil > now && this.pumpAt !== pace.pausedUntil) {
      this.pumpAt = pace.pausedUntil;
      this.later(pace.pausedUntil - now, this.pump);
    }
    if (this.active === 0 && (this.halted() || (this.next >= total && !this.waiting.size && !ready.length))) {
      for (const timer of this.timers) clearTimeout(timer);
      this.resolve();
    }
  };

  private end(index: number, result: ChangeResult): void {
    this.results[index] = result;
    this.done++;
    if (result.outcome === 'failed') {
      this.failed++;
      if (this.options.stopOnError) this.stopped = true;
    } else if (result.outcome !== 'notSent') this.pace.succeeded();
    this.options.onResult?.(result);
  }

  /**
   * Throttled or unanswered: the object waits as told, holding no slot, so waits overlap
   * instead of queueing one after another. A 429/503 also slows the run gently (`Pace.throttled`).
   */
  private comeBack(index: number, ms: number, throttled: boolean): void {
    const now = Date.now();
    if (throttled) this.pace.throttled(now, ms);
    this.waiting.set(index, now + ms);
    this.later(ms, () => {
      this.waiting.delete(index);
      this.ready.push(index);
      this.pump();
    });
  }

  private start(index: number): void {
    this.active++;
    const change = this.changes[index];
    const failed = (e: unknown): Step => ({ result: ended(change, 'failed', (e as Error).message) });
    void tryOnce(this.client, change, this.options)
      .catch(failed)
      .then((step) => {
        this.active--;
        if ('result' in step) this.end(index, step.result);
        else if (step.throttled ? ++this.throttles[index] >= this.maxThrottled : ++this.tries[index] >= this.maxAttempts) {
          this.end(index, ended(change, 'failed', l10n.t('{0} (gave up after {1} tries)', step.again, this.tries[index] + this.throttles[index])));
        } else this.comeBack(index, Math.min(step.waitMs, this.maxWaitMs), step.throttled);
        this.progress();
        this.pump();
      });
  }
}

function ended(change: Change, outcome: Outcome, reason?: string): ChangeResult {
  return { id: change.id, label: change.label, outcome, ...(reason ? { reason } : {}) };
}

/** One try's end: a result, or "read again and try again" after a wait. */
type Step = { result: ChangeResult } | { again: string; waitMs: number; throttled: boolean };

async function tryOnce(client: OmsClient, change: Change, options: RunOptions): Promise<Step> {
  const result = (outcome: Outcome, more: Partial<ChangeResult> = {}): Step => ({ result: { id: change.id, label: change.label, outcome, ...more } });
  let live: BaseInfo | undefined;
  const watched = watch(client, change, options, () => live);
  if (change.op !== 'create') {
    try {
      live = await watched.client.get(change.kind, change.folderKey, mustKey(change));
    } catch (e) {
      return retryable(e) ?? result('failed', { reason: reasonOf(e) });
    }
  }
  const built = change.build(live);
  if (isSkip(built)) return result('unchanged', { reason: built.skip, before: live });
  const liveVersion = live?.ConcurrencyVersion ?? null;
  if (live && change.baseVersion !== undefined && liveVersion !== change.baseVersion) {
    return result('stale', { reason: staleReason(change.baseVersion, liveVersion), before: live });
  }

  if (change.op === 'delete') {
    try {
      await watched.client.delete(change.kind, change.folderKey, mustKey(change));
      return result('applied', { before: live });
    } catch (e) {
      if (!unknownEffect(e)) return retryable(e) ?? result('failed', { reason: reasonOf(e), before: live });
      const gone = await readAgain(client, change).then(
        () => false,
        (r: unknown) => r instanceof ApiError && r.kind === 'notFound',
      );
      return gone ? result('applied', { before: live }) : { again: `${reasonOf(e)}; read again: still there`, waitMs: 1000, throttled: false };
    }
  }

  // The object just read is what saveObject checks against: no second read before the write.
  const outcome = await saveObject(
    watched.client,
    { kind: change.kind, folderKey: change.folderKey, key: change.key },
    built,
    change.op === 'create' ? null : liveVersion,
    live ? { current: live } : {},
  );
  switch (outcome.status) {
    case 'saved':
      return result('applied', { before: outcome.replaced ?? live, after: outcome.object });
    case 'unchanged':
      return result('unchanged', { reason: l10n.t('already as wanted'), before: live });
    case 'conflict':
      // Written by someone between our read and our write: a precondition makes it stale, else read again and rebuild.
      if (change.baseVersion !== undefined)
        return result('stale', { reason: staleReason(change.baseVersion, outcome.server.ConcurrencyVersion ?? null), before: outcome.server });
      return { again: staleReason(liveVersion, outcome.server.ConcurrencyVersion ?? null), waitMs: 0, throttled: false };
    case 'refused':
      break;
  }

  const write = watched.log.find((r) => r.method !== 'GET');
  if (!write) {
    // Refused before any write: a read failed, or the checks (schema, identity) said no.
    const readError = watched.log.find((r) => r.error)?.error;
    return (readError ? retryable(readError) : undefined) ?? result('failed', { reason: outcome.refusal.message, before: live });
  }
  if (write.ok) {
    // Written; only the read after it failed.
    return result('applied', { before: live, after: await readAgain(client, change).catch(() => undefined) });
  }
  if (!unknownEffect(write.error)) return retryable(write.error) ?? result('failed', { reason: reasonOf(write.error), before: live });
  // A create without an answer may exist now, under a Key we never saw: say so, never send it again.
  if (change.op === 'create')
    return result('failed', { reason: l10n.t('{0}; it may have been created: look for it before trying again', reasonOf(write.error)) });
  // No answer or a 5xx to a PUT: the server may hold it. Read again before anything else.
  const now = await readAgain(client, change).catch(() => undefined);
  if (now && landed(write.json as BaseInfo, now)) return result('applied', { before: live, after: now });
  return retryable(write.error) ?? result('failed', { reason: reasonOf(write.error), before: live });
}

export function isSkip(built: BaseInfo | Skip): built is Skip {
  return typeof built.skip === 'string' && !('$type' in built);
}

/** A try to repeat from the read: throttled (429/503, after Retry-After) or unanswered. */
function retryable(e: unknown): Step | undefined {
  if (!(e instanceof ApiError)) return undefined;
  if (e.status === 429 || e.status === 503) return { again: reasonOf(e), waitMs: e.retryAfterMs ?? 1000, throttled: true };
  if (e.kind === 'network' || e.kind === 'timeout') return { again: reasonOf(e), waitMs: 1000, throttled: false };
  return undefined;
}

/** A write whose effect the answer does not tell: none came, or a server error. */
export function unknownEffect(e: unknown): boolean {
  return e instanceof ApiError && (e.kind === 'network' || e.kind === 'timeout' || (e.status !== undefined && e.status >= 500));
}

/** The server holds what was sent (server-owned fields aside) at a newer version. */
function landed(sent: BaseInfo, now: BaseInfo): boolean {
  if ((now.ConcurrencyVersion ?? 0) <= (sent.ConcurrencyVersion ?? 0)) return false;
  return Object.keys(sent).every((k) => serverOwnedFields.includes(k) || sameJson(sent[k], now[k]));
}

function readAgain(client: OmsClient, change: Change): Promise<BaseInfo> {
  return client.get(change.kind, change.folderKey, mustKey(change));
}

function reasonOf(e: unknown): string {
  if (e instanceof ApiError) return e.status ? `${e.status}: ${e.message}` : e.message;
  return (e as Error | undefined)?.message ?? 'unknown error';
}

function mustKey(change: Change): string {
  if (!change.key) throw new Error(l10n.t("{0}: an {1} needs the object's Key", change.label, change.op));
  return change.key;
}

interface Sent {
  method: RequestOptions['method'];
  json?: unknown;
  ok?: boolean;
  error?: unknown;
}

/**
 * The client, seeing every request it sends and its answer, and sending each once: the
 * executor does its own waiting and reading again, so it can lower the pace and never
 * resend a write unseen.
 */
function watch(client: OmsClient, change: Change, { approval, beforeWrite }: RunOptions, live: () => BaseInfo | undefined): { client: OmsClient; log: Sent[] } {
  const log: Sent[] = [];
  const http = (async (req: RequestOptions) => {
    const sent: Sent = { method: req.method, json: req.json };
    // Recorded before it is sent, so a crash or a lost answer never hides a write.
    if (req.method !== 'GET') await beforeWrite?.(change, req.json, live());
    log.push(sent);
    try {
      const answer = await client.http({ ...req, idempotent: false, resendWhenThrottled: false, ...(approval && req.method !== 'GET' ? { approval } : {}) });
      sent.ok = true;
      return answer;
    } catch (e) {
      sent.error = e;
      throw e;
    }
  }) as Http;
  return { client: new OmsClient(http), log };
}

/** The one wording of a change set's conflict: the version its change was built on is not the server's. */
function staleReason(expected: number | null, found: number | null): string {
  return l10n.t('changed on the server: version {0} expected, {1} found; nothing was sent', expected ?? l10n.t('none'), found ?? l10n.t('none'));
}
