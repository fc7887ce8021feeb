/**
 * A query run over a scope of a connection: the folder (and its subfolders, when asked), each kind's pages read in
 * turn, each page's objects matched as it arrives and handed on, progress after every page, cancel between and
 * during requests. Pages in the cache are asked for with their ETag; a 304 is matched from the bytes held.
 */
import type { OmsClient } from '../api/client';
import { Kind, kind as kindOf } from '../model/kinds';
import type { BaseInfo } from '../model/types';
import type { Query } from './compile';
import { CachedPage, PageCache } from './pageCache';

export interface QueryScope {
  folderKey: string;
  subfolders: boolean;
  kinds: readonly Kind[];
}

export interface Match {
  kind: Kind;
  folderKey: string;
  key: string;
  object: BaseInfo;
}

export interface QueryProgress {
  /** Objects matched against the query so far. */
  scanned: number;
  matched: number;
  pages: number;
  /** Pages the server answered 304 to: matched from the cache. */
  unchangedPages: number;
  /** Objects whose evaluation failed (a type error: `length(null)`), and the first reason. */
  failed: number;
  firstFailure?: string;
}

export interface RunOptions {
  cache?: PageCache;
  signal?: AbortSignal;
  pageSize?: number;
  /** Each page's matches, as the page is matched (not called for a page without). */
  onMatches?: (matches: Match[]) => void;
  onProgress?: (progress: Readonly<QueryProgress>) => void;
  /** Each folder of the scope, as its reading begins (results that follow the server watch its lists). */
  onFolder?: (folderKey: string) => void;
}

export class QueryCancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

/** Runs `query` over `scope`; resolves to the progress at the end. Throws QueryCancelled when `signal` aborts. */
export async function runQuery(client: OmsClient, query: Query, scope: QueryScope, options: RunOptions = {}): Promise<QueryProgress> {
  const progress: QueryProgress = { scanned: 0, matched: 0, pages: 0, unchangedPages: 0, failed: 0 };
  const folderKind = kindOf('folder');
  const match = (k: Kind, folderKey: string, items: BaseInfo[]) => {
    const found: Match[] = [];
    for (const object of items) {
      if (query.matches(object)) found.push({ kind: k, folderKey, key: String(object.Key ?? ''), object });
      else if (query.failure !== undefined) {
        progress.failed++;
        progress.firstFailure ??= query.failure;
      }
    }
    progress.scanned += items.length;
    progress.matched += found.length;
    if (found.length) options.onMatches?.(found);
    options.onProgress?.(progress);
  };
  // The collections to read, in the order they are matched: a folder's kinds, then its subfolders (whose own
  // collections join the end). The next one's first page is asked for as this one's are read, so the run waits
  // for the server between collections no more than within one: two collections in flight at most.
  const queue: Array<{ k: Kind; folderKey: string }> = [];
  const enqueue = (folderKey: string) => {
    options.onFolder?.(folderKey);
    for (const k of scope.kinds) queue.push({ k, folderKey });
    if (scope.subfolders) queue.push({ k: folderKind, folderKey });
  };
  enqueue(scope.folderKey);
  const saving: Promise<void>[] = [];
  const open = (i: number) => collection(client, queue[i].k, queue[i].folderKey, options, progress, saving);
  const leave = options.cache?.enter();
  try {
    let next: Collection | undefined;
    for (let i = 0; i < queue.length; i++) {
      const { k, folderKey } = queue[i];
      const current = next ?? open(i);
      next = undefined;
      for (;;) {
        next ??= i + 1 < queue.length ? open(i + 1) : undefined;
        const items = await current.next();
        if (!items) break;
        if (k !== folderKind) match(k, folderKey, items);
        else for (const f of items) if (f.Key) enqueue(String(f.Key));
      }
    }
  } finally {
    // Pages compressed for the cache meanwhile are kept before the run ends, so the next run finds them.
    await Promise.all(saving);
    leave?.();
  }
  return progress;
}

/** A page's answer: the bytes read, or when the server answered 304 the cache's page, its objects kept parsed or its bytes unpacked. */
interface Answer {
  bytes?: Buffer;
  items?: readonly BaseInfo[];
  etag?: string;
  held?: CachedPage;
}

/** A collection being read: `next` resolves to its next page's objects, undefined after the last. */
interface Collection {
  next(): Promise<BaseInfo[] | undefined>;
}

/**
 * A collection's pages, the first asked for at once: each with the cached copy's ETag when there is one (a 304 is
 * the cached bytes, decompressed off this thread as the answer arrives). From the second page on the next is asked
 * for before this one is parsed (as the client's listPages does), so the listing waits for the server once, not once
 * a page. A page read in full is compressed for the cache off this thread; `saving` holds those still under way.
 */
function collection(client: OmsClient, k: Kind, folderKey: string, options: RunOptions, progress: QueryProgress, saving: Promise<void>[]): Collection {
  const size = Math.min(Math.max(1, options.pageSize ?? 1000), 1000);
  const cache = options.cache;
  const ask = (page: number) => {
    const key = PageCache.key(k.id, folderKey, page, size);
    const held = cache?.get(key);
    const answer = client.listBytesIf(k, folderKey, page, size, held?.etag, options.signal).then(async (a): Promise<Answer> => {
      if (!a.unchanged) return { bytes: a.bytes, etag: a.etag };
      // A 304 answers the tag sent, so `held` is the page; without one (a server answering 304 unasked), read it.
      if (!held) return { bytes: await client.listBytes(k, folderKey, page, size, options.signal) };
      const items = held.items;
      return items ? { held, items } : { held, bytes: await PageCache.unpack(held) };
    });
    answer.catch(() => undefined); // awaited below, unless the page before it was the last or the run stopped
    return { key, answer };
  };
  let page = 0;
  let asked: ReturnType<typeof ask> | undefined = ask(0);
  return {
    async next() {
      if (!asked) return undefined;
      if (options.signal?.aborted) throw new QueryCancelled();
      let answer;
      try {
        answer = await asked.answer;
      } catch (e) {
        if (options.signal?.aborted) throw new QueryCancelled();
        throw e;
      }
      if (options.signal?.aborted) throw new QueryCancelled();
      const key = asked.key;
      if (page > 0) asked = ask(page + 1);
      const items = (answer.items as BaseInfo[] | undefined) ?? client.itemsOf(k, folderKey, answer.bytes!.toString());
      if (answer.held) progress.unchangedPages++;
      else if (cache && answer.etag && answer.bytes) {
        const held = { etag: answer.etag, objects: items.length };
        const bytes = answer.bytes;
        saving.push(
          PageCache.pack(bytes).then(
            (packed) => cache.set(key, { ...held, packed }),
            () => cache.drop(key),
          ),
        );
      } else cache?.drop(key);
      progress.pages++;
      if (items.length < size) asked = undefined;
      else if (page === 0) asked = ask(1);
      page++;
      return items;
    },
  };
}
