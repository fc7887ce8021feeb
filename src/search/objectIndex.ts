/**
 * A connection's objects by name, gathered in the background: the folders are
 * walked from the root and every listable kind is paged, a few requests at a
 * time. Listeners see each page's objects as they arrive, so a search shows
 * matches long before the walk ends. Stopping keeps what was fetched and the
 * work still to do: the next walk resumes there, and a finished walk is reused
 * for `freshMs` (nothing is fetched twice within that time).
 */
import type { Page } from '../api/client';
import { Kind, kind as kindOf, objectKinds, supports } from '../model/kinds';
import type { BaseInfo } from '../model/types';

/** What the index needs from a connection. */
export interface IndexSource {
  /** The root folder (the instance): its key and name. */
  root(): Promise<FolderStep>;
  list(kind: Kind, folderKey: string, page: number, pageSize: number, signal?: AbortSignal): Promise<Page<BaseInfo>>;
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
}

const listable = [kindOf('folder'), ...objectKinds.filter((k) => supports(k, 'list'))];

export class ObjectIndex {
  private readonly byKey = new Map<string, IndexEntry>();
  private queue: Task[] = [];
  private seeded = false;
  private folderCount = 0;
  private refused = 0;
  private completedAt?: number;
  private running?: { promise: Promise<void>; controller: AbortController };
  private readonly listeners = new Set<(added: readonly IndexEntry[]) => void>();
  private readonly progressListeners = new Set<(p: IndexProgress) => void>();
  private readonly pageSize: number;
  private readonly concurrency: number;
  private readonly freshMs: number;
  private readonly now: () => number;

  constructor(private readonly source: IndexSource, options: IndexOptions = {}) {
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
    return { objects: this.byKey.size, folders: this.folderCount, pending: this.queue.length, done: this.completedAt !== undefined, refused: this.refused };
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
   * A walk finished less than `freshMs` ago is not repeated.
   */
  ensure(): Promise<void> {
    if (this.running) return this.running.promise;
    if (this.completedAt !== undefined) {
      if (this.now() - this.completedAt < this.freshMs) return Promise.resolve();
      this.reset();
    }
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

  /** One kind in one folder changed (save, create, delete): list it again on the next walk. */
  invalidate(folderKey: string, kindId: string): void {
    if (!this.seeded) return;
    let folders: readonly FolderStep[] | undefined;
    for (const [key, e] of this.byKey) {
      if (e.kind.id === 'folder' && e.key === folderKey) folders = [...e.folders, { key: e.key, name: e.name }];
      if (e.folderKey === folderKey && e.kind.id === kindId) this.byKey.delete(key);
    }
    const root = this.rootStep;
    folders ??= root && root.key === folderKey ? [root] : undefined;
    if (!folders) return;
    const k = listable.find((l) => l.id === kindId);
    if (k) this.queue.push({ kind: k, folders, page: 0 });
    this.completedAt = undefined;
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
      this.completedAt = this.now();
      this.emitProgress();
    }
  }

  private async run(task: Task, signal: AbortSignal): Promise<void> {
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
