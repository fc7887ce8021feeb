/**
 * One poll of a connection (no `vscode`): the pages the Objects view shows and
 * the objects open in editors, read again. A page goes out with the ETag of
 * its last answer (If-None-Match), so an unchanged page costs a 304 without a
 * body; from a service without ETags a page is compared by keys, names and
 * versions. An open object that a page read covers costs nothing more; any
 * other is read by its key, conditionally too.
 */
import type { Reread } from '../api/client';
import type { Kind } from '../model/kinds';
import type { BaseInfo } from '../model/types';

/** A group the view shows: its first `pages` pages of `pageSize`; `all` after Load all (then a new last page is read too). */
export interface WatchedGroup {
  kind: Kind;
  folderKey: string;
  pageSize: number;
  pages: number;
  all: boolean;
}

export interface WatchedObject {
  kind: Kind;
  folderKey: string;
  key: string;
}

export interface Watched {
  groups: readonly WatchedGroup[];
  objects: readonly WatchedObject[];
}

/** What the reads of a group found when any of its pages changed: the objects of every page read, in order. */
export interface GroupRead {
  group: WatchedGroup;
  items: BaseInfo[];
  /** The last page read was short: nothing follows. */
  complete: boolean;
}

export interface ObjectRead {
  watched: WatchedObject;
  /** The object as the server holds it now; undefined when it is gone (404). */
  object?: BaseInfo;
}

export interface PollResult {
  /** Groups with a changed page. */
  groups: GroupRead[];
  /** Every watched object, as last read (from a page or by its key). */
  objects: ObjectRead[];
  requests: number;
}

/** What a poll reads through: the client's conditional reads (`OmsClient.listAgain`, `getAgain`). */
export interface PollSource {
  listAgain(kind: Kind, folderKey: string, page: number, pageSize: number, etag?: string): Promise<Reread<BaseInfo[]>>;
  getAgain(kind: Kind, folderKey: string, key: string, etag?: string): Promise<Reread<BaseInfo>>;
}

interface Held<T> {
  etag?: string;
  value: T;
  /** Compared when the service gives no ETag. */
  signature: string;
}

const groupId = (g: { kind: Kind; folderKey: string }) => `${g.kind.id}|${g.folderKey}`;
const objectId = (o: WatchedObject) => `${o.kind.id}|${o.folderKey}|${o.key}`;
const signatureOf = (items: readonly BaseInfo[]) => items.map((o) => `${o.Key}\u0000${o.ConcurrencyVersion}\u0000${o.CommonName}`).join('\u0001');

/** Reads of one connection, with what the last answers were (their tags and objects). */
export class LiveReads {
  private pages = new Map<string, Held<BaseInfo[]>>();
  private objects = new Map<string, Held<BaseInfo | undefined>>();

  constructor(
    private readonly source: PollSource,
    private readonly concurrency = 4,
  ) {}

  /** One poll. The first failed request stops it (nothing more is sent this time) and is thrown. */
  async poll(watched: Watched): Promise<PollResult> {
    let requests = 0;
    const pagesNow = new Map<string, Held<BaseInfo[]>>();
    const groups: GroupRead[] = [];
    const covering = new Map<string, Map<string, BaseInfo>>();
    const readPage = async (g: WatchedGroup, page: number): Promise<{ items: BaseInfo[]; changed: boolean }> => {
      const id = `${groupId(g)}|${g.pageSize}|${page}`;
      const held = this.pages.get(id);
      requests++;
      const answer = await this.source.listAgain(g.kind, g.folderKey, page, g.pageSize, held?.etag);
      const now: Held<BaseInfo[]> =
        answer.unchanged && held
          ? held
          : answer.unchanged
            ? { etag: answer.etag, value: [], signature: '' }
            : { etag: answer.etag, value: answer.value, signature: signatureOf(answer.value) };
      pagesNow.set(id, now);
      return { items: now.value, changed: !held || now.signature !== held.signature };
    };
    const readGroup = async (g: WatchedGroup) => {
      const items: BaseInfo[] = [];
      let changed = false;
      let last: BaseInfo[] = [];
      for (let page = 0; page < Math.max(1, g.pages) || (g.all && last.length === g.pageSize); page++) {
        const read = await readPage(g, page);
        items.push(...read.items);
        changed ||= read.changed;
        last = read.items;
        if (last.length < g.pageSize) break;
      }
      covering.set(groupId(g), new Map(items.map((o) => [o.Key ?? '', o])));
      if (changed) groups.push({ group: g, items, complete: last.length < g.pageSize });
    };
    try {
      await inPool(watched.groups, this.concurrency, readGroup);
    } finally {
      // What was read stays known (a later failure keeps it); pages no longer shown are forgotten.
      for (const [id, held] of this.pages) if (!pagesNow.has(id) && watched.groups.some((g) => id.startsWith(`${groupId(g)}|`))) pagesNow.set(id, held);
      this.pages = pagesNow;
    }

    const objectsNow = new Map<string, Held<BaseInfo | undefined>>();
    const objects: ObjectRead[] = [];
    const uncovered: WatchedObject[] = [];
    for (const w of watched.objects) {
      const fromPage = covering.get(groupId(w))?.get(w.key);
      if (fromPage) objects.push({ watched: w, object: fromPage });
      else uncovered.push(w);
    }
    try {
      await inPool(uncovered, this.concurrency, async (w) => {
        const held = this.objects.get(objectId(w));
        requests++;
        let object: BaseInfo | undefined;
        let etag: string | undefined;
        try {
          const answer = await this.source.getAgain(w.kind, w.folderKey, w.key, held?.etag);
          object = answer.unchanged ? held?.value : answer.value;
          etag = answer.etag;
        } catch (e) {
          if ((e as { kind?: string }).kind !== 'notFound') throw e;
        }
        objectsNow.set(objectId(w), { etag, value: object, signature: '' });
        objects.push({ watched: w, object });
      });
    } finally {
      this.objects = objectsNow;
    }
    return { groups, objects, requests };
  }
}

/** Runs `run` over `items`, `limit` at a time; after the first failure nothing more starts, and it is thrown. */
async function inPool<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++];
      try {
        await run(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}
