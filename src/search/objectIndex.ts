/**
 * A connection's objects by name, gathered in the background: the folders are
 * walked from the root and every listable kind is paged, a few requests at a
 * time. Listeners see each page's objects as they arrive, so a search shows
 * matches long before the walk ends. Stopping keeps what was fetched and the
 * work still to do: the next walk resumes there, and a finished walk is reused
 * for `freshMs` (nothing is fetched twice within that time); after it the next
 * search walks everything again, whatever was noted changed in between.
 * Changes made through the extension are applied at once: an object saved,
 * created, renamed or deleted is read again by its key (`changed`), a
 * collection changed as a whole is listed again.
 */
import type { Page } from '../api/client';
import { Kind, kind as kindOf, objectKinds, supports } from '../model/kinds';
import type { BaseInfo } from '../model/types';

/** What the index needs from a connection. */
export interface IndexSource {
  /** The root folder (the instance): its key and name. */
  root(): Promise<FolderStep>;
  list(kind: Kind, folderKey: string, page: number, pageSize: number, signal?: AbortSignal): Promise<Page<BaseInfo>>;
  /** One object by key (404 once it is deleted). */
  get(kind: Kind, folderKey: string, key: string, signal?: AbortSignal): Promise<BaseInfo>;
}

/** A folder on the way from the root: its key and name. */
export interface FolderStep {
  key: string;
  name: string;
}

export interface IndexEntry {
  key: string;
  name: string;
  kind: Kind;
  folderKey: string;
  /** Folders from the root (included) down to the one holding the object. */
  folders: readonly FolderStep[];
}

export interface IndexProgress {
  objects: number;
  folders: number;
  /** Pages still to fetch (known so far). */
  pending: number;
  done: boolean;
  /** Collections the service refused to list (e.g. no permission). */
  refused: number;
}

export interface IndexOptions {
  pageSize?: number;
  concurrency?: number;
  freshMs?: number;
  now?: () => number;
}

interface Task {
  kind: Kind;
  folders: readonly FolderStep[];
  page: number;
  /** Read this one object again instead of listing a page. */
  key?: string;
}

const listable = [kindOf('folder'), ...objectKinds.filter((k) => supports(k, 'list'))];

export class ObjectIndex {
  private readonly byKey = new Map<string, IndexEntry>();
  private queue: Task[] = [];
  private seeded = false;
  private folderCount = 0;
  private refused = 0;
  /** When the last full walk ended; noting a change does not move it, so the full refresh still comes. */
  private completedAt?: number;
  private running?: { promise: Promise<void>; controller: AbortController };
  private readonly listeners = new Set<(added: readonly IndexEntry[]) => void>();
  private readonly progressListeners = new Set<(p: IndexProgress) => void>();
  private readonly pageSize: number;
  private readonly concurrency: number;
  private readonly freshMs: number;
  private readonly now: () => number;

  constructor(
    private readonly source: IndexSource,
    options: IndexOptions = {},
  ) {
    this.pageSize = options.pageSize ?? 500;
    this.concurrency = options.concurrency ?? 4;
    this.freshMs = options.freshMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  get entries(): IterableIterator<IndexEntry> {
    return this.byKey.values();
  }

  entry(key: string): IndexEntry | undefined {
    return this.byKey.get(key);
  }

  get progress(): IndexProgress {
    return {
      objects: this.byKey.size,
      folders: this.folderCount,
      pending: this.queue.length,
      done: this.completedAt !== undefined && !this.queue.length,
      refused: this.refused,
    };
  }

  /** Called with every batch of objects added; returns the unsubscribe function. */
  onEntries(listener: (added: readonly IndexEntry[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onProgress(listener: (p: IndexProgress) => void): () => void {
    this.progressListeners.add(listener);
    return () => this.progressListeners.delete(listener);
  }

  /**
   * Walks (or resumes walking) the connection; joins a walk under way.
   * A walk finished less than `freshMs` ago is not repeated: only what was
   * noted changed since is fetched.
   */
  ensure(): Promise<void> {
    if (this.running) return this.running.promise;
    if (this.completedAt !== undefined) {
      if (this.now() - this.completedAt >= this.freshMs) this.reset();
      else if (!this.queue.length) return Promise.resolve();
    }
    return this.start();
  }

  private start(): Promise<void> {
    const controller = new AbortController();
    const promise = this.walk(controller.signal).finally(() => {
      if (this.running?.controller === controller) this.running = undefined;
    });
    this.running = { promise, controller };
    return promise;
  }

  /** Stops the walk; what was fetched stays, the rest is fetched by the next `ensure`. */
  stop(): void {
    this.running?.controller.abort();
  }

  /**
   * Something changed through the extension: one object (`key`: saved, created,
   * renamed or deleted), read again by its key; or, without a key, a whole
   * collection (a batch add), listed again. Fetched at once when the index
   * holds a walk, so the next search finds it.
   */
  changed(folderKey: string, kindId: string, key?: string): Promise<void> {
    if (!this.seeded) return Promise.resolve();
    const folders = this.foldersTo(folderKey);
    const k = listable.find((l) => l.id === kindId);
    if (!folders || !k) return Promise.resolve();
    if (key) this.queue.unshift({ kind: k, folders, page: 0, key });
    else {
      for (const [known, e] of this.byKey) if (e.folderKey === folderKey && e.kind.id === kindId) this.byKey.delete(known);
      this.queue.unshift({ kind: k, folders, page: 0 });
    }
    // Joins a walk under way (its pump takes the task) or fetches just this; a walk the user stopped
    // part-way is not resumed behind their back (its next search takes the task).
    if (this.running) return this.running.promise.catch(() => undefined);
    return this.completedAt === undefined ? Promise.resolve() : this.start().catch(() => undefined);
  }

  /**
   * A group's objects as live updates read them (no request of its own): new and renamed ones are
   * indexed at once; with `complete` (every page of the group read) those no longer there are gone.
   */
  observed(folderKey: string, kindId: string, objects: readonly BaseInfo[], complete: boolean): void {
    const folders = this.seeded ? this.foldersTo(folderKey) : undefined;
    const k = listable.find((l) => l.id === kindId && l.id !== 'folder');
    if (!folders || !k) return;
    const added: IndexEntry[] = [];
    const keys = new Set<string>();
    for (const o of objects) {
      if (!o.Key) continue;
      keys.add(o.Key);
      const entry: IndexEntry = { key: o.Key, name: o.CommonName || o.Key, kind: k, folderKey, folders };
      if (this.byKey.get(o.Key)?.name === entry.name) continue;
      this.byKey.set(o.Key, entry);
      added.push(entry);
    }
    if (complete) for (const [key, e] of this.byKey) if (e.folderKey === folderKey && e.kind.id === kindId && !keys.has(key)) this.byKey.delete(key);
    if (added.length) for (const l of this.listeners) l(added);
  }

  /** The folders from the root down to this one (included), when the walk has met it. */
  private foldersTo(folderKey: string): readonly FolderStep[] | undefined {
    if (this.rootStep?.key === folderKey) return [this.rootStep];
    const e = this.byKey.get(folderKey);
    return e?.kind.id === 'folder' ? [...e.folders, { key: e.key, name: e.name }] : undefined;
  }

  /** An object read again by key: added or renamed, or gone with everything under it. */
  private async reread(task: Task, signal: AbortSignal): Promise<void> {
    const folder = task.folders[task.folders.length - 1];
    let o: BaseInfo | undefined;
    try {
      o = await this.source.get(task.kind, folder.key, task.key!, signal);
    } catch (e) {
      if (signal.aborted || !isRefusal(e)) throw e;
    }
    if (!o?.Key) {
      this.byKey.delete(task.key!);
      for (const [key, e] of this.byKey) if (e.folders.some((f) => f.key === task.key)) this.byKey.delete(key);
      return;
    }
    const entry: IndexEntry = { key: o.Key, name: o.CommonName || o.Key, kind: task.kind, folderKey: folder.key, folders: task.folders };
    const before = this.byKey.get(o.Key);
    this.byKey.set(o.Key, entry);
    if (task.kind.id === 'folder' && before && before.name !== entry.name) {
      // A renamed folder: the paths shown beside what it holds follow.
      for (const [key, e] of this.byKey) {
        const renamed = (f: { key: string; name: string }) => (f.key === o.Key ? { key: f.key, name: entry.name } : f);
        if (e.folders.some((f) => f.key === o.Key)) this.byKey.set(key, { ...e, folders: e.folders.map(renamed) });
      }
    }
    for (const l of this.listeners) l([entry]);
  }

  private rootStep?: FolderStep;

  private reset(): void {
    this.byKey.clear();
    this.queue = [];
    this.seeded = false;
    this.folderCount = 0;
    this.refused = 0;
    this.completedAt = undefined;
  }

  private async walk(signal: AbortSignal): Promise<void> {
    if (!this.seeded) {
      this.rootStep = await this.source.root();
      this.queue.push(...listable.map((k) => ({ kind: k, folders: [this.rootStep!], page: 0 })));
      this.folderCount = 1;
      this.seeded = true;
    }
    let active = 0;
    await new Promise<void>((resolve, reject) => {
      const pump = () => {
        if (signal.aborted) {
          if (active === 0) resolve();
          return;
        }
        while (active < this.concurrency && this.queue.length) {
          const task = this.queue.shift()!;
          active++;
          this.run(task, signal).then(
            () => {
              active--;
              this.emitProgress();
              pump();
            },
            (e: unknown) => {
              active--;
              if (signal.aborted) {
                this.queue.unshift(task); // not fetched: the next walk does it
                pump();
              } else reject(e instanceof Error ? e : new Error(String(e)));
            },
          );
        }
        if (active === 0 && !this.queue.length) resolve();
      };
      pump();
    });
    if (!signal.aborted && !this.queue.length) {
      this.completedAt ??= this.now();
      this.emitProgress();
    }
  }

  private async run(task: Task, signal: AbortSignal): Promise<void> {
    if (task.key) return this.reread(task, signal);
    const folder = task.folders[task.folders.length - 1];
    let page: Page<BaseInfo>;
    try {
      page = await this.source.list(task.kind, folder.key, task.page, this.pageSize, signal);
    } catch (e) {
      if (signal.aborted) throw e;
      if (isRefusal(e)) {
        this.refused++;
        return;
      }
      throw e;
    }
    if (page.next !== undefined && page.items.length) this.queue.push({ ...task, page: page.next });
    const added: IndexEntry[] = [];
    for (const o of page.items) {
      if (!o.Key) continue;
      const entry: IndexEntry = { key: o.Key, name: o.CommonName || o.Key, kind: task.kind, folderKey: folder.key, folders: task.folders };
      this.byKey.set(o.Key, entry);
      added.push(entry);
      if (task.kind.id === 'folder') {
        this.folderCount++;
        const path = [...task.folders, { key: o.Key, name: entry.name }];
        // Child folders' own folders first, so the walk goes down as well as across.
        this.queue.unshift(...listable.map((k) => ({ kind: k, folders: path, page: 0 })));
      }
    }
    if (added.length) for (const l of this.listeners) l(added);
  }

  private emitProgress(): void {
    const p = this.progress;
    for (const l of this.progressListeners) l(p);
  }
}

/** A kind the service will not list here (no permission, not offered): skipped, not fatal. */
function isRefusal(e: unknown): boolean {
  const status = (e as { status?: unknown } | null)?.status;
  return status === 403 || status === 404 || status === 405;
}
