/**
 * When a connection is polled (no `vscode`): every interval while `canRead`
 * says yes (the view visible, the window focused, signed in), never twice at
 * once. Nothing runs while it cannot read: the next `wake` (the view shown,
 * the window focused again) polls at once if an interval has passed. A 429 or
 * 503 waits as long as the server's Retry-After says; other failures double
 * the wait, up to eight intervals. A failure is reported once per streak.
 */
import { LiveReads, type PollResult, type PollSource, type Watched } from './liveReads';

export interface PollerOptions {
  source: PollSource;
  watched(): Watched;
  /** The interval in ms; 0 turns polling off. */
  intervalMs(): number;
  canRead(): Promise<boolean>;
  onResult(result: PollResult): void;
  /** The first failure after a success (or the start). */
  onFailure(error: unknown): void;
  /** The first success after a reported failure. */
  onRecovered?(): void;
}

const maxSlowdown = 8;

export class Poller {
  private readonly reads: LiveReads;
  private timer?: ReturnType<typeof setTimeout>;
  private running?: Promise<void>;
  private lastAt = -Infinity;
  private delayMs?: number;
  private failures = 0;
  private disposed = false;

  constructor(private readonly options: PollerOptions) {
    this.reads = new LiveReads(options.source);
  }

  /** Something may have made a poll possible or due: schedules the next one (at once when it is overdue). */
  wake(): void {
    if (this.disposed || this.timer || this.running) return;
    const interval = this.options.intervalMs();
    if (interval <= 0) return;
    const wait = Math.max(0, this.lastAt + (this.delayMs ?? interval) - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.tick();
    }, wait);
  }

  /** Stops the timer until the next `wake` (the view was hidden, the window lost focus). */
  pause(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** One poll now, unless one is running or reading is not possible; then the next is scheduled. */
  async tick(): Promise<void> {
    if (this.running || this.disposed) return this.running;
    // A listener that throws must not stop the polls: it has its own error handling (the glue logs).
    this.running = this.run()
      .catch(() => true)
      .then((polled) => {
        this.running = undefined;
        // Not polled (hidden, unfocused, signed out): nothing is scheduled until the next wake.
        if (polled) this.wake();
      });
    return this.running;
  }

  private async run(): Promise<boolean> {
    if (!(await this.options.canRead().catch(() => false))) return false;
    const watched = this.options.watched();
    // Nothing shown yet: no request, and the next look comes an interval later (a group expanded meanwhile is read then).
    if (!watched.groups.length && !watched.objects.length) {
      this.lastAt = Date.now();
      return true;
    }
    let result: PollResult;
    try {
      result = await this.reads.poll(watched);
    } catch (e) {
      if (this.failures++ === 0) this.options.onFailure(e);
      const asked = (e as { retryAfterMs?: number }).retryAfterMs;
      const interval = this.options.intervalMs();
      this.delayMs = asked !== undefined ? Math.max(interval, asked) : interval * Math.min(maxSlowdown, 2 ** this.failures);
      return true;
    } finally {
      this.lastAt = Date.now();
    }
    if (this.failures) this.options.onRecovered?.();
    this.failures = 0;
    this.delayMs = undefined;
    this.options.onResult(result);
    return true;
  }

  dispose(): void {
    this.disposed = true;
    this.pause();
  }
}
