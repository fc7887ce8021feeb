/**
 * Live reads as events (no `vscode`). What shows server objects registers as a consumer: while one
 * is visible (the Objects view, an editor's tab, a priorities table, Object Changes), its connection
 * is read every interval, and only what the visible consumers show. Each poll's answer is one event,
 * `onDidRead`: the pages that changed, the objects as read, the objects gone. The tree, the search
 * index, documents, badges, tables and the plan view subscribe to it beside what they update, as
 * they subscribe to saves. A visible consumer that is not followed (live updates off, signed out,
 * the service not answering) is told why. The polls themselves (livePolls.ts, poller.ts, liveReads.ts)
 * load with the first read, not at activation.
 */
import { l10n } from '../l10n';
import type { BaseInfo } from '../model/types';
import type { GroupRead, PollSource, Watched, WatchedObject } from './liveReads';
import type { Polls } from './livePolls';

export interface LiveConsumer {
  /** Shown to the user now: while one consumer is, its connections are read. */
  visible(): boolean;
  /** What it shows of a connection; a group read is reported with the very `WatchedGroup` given here. */
  watched(connectionId: string): Watched;
  /** Whether what it shows follows the server (undefined), or why not, said in the user's words. */
  following?(reason: string | undefined): void;
}

/** One poll of a connection, as read. */
export interface LiveRead {
  connectionId: string;
  /** Groups with a changed page: every page read, in order (`group` is the consumer's own). */
  groups: readonly GroupRead[];
  /** Watched objects as the server holds them now (a save on its way leaves its object out: its answer moves the views). */
  objects: ReadonlyArray<{ watched: WatchedObject; object: BaseInfo }>;
  /** Watched objects the server no longer holds (404). */
  gone: readonly WatchedObject[];
}

/** What the feed asks of its host (the VS Code side, or a test) to know whether to read. */
export interface LiveHost {
  /** The interval in ms (0: off). */
  intervalMs(): number;
  /** The window is focused: reading pauses while it is not (nothing to say: a person is elsewhere). */
  focused(): boolean;
  connectionIds(): string[];
  /** Why live updates are off (undefined: reading), when it changes. */
  state(text: string): void;
}

/** What the polls ask of it besides (loaded with them). */
export interface PollHost extends LiveHost {
  source(connectionId: string): PollSource;
  /** The connection as the user knows it (its label), in every line about it. */
  label(connectionId: string): string;
  signedIn(connectionId: string): Promise<boolean>;
  /** A save of the object is on its way. */
  isSaving(connectionId: string, object: WatchedObject): boolean;
  /** The first failure of a streak, said to the user once; and its recovery, in the log. */
  failed(label: string, error: Error): void;
  recovered(label: string): void;
  /** An error of a listener (it stops neither the polls nor the other listeners). */
  error(text: string): void;
}

export type Listener = (read: LiveRead) => void;

export class LiveFeed {
  private readonly consumers = new Set<LiveConsumer>();
  private readonly listeners = new Set<Listener>();
  /** Loaded once something is to be read. */
  private polls?: Promise<Polls>;
  private lastState = '';

  constructor(
    private readonly host: LiveHost,
    private readonly pollHost: () => Promise<Omit<PollHost, keyof LiveHost>>,
  ) {}

  /** A consumer, read while visible; call `wake` when what it shows or its visibility changes. */
  watch(consumer: LiveConsumer): { dispose(): void } {
    this.consumers.add(consumer);
    this.wake();
    return { dispose: () => void this.consumers.delete(consumer) };
  }

  onDidRead(listener: Listener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  /** Something may have made a poll possible, due or impossible: each connection polls, or pauses, accordingly. */
  wake(): void {
    const interval = this.host.intervalMs();
    const visible = [...this.consumers].some((c) => c.visible());
    const state =
      interval <= 0
        ? 'off (oms.live.interval is 0)'
        : !visible
          ? 'paused: nothing shown'
          : !this.host.focused()
            ? 'paused: the window is not focused'
            : `every ${interval / 1000} s`;
    if (state !== this.lastState) this.host.state(`Live updates ${(this.lastState = state)}`);
    const off = interval <= 0 ? l10n.t('live updates are off (oms.live.interval is 0)') : undefined;
    if (off || !this.polls) for (const c of this.consumers) c.following?.(off);
    else void this.polls.then((p) => p.tell());
    if (interval <= 0 || !visible || !this.host.focused()) {
      void this.polls?.then((p) => p.pause());
      return;
    }
    if (this.polls || this.host.connectionIds().length) void this.loaded().then((p) => p.wake());
  }

  /** Stops every timer until the next `wake` (the interval changed). */
  pause(): void {
    void this.polls?.then((p) => p.pause());
  }

  /** The polls stop; with no consumer left, nothing wakes them again. */
  dispose(): void {
    this.consumers.clear();
    void this.polls?.then((p) => p.dispose());
  }

  private loaded(): Promise<Polls> {
    return (this.polls ??= Promise.all([import('./livePolls'), this.pollHost()]).then(
      ([{ Polls }, more]) => new Polls({ ...this.host, ...more }, this.consumers, this.listeners),
    ));
  }
}
