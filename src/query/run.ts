/**
 * A query run over a scope of a connection: the folder (and its subfolders, when asked), each kind's pages read in
 * turn, each page's objects matched as it arrives and handed on, progress after every page, cancel between and
 * during requests. Pages in the cache are asked for with their ETag; a 304 is matched from memory.
 */
import type { OmsClient } from '../api/client';
import { Kind, kind as kindOf } from '../model/kinds';
import type { BaseInfo } from '../model/types';
import type { Query } from './compile';
import { PageCache } from './pageCache';

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
  const folders = [scope.folderKey];
  for (let i = 0; i < folders.length; i++) {
    const folderKey = folders[i];
    options.onFolder?.(folderKey);
    for (const k of scope.kinds) {
      for await (const items of pagesOf(client, k, folderKey, options, progress)) match(k, folderKey, items);
    }
    if (scope.subfolders) {
      for await (const items of pagesOf(client, folderKind, folderKey, options, progress)) {
        for (const f of items) if (f.Key) folders.push(String(f.Key));
      }
    }
  }
  return progress;
}

/**
 * A collection's pages: each asked for with the cached copy's ETag when there is one. From the second page on the
 * next is asked for before this one is parsed (as the client's listPages does), so the listing waits for the
 * server once, not once a page.
 */
async function* pagesOf(client: OmsClient, k: Kind, folderKey: string, options: RunOptions, progress: QueryProgress): AsyncGenerator<BaseInfo[]> {
  const size = Math.min(Math.max(1, options.pageSize ?? 1000), 1000);
  const cache = options.cache;
  const ask = (page: number) => {
    const key = PageCache.key(k.id, folderKey, page, size);
    const answer = client.listBytesIf(k, folderKey, page, size, cache?.get(key)?.etag, options.signal);
    answer.catch(() => undefined); // awaited below, unless the page before it was the last
    return { key, answer };
  };
  for (let page = 0, asked = ask(0); ; page++) {
    if (options.signal?.aborted) throw new QueryCancelled();
    let answer;
    try {
      answer = await asked.answer;
    } catch (e) {
      if (options.signal?.aborted) throw new QueryCancelled();
      throw e;
    }
    const key = asked.key;
    if (page > 0) asked = ask(page + 1);
    let items: BaseInfo[];
    const held = answer.unchanged ? cache?.get(key) : undefined;
    if (held) {
      items = held.items;
      progress.unchangedPages++;
    } else if (answer.unchanged) {
      // A 304 to a tag the cache dropped meanwhile: read it again, unconditionally.
      items = client.itemsOf(k, folderKey, (await client.listBytes(k, folderKey, page, size, options.signal)).toString());
    } else {
      items = client.itemsOf(k, folderKey, answer.bytes.toString());
      if (answer.etag && cache) cache.set(key, { etag: answer.etag, items });
      else cache?.drop(key);
    }
    progress.pages++;
    yield items;
    if (items.length < size) return;
    if (page === 0) asked = ask(1);
  }
}
