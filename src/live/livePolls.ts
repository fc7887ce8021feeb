/**
 * The polls of the live feed (no `vscode`; loaded with the first read): one poller per connection, reading
 * what the visible consumers show (the same pages of two read once), one event per answer, and each
 * consumer told whether it is followed or why not (signed out, the service not answering).
 */
import { l10n } from '../l10n';
import type { BaseInfo } from '../model/types';
import type { LiveConsumer, LiveRead, Listener, PollHost } from './liveFeed';
import type { PollResult, Watched, WatchedGroup, WatchedObject } from './liveReads';
import { Poller } from './poller';

export class Polls {
  private readonly pollers = new Map<string, Poller>();
  /** Connections whose last poll failed, and why. */
  private readonly failing = new Map<string, string>();

  constructor(
    private readonly host: PollHost,
    private readonly consumers: ReadonlySet<LiveConsumer>,
    private readonly listeners: ReadonlySet<Listener>,
  ) {}

  wake(): void {
    const ids = this.host.connectionIds();
    for (const [id, p] of this.pollers) {
      if (ids.includes(id)) continue;
      p.dispose();
      this.pollers.delete(id);
      this.failing.delete(id);
    }
    for (const id of ids) this.pollerOf(id).wake();
  }

  pause(): void {
    for (const p of this.pollers.values()) p.pause();
  }

  dispose(): void {
    for (const p of this.pollers.values()) p.dispose();
    this.pollers.clear();
  }

  /** What the visible consumers show of a connection: each group once, and which consumers' groups it answers. */
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

  private pollerOf(connectionId: string): Poller {
    let poller = this.pollers.get(connectionId);
    if (poller) return poller;
    let owners = new Map<WatchedGroup, WatchedGroup[]>();
    poller = new Poller({
      source: this.host.source(connectionId),
      watched: () => {
        const now = this.watched(connectionId);
        owners = now.owners;
        return now.watched;
      },
      intervalMs: () => this.host.intervalMs(),
      canRead: async () =>
        this.host.intervalMs() > 0 && this.host.focused() && [...this.consumers].some((c) => c.visible()) && (await this.host.signedIn(connectionId)),
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
    });
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

  /** Each consumer that asks hears whether it is followed, or why not. */
  async tell(): Promise<void> {
    const ids = this.host.connectionIds();
    const signedOut = (await Promise.all(ids.map(async (id) => ((await this.host.signedIn(id)) ? undefined : id)))).filter(Boolean);
    // Turned off meanwhile: the feed said so to every consumer, which a tell begun before must not take back.
    if (this.host.intervalMs() <= 0) return;
    for (const c of this.consumers) {
      if (!c.following) continue;
      const mine = ids.filter((id) => {
        const w = c.watched(id);
        return w.groups.length || w.objects.length;
      });
      const out = mine.find((id) => signedOut.includes(id));
      const failing = mine.find((id) => this.failing.has(id));
      c.following(
        out
          ? l10n.t('signed out of {0}', this.host.label(out))
          : failing
            ? l10n.t('{0} did not answer ({1}); trying again less often', this.host.label(failing), this.failing.get(failing)!)
            : undefined,
      );
    }
  }
}
