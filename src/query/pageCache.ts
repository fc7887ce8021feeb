/**
 * List pages a query has read, with their ETags, so that asking again sends If-None-Match and a 304 page is
 * matched from memory instead of read and parsed again. Bounded by objects held (`limit`: 50,000 by default, about
 * 270 MB of parsed objects as bench/query.bench.ts measures them). When a page does not fit, pages unused for
 * `idleMs` (5 minutes) go first, least recently used first; if it still does not fit it is not kept. A query
 * reads its pages in order, so evicting the least recent page to make room would evict exactly the pages the next
 * run reads first (every one a miss); keeping what is held lets a fleet larger than the cache reuse that much.
 */
import type { BaseInfo } from '../model/types';

export interface CachedPage {
  etag: string;
  items: BaseInfo[];
}

const defaultCacheLimit = 50_000;
const idleMs = 5 * 60_000;

export class PageCache {
  /** A Map keeps insertion order: a page used again is moved to the end, so the first is the least recent. */
  private readonly pages = new Map<string, CachedPage & { used: number }>();
  private held = 0;

  constructor(
    readonly limit = defaultCacheLimit,
    private readonly now = () => Date.now(),
  ) {}

  static key(kindId: string, folderKey: string, page: number, pageSize: number): string {
    return `${kindId}\u0000${folderKey}\u0000${page}\u0000${pageSize}`;
  }

  get(key: string): CachedPage | undefined {
    const page = this.pages.get(key);
    if (page) {
      this.pages.delete(key);
      this.pages.set(key, { ...page, used: this.now() });
    }
    return page;
  }

  set(key: string, page: CachedPage): void {
    this.drop(key);
    const idleSince = this.now() - idleMs;
    for (const [oldest, held] of this.pages) {
      if (this.held + page.items.length <= this.limit || held.used > idleSince) break;
      this.drop(oldest);
    }
    if (this.held + page.items.length > this.limit) return;
    this.pages.set(key, { ...page, used: this.now() });
    this.held += page.items.length;
  }

  drop(key: string): void {
    const had = this.pages.get(key);
    if (!had) return;
    this.pages.delete(key);
    this.held -= had.items.length;
  }

  /** Objects held now. */
  get size(): number {
    return this.held;
  }

  clear(): void {
    this.pages.clear();
    this.held = 0;
  }
}
