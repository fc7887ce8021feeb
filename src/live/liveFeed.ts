/**
 * Live reads as events (no `vscode`). What shows server objects registers as a consumer: while one
 * is visible (the Objects view, an editor's tab, a priorities table, Object Changes), its connection
 * is read every interval, and only what the visible consumers show. Each poll's answer is one event,
 * `onDidRead`: the pages that changed, the objects as read, the objects gone. The tree, the search
 * index, documents, badges, tables and the plan view subscribe to it beside what they update, as
 * they subscribe to saves. A visible consumer that is not followed (live updates off, signed out,
 * the service not answering) is told why.
 */
import { l10n } from '../l10n';
import type { BaseInfo } from '../model/types';
import type { GroupRead, PollResult, PollSource, Watched, WatchedGroup, WatchedObject } from './liveReads';
import type { Poller } from './poller';

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

/** What the feed asks of its host (the VS Code side, or a test). */
export interface LiveHost {
  source(connectionId: string): PollSource;
  /** The interval in ms (0: off). */
  intervalMs(): number;
  /** The window is focused: reading pauses while it is not (nothing to say: a person is elsewhere). */
  focused(): boolean;
  connectionIds(): string[];
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
  /** Why live updates are off (undefined: reading), when it changes. */
  state(text: string): void;
}

type Listener = (read: LiveRead) => void;

export class LiveFeed {
  private readonly consumers = new Set<LiveConsumer>();
  private readonly listeners = new Set<Listener>();
  private readonly pollers = new Map<string, Promise<Poller>>();
  /** Connections whose last poll failed, and why (the consumers say so). */
  private readonly failing = new Map<string, string>();
  private lastState = '';
  private disposed = false;

  constructor(private readonly host: LiveHost) {}

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
    if (this.disposed) return;
    const ids = this.host.connectionIds();
    for (const [id, p] of this.pollers) {
      if (ids.includes(id)) continue;
      void p.then((x) => x.dispose());
      this.pollers.delete(id);
      this.failing.delete(id);
    }
    const interval = this.host.intervalMs();
    const visible = [...this.consumers].some((c) => c.visible());
    const state = interval <= 0 ? 'off (oms.live.interval is 0)' : !visible ? 'paused: nothing that shows server objects is visible'
      : !this.host.focused() ? 'paused: the window is not focused' : `every ${interval / 1000} s`;
    if (state !== this.lastState) this.host.state(`Live updates ${(this.lastState = state)}`);
    void this.tell();
    if (interval <= 0 || !visible || !this.host.focused()) {
      for (const p of this.pollers.values()) void p.then((x) => x.pause());
      return;
    }
    for (const id of ids) void this.pollerOf(id).then((p) => p.wake());
  }

  /** Stops every timer until the next `wake` (the interval changed). */
  pause(): void {
    for (const p of this.pollers.values()) void p.then((x) => x.pause());
  }

  /** One poll of a connection now (a test, or a consumer that just appeared and should not wait an interval). */
  async pollNow(connectionId: string): Promise<void> {
    await (await this.pollerOf(connectionId)).tick();
  }

  dispose(): void {
    this.disposed = true;
    for (const p of this.pollers.values()) void p.then((x) => x.dispose());
    this.pollers.clear();
    this.consumers.clear();
    this.listeners.clear();
  }

  /** What the visible consumers show of a connection: each group once (the same pages of two consumers are read once). */
  private watched(connectionId: string): { watched: Watched; owners: Map<WatchedGroup, WatchedGroup[]> } {
    const groups = new Map<string, WatchedGroup>();
    const owners = new Map<WatchedGroup, WatchedGroup[]>();
    const objects = new Map<string, WatchedObject>();
    for (const c of this.consumers) {
      if (!c.visible()) continue;
      const w = c.watched(connectionId);
      for (const g of w.groups) {
        const id = `${g.kind.id}|${g.folderKey}|${g.pageSize}|${g.pages}|${g.all}`;
        const read = groups.get(id) ?? g;
        groups.set(id, read);
        owners.set(read, [...(owners.get(read) ?? []), g]);
      }
      for (const o of w.objects) objects.set(`${o.kind.id}|${o.folderKey}|${o.key}`, o);
    }
    return { watched: { groups: [...groups.values()], objects: [...objects.values()] }, owners };
  }

  private pollerOf(connectionId: string): Promise<Poller> {
    let poller = this.pollers.get(connectionId);
    if (poller) return poller;
    let owners = new Map<WatchedGroup, WatchedGroup[]>();
    // The pollers are a chunk of their own, loaded with the first poll (not at activation).
    poller = import('./poller').then(({ Poller }) => new Poller({
      source: this.host.source(connectionId),
      watched: () => {
        const now = this.watched(connectionId);
        owners = now.owners;
        return now.watched;
      },
      intervalMs: () => this.host.intervalMs(),
      canRead: async () => this.host.intervalMs() > 0 && this.host.focused() && [...this.consumers].some((c) => c.visible())
        && (await this.host.signedIn(connectionId)),
      onResult: (result) => {
        if (this.failing.delete(connectionId)) void this.tell();
        this.received(connectionId, result, owners);
      },
      onFailure: (e) => {
        this.failing.set(connectionId, (e as Error).message);
        this.host.failed(this.host.label(connectionId), e as Error);
        void this.tell();
      },
      onRecovered: () => this.host.recovered(this.host.label(connectionId)),
    }));
    this.pollers.set(connectionId, poller);
    return poller;
  }

  private received(connectionId: string, result: PollResult, owners: Map<WatchedGroup, WatchedGroup[]>): void {
    const objects: Array<{ watched: WatchedObject; object: BaseInfo }> = [];
    const gone: WatchedObject[] = [];
    for (const read of result.objects) {
      // The object as its own save left it, read before the save's answer: the answer moves its views on.
      if (this.host.isSaving(connectionId, read.watched)) continue;
      if (read.object) objects.push({ watched: read.watched, object: read.object });
      else gone.push(read.watched);
    }
    const groups = result.groups.flatMap((read) => (owners.get(read.group) ?? [read.group]).map((group) => ({ ...read, group })));
    const event: LiveRead = { connectionId, groups, objects, gone };
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (e) {
        this.host.error(`Live updates of ${this.host.label(connectionId)} not shown: ${(e as Error).stack ?? String(e)}`);
      }
    }
  }

  /** Each visible consumer hears whether it is followed, or why not. */
  private async tell(): Promise<void> {
    const interval = this.host.intervalMs();
    const ids = this.host.connectionIds();
    const signedOut = interval > 0 ? await Promise.all(ids.map(async (id) => ((await this.host.signedIn(id)) ? undefined : id))) : [];
    for (const c of this.consumers) {
      if (!c.following) continue;
      const mine = ids.filter((id) => { const w = c.watched(id); return w.groups.length || w.objects.length; });
      const out = mine.find((id) => signedOut.includes(id));
      const failing = mine.find((id) => this.failing.has(id));
      c.following(interval <= 0 ? l10n.t('live updates are off (oms.live.interval is 0)')
        : out ? l10n.t('signed out of {0}', this.host.label(out))
          : failing ? l10n.t('{0} did not answer ({1}); trying again less often', this.host.label(failing), this.failing.get(failing)!) : undefined);
    }
  }
}
