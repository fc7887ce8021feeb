/**
 * Save history: each save records, on this machine only, the version it
 * replaced, so that a save can be undone (Show Save History, Restore). One
 * JSON file per connection in the extension's global storage, readable by its
 * owner only (0600). Bounded: the newest `maxEntries` per connection, each at
 * most `maxEntryBytes`. Objects hold no token; nothing else is stored.
 */
import { join } from 'node:path';
import type { BaseInfo } from '../model/types';
import { readPrivateFile, writePrivateFile } from '../util/privateFile';

export interface HistoryEntry {
  /** When the save that replaced this version happened (ISO time). */
  savedAt: string;
  kind: string;
  folderKey: string;
  key: string;
  /** The object as the server held it before the save. */
  object: BaseInfo;
}

/** @internal Exported for its unit test. */
export const maxEntries = 200;
/** @internal Exported for its unit test. */
export const maxEntryBytes = 256 * 1024;

export class SaveHistory {
  /** One write at a time per file, so concurrent saves never lose an entry. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly dir: string) {}

  async record(connectionId: string, entry: HistoryEntry): Promise<void> {
    if (Buffer.byteLength(JSON.stringify(entry.object)) > maxEntryBytes) return;
    await this.serial(async () => {
      const entries = [entry, ...(await this.read(connectionId))].slice(0, maxEntries);
      // Never through a symbolic link; a private folder, an exclusive temp file, then a rename.
      await writePrivateFile(this.file(connectionId), JSON.stringify(entries));
    });
  }

  /** Entries of one object, newest first. */
  async list(connectionId: string, key: string): Promise<HistoryEntry[]> {
    return (await this.read(connectionId)).filter((e) => e.key === key);
  }

  private async read(connectionId: string): Promise<HistoryEntry[]> {
    try {
      const parsed: unknown = JSON.parse(await readPrivateFile(this.file(connectionId)));
      return Array.isArray(parsed) ? (parsed as HistoryEntry[]) : [];
    } catch {
      return []; // no history yet, or a damaged file: start again rather than fail a save
    }
  }

  private file(connectionId: string): string {
    return join(this.dir, `save-history-${connectionId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
