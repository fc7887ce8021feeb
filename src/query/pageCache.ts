/**
 * List pages a query has read, with their ETags, so that asking again sends If-None-Match and a 304 page is
 * read from memory instead of the network. Every page is kept as the server's bytes compressed (deflate, on libuv's
 * threads): 10,000 input scanners' pages, 43 MB of JSON, take about 1.3 MB (bench/query.bench.ts), where their
 * parsed objects take 54 MB (the same long `$type` strings again in every row and link). After a run, while none is
 * under way, the pages are parsed again in the background and their objects kept as well, up to `parsedLimit`
 * objects (20,000 by default: about 110 MB of scanners), so that a query asked again or refined parses nothing.
 * Bounded by compressed bytes held (`limit`: 32 MiB by default). When a page does not fit, pages unused for `idleMs`
 * (5 minutes) go first, least recently used first; if it still does not fit it is not kept. A query reads its pages in
 * order, so evicting the least recent page to make room would evict exactly the pages the next run reads first
 * (every one a miss); keeping what is held lets a fleet larger than the cache reuse that much.
 */
import { promisify } from 'node:util';
import type { BaseInfo } from '../model/types';
import { deflateRaw, inflateRaw } from 'node:zlib';

export interface CachedPage {
  etag: string;
  /** The page's bytes as the server sent them, compressed (`PageCache.pack`). */
  packed: Buffer;
  /** Objects on the page. */
  objects: number;
  /** The page's objects parsed, kept for a page read from the cache again (while `parsedLimit` allows). */
  items?: readonly BaseInfo[];
}

const defaultCacheBytes = 32 * 2 ** 20;
const defaultParsedObjects = 20_000;
const idleMs = 5 * 60_000;
const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

export class PageCache {
  /** A Map keeps insertion order: a page used again is moved to the end, so the first is the least recent. */
  private readonly pages = new Map<string, CachedPage & { used: number }>();
  private bytesHeld = 0;
  private objectsHeld = 0;
  private parsedHeld = 0;
  /** Runs under way with this cache: parsing in the background waits until there are none. */
  private runs = 0;
  private warming: Promise<void> | undefined;

  constructor(
    /** Compressed bytes held at most. */
    readonly limit = defaultCacheBytes,
    /** Objects kept parsed at most, besides their bytes. */
    readonly parsedLimit = defaultParsedObjects,
    private readonly now = () => Date.now(),
  ) {}

  static key(kindId: string, folderKey: string, page: number, pageSize: number): string {
    return `${kindId}\u0000${folderKey}\u0000${page}\u0000${pageSize}`;
  }

  /** A page's bytes as the cache keeps them; compressed off this thread (fast level: a page of 1,000 scanners, 4 MB, in ms). */
  static pack(bytes: Buffer): Promise<Buffer> {
    return deflate(bytes, { level: 1 });
  }

  /** The bytes of a page `pack` kept, decompressed off this thread. */
  static unpack(page: CachedPage): Promise<Buffer> {
    return inflate(page.packed);
  }

  /** A run starts using the cache; the function says it ended (then held pages are parsed in the background). */
  enter(): () => void {
    this.runs++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      if (--this.runs === 0) this.warming ??= this.warm().finally(() => (this.warming = undefined));
    };
  }

  /** Resolves once the background parsing after the last run has stopped (done, or a run started). */
  settled(): Promise<void> {
    return this.warming ?? Promise.resolve();
  }

  /**
   * Parses held pages whose objects are not kept, while no run is under way, as far as `parsedLimit` allows: a run
   * keeps its pages as bytes only (objects kept while it runs outlive the young generation, and the collector's
   * copying made a first run 1.4 times slower), and a query asked again, typically refined after a look at the
   * results, then needs no parsing. One page a turn of the event loop (decompressed off this thread; its parse,
   * 1,000 scanners, is this thread's longest step, as in a run).
   */
  private async warm(): Promise<void> {
    for (;;) {
      const next = [...this.pages].find(([, p]) => !p.items && this.parsedHeld + p.objects <= this.parsedLimit);
      if (this.runs || !next) return;
      const [key, page] = next;
      const bytes = await PageCache.unpack(page);
      if (this.runs || this.pages.get(key) !== page) continue;
      let items: unknown;
      try {
        items = JSON.parse(bytes.toString());
      } catch {
        items = undefined;
      }
      if (Array.isArray(items)) this.keepParsed(key, items as BaseInfo[]);
      else this.drop(key);
    }
  }

  get(key: string): CachedPage | undefined {
    const page = this.pages.get(key);
    if (page) {
      this.pages.delete(key);
      this.pages.set(key, page);
      page.used = this.now();
    }
    return page;
  }

  /** Keeps a held page's objects parsed as well, when `parsedLimit` allows; pages idle for `idleMs` give up theirs to make room. */
  keepParsed(key: string, items: readonly BaseInfo[]): void {
    const page = this.pages.get(key);
    if (!page || page.items) return;
    const idleSince = this.now() - idleMs;
    for (const held of this.pages.values()) {
      if (this.parsedHeld + items.length <= this.parsedLimit || held.used > idleSince) break;
      if (held.items) this.parsedHeld -= held.items.length;
      held.items = undefined;
    }
    if (this.parsedHeld + items.length > this.parsedLimit) return;
    page.items = items;
    this.parsedHeld += items.length;
  }

  set(key: string, page: CachedPage): void {
    this.drop(key);
    const size = page.packed.length;
    const idleSince = this.now() - idleMs;
    for (const [oldest, held] of this.pages) {
      if (this.bytesHeld + size <= this.limit || held.used > idleSince) break;
      this.drop(oldest);
    }
    if (this.bytesHeld + size > this.limit) return;
    this.pages.set(key, { ...page, items: undefined, used: this.now() });
    this.bytesHeld += size;
    this.objectsHeld += page.objects;
  }

  drop(key: string): void {
    const had = this.pages.get(key);
    if (!had) return;
    this.pages.delete(key);
    this.bytesHeld -= had.packed.length;
    this.objectsHeld -= had.objects;
    this.parsedHeld -= had.items?.length ?? 0;
  }

  /** Objects on the pages held now. */
  get size(): number {
    return this.objectsHeld;
  }

  /** Compressed bytes held now (the bound is on these). */
  get bytes(): number {
    return this.bytesHeld;
  }

  /** Objects kept parsed now. */
  get parsed(): number {
    return this.parsedHeld;
  }

  clear(): void {
    this.pages.clear();
    this.bytesHeld = 0;
    this.objectsHeld = 0;
    this.parsedHeld = 0;
  }
}
