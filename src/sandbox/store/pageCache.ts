/**
 * List pages as answered, per `${folderKey}/${kind}` group, until anything in the group changes:
 * a page read again is a lookup, with nothing to join, encode or hash.
 *
 * A page's digest (what its ETag names) outlives its bytes. The bytes are capped (a folder of
 * 10,000 scanners is 33 MB of pages, and a pass over more than the cap drops them all, page after
 * page); the digests are a few bytes each, so a no-op pull or a live poll, which only asks whether
 * a page changed, is answered 304 without building the page again.
 */
import { createHash } from 'node:crypto';

/** Bytes of cached pages in all (beyond it their bytes start afresh; their digests stay). */
const maxBytes = 32 * 1024 * 1024;
/** Pages remembered in all (a client choosing every `from` and `size` could otherwise grow the map without end). */
const maxPages = 200_000;

/** A digest of an answer's bytes: what its ETag names. */
export function digestOf(content: Buffer | string): string {
  return createHash('sha1').update(content).digest('base64url').slice(0, 22);
}

interface Page {
  digest: string;
  bytes?: Buffer;
}

export class PageCache {
  private readonly groups = new Map<string, Map<string, Page>>();
  private bytesHeld = 0;
  private pageCount = 0;

  /** The page's digest, building the page only when it is not known. */
  digest(group: string, id: string, build: () => Buffer): string {
    return this.groups.get(group)?.get(id)?.digest ?? this.made(group, id, build()).digest;
  }

  /** The page's bytes, from the cache or built (and cached) now. */
  bytes(group: string, id: string, build: () => Buffer): Buffer {
    return this.groups.get(group)?.get(id)?.bytes ?? this.made(group, id, build()).bytes!;
  }

  /** Forgets a group's pages (anything in it changed). */
  drop(group: string): void {
    const pages = this.groups.get(group);
    if (!pages) return;
    for (const p of pages.values()) this.bytesHeld -= p.bytes?.length ?? 0;
    this.pageCount -= pages.size;
    this.groups.delete(group);
  }

  private made(group: string, id: string, bytes: Buffer): Page {
    if (this.bytesHeld + bytes.length > maxBytes) this.dropBytes();
    if (this.pageCount >= maxPages) this.dropAll();
    let pages = this.groups.get(group);
    if (!pages) this.groups.set(group, (pages = new Map<string, Page>()));
    const before = pages.get(id);
    if (before) this.bytesHeld -= before.bytes?.length ?? 0;
    else this.pageCount++;
    const page = { digest: digestOf(bytes), bytes };
    pages.set(id, page);
    this.bytesHeld += bytes.length;
    return page;
  }

  private dropBytes(): void {
    for (const pages of this.groups.values()) for (const p of pages.values()) p.bytes = undefined;
    this.bytesHeld = 0;
  }

  private dropAll(): void {
    this.groups.clear();
    this.bytesHeld = 0;
    this.pageCount = 0;
  }
}
