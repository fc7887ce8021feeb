/**
 * Pages of children loaded on demand. One load at a time: a double click on
 * "Load more" never loads a page twice. A reload lists again as much as was
 * loaded (all of it after Load all) and shows the old pages until it is done.
 */
import type { Page } from '../api/client';

export class Pager<T> {
  items: T[] = [];
  private next: number | undefined = 0;
  private loading?: Promise<void>;

  constructor(
    private readonly fetchPage: (page: number) => Promise<Page<T>>,
    readonly pageSize = 100,
  ) {}

  get started(): boolean {
    return this.next !== 0 || this.items.length > 0;
  }

  get hasMore(): boolean {
    return this.next !== undefined;
  }

  /** Loads the next page, or joins the load already under way. */
  loadMore(): Promise<void> {
    this.loading ??= (async () => {
      if (this.next === undefined) return;
      const page = await this.fetchPage(this.next);
      this.items.push(...page.items);
      this.next = page.items.length ? page.next : undefined;
    })().finally(() => (this.loading = undefined));
    return this.loading;
  }

  async loadAll(): Promise<void> {
    while (this.hasMore) await this.loadMore();
  }

  /** Lists again as many as were loaded (every page when all were), after any load under way. */
  reload(): Promise<void> {
    const run = async () => {
      const all = this.started && !this.hasMore;
      const wanted = this.items.length;
      const fresh = new Pager(this.fetchPage, this.pageSize);
      do await fresh.loadMore();
      while (fresh.hasMore && (all || fresh.items.length < wanted));
      this.items = fresh.items;
      this.next = fresh.next;
    };
    const reloading: Promise<void> = (this.loading ?? Promise.resolve())
      .catch(() => undefined)
      .then(run)
      .finally(() => {
        if (this.loading === reloading) this.loading = undefined;
      });
    this.loading = reloading;
    return reloading;
  }

  /** Pages loaded so far (a Load all counts the empty page that ended it). */
  get pages(): number {
    return this.next ?? Math.max(1, this.items.length && Math.ceil(this.items.length / Math.max(1, this.pageSize)));
  }

  /**
   * The loaded pages as the server now holds them (read again by live updates): `items` of every page,
   * `complete` when nothing follows. False when a load is under way (its answer wins; the next read follows).
   */
  follow(items: T[], complete: boolean, pages: number): boolean {
    if (this.loading || !this.started) return false;
    this.items = items;
    this.next = complete ? undefined : pages;
    return true;
  }

  reset(): void {
    this.items = [];
    this.next = 0;
  }
}
