/**
 * The sandbox's objects: the instance, folders and every kind's objects, kept
 * in creation order, plus the outbox of invites and push notifications.
 * Mutations are synchronous (so a check-and-set cannot interleave with another
 * request) and, with a data file, each is queued in the journal (`journal.ts`);
 * `persist()` then resolves once it is durably on disk. A change whose line
 * cannot be written is taken back out of memory.
 */
import type { KindId } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import { Journal, JournalOptions } from './journal';
import type { Change, Snapshot, StoredEntry } from './logFormat';
import { readStoreFiles } from './recovery';
import { storedJson, withServerLinks } from './objects';
import { PageCache } from './pageCache';

/** The root instance is stored like a folder, under its own kind. */
type StoredKind = KindId | 'instance';

interface OutboxEntry {
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

export class Store {
  private readonly byKey = new Map<string, Entry>();
  /** `${folderKey}/${kind}` -> keys in creation order. */
  private readonly members = new Map<string, Set<string>>();
  private outboxEntries: OutboxEntry[] = [];
  private journal: Journal | undefined;
  /**
   * JSON text of answered objects, made once (stored objects are never changed in place); it also serves
   * the journal and the snapshot. The files' shorter form (`storedJson`) is made when written and not
   * kept: most objects are written once, and keeping it doubled their memory.
   */
  private readonly texts = new WeakMap<BaseInfo, string>();
  /** Pages as answered, made on the first GET of a page and dropped when anything in its group changes. */
  private readonly pages = new PageCache();

  constructor(readonly instanceKey: string) {}

  /** A store backed by `file`: loaded (snapshot and journal) when it exists, else seeded by `seed`; then journalled. */
  static async open(file: string | undefined, seed: () => Store, journal?: JournalOptions): Promise<Store> {
    if (!file) return seed();
    const loaded = await readStoreFiles(file);
    let store: Store;
    if (loaded) {
      store = new Store(loaded.instanceKey);
      for (const r of loaded.entries) store.load(r, file);
      for (const c of loaded.changes) store.apply(c);
      if (!store.byKey.has(store.instanceKey)) throw new Error(`${file} has no instance object ${store.instanceKey}`);
    } else {
      store = seed();
    }
    store.journal = await Journal.open(file, loaded?.seq ?? 0, () => store.snapshot(), loaded?.clean ?? false, journal);
    return store;
  }

  private load(r: StoredEntry, file: string): void {
    if ('outbox' in r) this.outboxEntries.push(r.outbox as OutboxEntry);
    else if (r && typeof r.kind === 'string' && r.object && typeof r.object === 'object')
      this.insert(r.kind as StoredKind, this.loaded(r.kind, r.object as BaseInfo));
    else throw new Error(`${file} holds a record that is not a stored object`);
  }

  /** An object read from the files, with what was left out of it put back. */
  private loaded(kind: string, object: BaseInfo): BaseInfo {
    return withServerLinks(object, kind === 'folder' || kind === 'instance', this.instanceKey);
  }

  private apply(c: Change): void {
    if (c.op === 'put') {
      const object = this.loaded(c.kind, c.object as BaseInfo);
      if (this.byKey.has(object.Key as string)) this.replace(object.Key as string, object);
      else this.insert(c.kind as StoredKind, object);
    } else if (c.op === 'delete') this.remove(c.key);
    else if (c.op === 'outbox') this.addToOutbox(c.entry as OutboxEntry);
    else this.clearOutbox();
  }

  /** The state as it is now (references taken at once; stored objects are never changed in place). */
  private snapshot(): Snapshot {
    const entries = [...this.byKey.values()].map(({ kind, object }) => ({ kind, object }));
    const outbox = [...this.outboxEntries];
    const text = (object: BaseInfo) => this.stored(object);
    return {
      instanceKey: this.instanceKey,
      // An answered object by the text it was answered with; the others in their stored form.
      *entries() {
        for (const { kind, object } of entries) yield `{"kind":${JSON.stringify(kind)},"object":${text(object)}}`;
        for (const entry of outbox) yield JSON.stringify({ outbox: entry } satisfies StoredEntry);
      },
    };
  }

  /** Resolves once every change made so far is on disk (at once without a data file); rejects if its write failed. */
  persist(): Promise<void> {
    return this.journal ? this.journal.durable() : Promise.resolve();
  }

  /** Finishes pending writes and closes the journal. */
  async close(): Promise<void> {
    await this.journal?.close();
  }

  get outbox(): readonly OutboxEntry[] {
    return this.outboxEntries;
  }

  addToOutbox(entry: OutboxEntry): void {
    this.journal?.append({ op: 'outbox', entry }, () => {
      this.outboxEntries = this.outboxEntries.filter((e) => e !== entry);
    });
    this.outboxEntries.push(entry);
  }

  clearOutbox(): void {
    const before = this.outboxEntries;
    this.journal?.append({ op: 'clearOutbox' }, () => {
      if (this.outboxEntries.length === 0) this.outboxEntries = before;
    });
    this.outboxEntries = [];
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

  /** The JSON text of a stored object, as answered. */
  text(object: BaseInfo): string {
    let answer = this.texts.get(object);
    if (answer === undefined) this.texts.set(object, (answer = JSON.stringify(object)));
    return answer;
  }

  /** The object's text for the journal and the snapshot: its answer when one was made (it loads the same), else its stored form. */
  private stored(object: BaseInfo): string {
    return this.texts.get(object) ?? storedJson(object);
  }

  /** The journal line of storing `object`. */
  private put(kind: StoredKind, object: BaseInfo): string {
    return `{"op":"put","kind":${JSON.stringify(kind)},"object":${this.stored(object)}}`;
  }

  /** The JSON array of `page(...)` as bytes, from the cache when nothing in the group changed since. */
  pageBytes(folderKey: string, kind: KindId, from: number, size: number): Buffer {
    return this.pages.bytes(`${folderKey}/${kind}`, `${from}/${size}`, () => this.pageMade(folderKey, kind, from, size));
  }

  /** A digest of `pageBytes(...)`, known without building the page again while nothing in the group changed. */
  pageDigest(folderKey: string, kind: KindId, from: number, size: number): string {
    return this.pages.digest(`${folderKey}/${kind}`, `${from}/${size}`, () => this.pageMade(folderKey, kind, from, size));
  }

  private pageMade(folderKey: string, kind: KindId, from: number, size: number): Buffer {
    return Buffer.from(
      `[${this.page(folderKey, kind, from, size)
        .map((o) => this.text(o))
        .join(',')}]`,
    );
  }

  /** `size` objects from position `from` of `list()`, without copying the rest. */
  page(folderKey: string, kind: KindId, from: number, size: number): BaseInfo[] {
    const out: BaseInfo[] = [];
    const keys = this.members.get(`${folderKey}/${kind}`);
    if (!keys || from >= keys.size) return out;
    let i = 0;
    for (const key of keys) {
      if (i++ < from) continue;
      out.push(this.byKey.get(key)!.object);
      if (out.length === size) break;
    }
    return out;
  }

  /** The object of `kind` with `key` in folder `folderKey`. */
  get(folderKey: string, kind: KindId, key: string): BaseInfo | undefined {
    const e = this.byKey.get(key);
    return e && e.kind === kind && e.object.InFolderKey === folderKey ? e.object : undefined;
  }

  /** Adds a placed object (Key and InFolderKey set). */
  insert(kind: StoredKind, object: BaseInfo): void {
    const key = object.Key;
    if (!key || this.byKey.has(key)) throw new Error(`Cannot insert object with key ${key}`);
    this.journal?.append(this.put(kind, object), () => {
      if (this.byKey.get(key)?.object === object) this.unlink(key);
    });
    this.link(key, { kind, object });
  }

  /** Replaces a stored object in place (its position in listings is kept). */
  replace(key: string, object: BaseInfo): void {
    const e = this.byKey.get(key);
    if (!e) throw new Error(`No object ${key}`);
    const before = e.object;
    this.journal?.append(this.put(e.kind, object), () => {
      if (e.object === object) {
        e.object = before;
        this.pages.drop(`${before.InFolderKey}/${e.kind}`);
      }
    });
    e.object = object;
    this.pages.drop(`${before.InFolderKey}/${e.kind}`);
  }

  remove(key: string): void {
    const e = this.byKey.get(key);
    if (!e) return;
    this.journal?.append({ op: 'delete', key }, () => {
      if (!this.byKey.has(key)) this.link(key, e);
    });
    this.unlink(key);
  }

  private link(key: string, e: Entry): void {
    this.byKey.set(key, e);
    if (e.kind === 'instance') return;
    const group = `${e.object.InFolderKey}/${e.kind}`;
    this.pages.drop(group);
    let set = this.members.get(group);
    if (!set) this.members.set(group, (set = new Set()));
    set.add(key);
  }

  private unlink(key: string): void {
    const e = this.byKey.get(key);
    if (!e) return;
    this.byKey.delete(key);
    this.members.get(`${e.object.InFolderKey}/${e.kind}`)?.delete(key);
    this.pages.drop(`${e.object.InFolderKey}/${e.kind}`);
  }
}
