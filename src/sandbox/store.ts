/**
 * The sandbox's objects: the instance, folders and every kind's objects, kept
 * in creation order, plus the outbox of invites and push notifications.
 * Mutations are synchronous (so a check-and-set cannot interleave with another
 * request); `persist()` then resolves once the change is durably on disk.
 */
import type { KindId } from '../model/kinds';
import type { BaseInfo } from '../model/types';
import { readJsonFile, writeFileDurably, WriteQueue } from './persistence';

/** The root instance is stored like a folder, under its own kind. */
export type StoredKind = KindId | 'instance';

export interface OutboxEntry {
  kind: 'invite' | 'push';
  /** ISO time the request was received. */
  at: string;
  folderKey: string;
  objectKey?: string;
  body: unknown;
}

interface Entry {
  kind: StoredKind;
  object: BaseInfo;
}

interface DataFile {
  format: 'oms-sandbox';
  version: 1;
  instanceKey: string;
  objects: Array<{ kind: StoredKind; object: BaseInfo }>;
  outbox: OutboxEntry[];
}

export class Store {
  private readonly byKey = new Map<string, Entry>();
  /** `${folderKey}/${kind}` -> keys in creation order. */
  private readonly members = new Map<string, Set<string>>();
  readonly outbox: OutboxEntry[] = [];
  private queue: WriteQueue | undefined;

  constructor(readonly instanceKey: string) {}

  /** A store backed by `file`: loaded when it exists, else seeded by `seed` and written. */
  static async open(file: string | undefined, seed: () => Store): Promise<Store> {
    if (!file) return seed();
    const data = await readJsonFile(file);
    const store = data === undefined ? seed() : Store.fromData(data, file);
    store.queue = new WriteQueue(() => store.serialize(), (text) => writeFileDurably(file, text));
    if (data === undefined) await store.persist();
    return store;
  }

  private static fromData(data: unknown, file: string): Store {
    const d = data as Partial<DataFile> | null;
    if (!d || d.format !== 'oms-sandbox' || typeof d.instanceKey !== 'string' || !Array.isArray(d.objects)) {
      throw new Error(`${file} is not an OMS sandbox data file (expected "format": "oms-sandbox")`);
    }
    const store = new Store(d.instanceKey);
    for (const { kind, object } of d.objects) store.insert(kind, object);
    if (!store.byKey.has(d.instanceKey)) throw new Error(`${file} has no instance object ${d.instanceKey}`);
    if (Array.isArray(d.outbox)) store.outbox.push(...d.outbox);
    return store;
  }

  serialize(): string {
    const data: DataFile = {
      format: 'oms-sandbox',
      version: 1,
      instanceKey: this.instanceKey,
      objects: [...this.byKey.values()].map(({ kind, object }) => ({ kind, object })),
      outbox: this.outbox,
    };
    return JSON.stringify(data);
  }

  /** Resolves once every change made so far is on disk (at once without a data file). */
  persist(): Promise<void> {
    return this.queue ? this.queue.request() : Promise.resolve();
  }

  /** Resolves when no write is pending. */
  async flushed(): Promise<void> {
    await this.queue?.idle();
  }

  get instance(): BaseInfo {
    return this.byKey.get(this.instanceKey)!.object;
  }

  /** The instance or a folder with this key. */
  container(key: string): BaseInfo | undefined {
    const e = this.byKey.get(key);
    return e && (e.kind === 'instance' || e.kind === 'folder') ? e.object : undefined;
  }

  list(folderKey: string, kind: KindId): BaseInfo[] {
    const keys = this.members.get(`${folderKey}/${kind}`);
    return keys ? [...keys].map((k) => this.byKey.get(k)!.object) : [];
  }

  count(folderKey: string, kind: KindId): number {
    return this.members.get(`${folderKey}/${kind}`)?.size ?? 0;
  }

  /** The object of `kind` with `key` in folder `folderKey`. */
  get(folderKey: string, kind: KindId, key: string): BaseInfo | undefined {
    const e = this.byKey.get(key);
    return e && e.kind === kind && e.object.InFolderKey === folderKey ? e.object : undefined;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** Adds a placed object (Key and InFolderKey set). */
  insert(kind: StoredKind, object: BaseInfo): void {
    const key = object.Key;
    if (!key || this.byKey.has(key)) throw new Error(`Cannot insert object with key ${key}`);
    this.byKey.set(key, { kind, object });
    if (kind !== 'instance') {
      const group = `${object.InFolderKey}/${kind}`;
      let set = this.members.get(group);
      if (!set) this.members.set(group, (set = new Set()));
      set.add(key);
    }
  }

  /** Replaces a stored object in place (its position in listings is kept). */
  replace(key: string, object: BaseInfo): void {
    const e = this.byKey.get(key);
    if (!e) throw new Error(`No object ${key}`);
    e.object = object;
  }

  remove(key: string): void {
    const e = this.byKey.get(key);
    if (!e) return;
    this.byKey.delete(key);
    this.members.get(`${e.object.InFolderKey}/${e.kind}`)?.delete(key);
  }
}
