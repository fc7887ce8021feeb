/**
 * One object index per connection, the objects opened recently, and the
 * adapter from a client to the index's source. Plain TypeScript: the
 * extension passes a lookup from connection id to client.
 */
import type { BaseInfo } from '../model/types';
import type { OmsClient } from '../api/client';
import { ApiError } from '../api/errors';
import { IndexOptions, IndexSource, ObjectIndex } from './objectIndex';
import { recentWith } from './match';
import { l10n } from '../l10n';

/** What the indexes need of a connection. */
export interface Indexable {
  client: OmsClient;
  rootFolderKey(): Promise<string>;
}

/** The index's source over a connection (also what Bulk Edit walks afresh, its unit test and the search benchmark). */
export function sourceOf(c: Indexable): IndexSource {
  return {
    async root() {
      const key = await c.rootFolderKey();
      // A service may not serve the root folder itself; its key is enough to walk.
      const folder = await c.client.folder(key).catch((e: unknown) => {
        if (e instanceof ApiError && e.kind !== 'network' && e.kind !== 'timeout') return undefined;
        throw e;
      });
      return { key, name: folder?.CommonName || l10n.t('Root folder') };
    },
    list: (kind, folderKey, page, pageSize, signal) => c.client.list(kind, folderKey, page, pageSize, signal),
    get: (kind, folderKey, key) => c.client.get(kind, folderKey, key),
  };
}

export class Indexes {
  private readonly indexes = new Map<string, { index: ObjectIndex; of: Indexable }>();
  private readonly recent = new Map<string, string[]>();

  constructor(
    private readonly lookup: (connectionId: string) => Indexable | undefined,
    private readonly options: IndexOptions = {},
  ) {}

  /** The index of a connection (a new one when the connection was replaced). */
  of(connectionId: string): ObjectIndex {
    const connection = this.lookup(connectionId);
    if (!connection) throw new Error(l10n.t('No connection "{0}"', connectionId));
    const known = this.indexes.get(connectionId);
    if (known?.of === connection) return known.index;
    known?.index.stop();
    const index = new ObjectIndex(sourceOf(connection), this.options);
    this.indexes.set(connectionId, { index, of: connection });
    return index;
  }

  /** The index if one exists already (no walk is started). */
  existing(connectionId: string): ObjectIndex | undefined {
    return this.indexes.get(connectionId)?.index;
  }

  opened(connectionId: string, key: string): void {
    this.recent.set(connectionId, recentWith(this.recent.get(connectionId) ?? [], key));
  }

  recentKeys(connectionId: string): readonly string[] {
    return this.recent.get(connectionId) ?? [];
  }

  /** After a save, create, rename or delete (`key`), or a batch into a collection (no key): fetched at once. */
  changed(connectionId: string, folderKey: string, kindId: string, key?: string): void {
    void this.indexes.get(connectionId)?.index.changed(folderKey, kindId, key);
  }

  /** A group's objects as live updates read them: the index follows without a request of its own. */
  observed(connectionId: string, folderKey: string, kindId: string, objects: readonly BaseInfo[], complete: boolean): void {
    this.indexes.get(connectionId)?.index.observed(folderKey, kindId, objects, complete);
  }

  stopAll(): void {
    for (const { index } of this.indexes.values()) index.stop();
  }
}
