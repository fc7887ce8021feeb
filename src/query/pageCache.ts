/**
 * List pages a query has read, with their ETags, so that asking again sends If-None-Match and a 304 page is
 * matched from memory instead of read and parsed again. Bounded by objects held (`limit`, 200,000 by default: two
 * fleets of 100,000; bench/query.bench.ts states the memory): past it, the pages used longest ago go first.
 */
import type { BaseInfo } from '../model/types';

export interface CachedPage {
  etag: string;
  items: BaseInfo[];
}

const defaultCacheLimit = 200_000;

export class PageCache {
  /** A Map keeps insertion order: a page used again is moved to the end, so the first is the least recent. */
  private readonly pages = new Map<string, CachedPage>();
  private held = 0;

  constructor(readonly limit = defaultCacheLimit) {}

  static key(kindId: string, folderKey: string, page: number, pageSize: number): string {
    return `${kindId}\u0000${folderKey}\u0000${page}\u0000${pageSize}`;
  }

  get(key: string): CachedPage | undefined {
    const page = this.pages.get(key);
    if (page) {
      this.pages.delete(key);
      this.pages.set(key, page);
    }
    return page;
  }

  set(key: string, page: CachedPage): void {
    this.drop(key);
    if (page.items.length > this.limit) return;
    this.pages.set(key, page);
    this.held += page.items.length;
    for (const [oldest] of this.pages) {
      if (this.held <= this.limit) break;
      this.drop(oldest);
    }
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
