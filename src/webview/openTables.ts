/**
 * The open priorities tables, by `connection|scanner key`: shared with live updates, which reads their
 * scanners again without loading the table's code at activation.
 */
import type { ObjectAddress } from '../fs/objectUri';
import type { InputScannerInfo } from '../model/types';

export interface FollowingTable {
  readonly address: ObjectAddress;
  /** The scanner as the server holds it now: shown, or (with unsaved edits) said once. */
  follow(object: InputScannerInfo): void;
  /** Brings the table to the front. */
  reveal(): void;
}

/** The tables by `connection|scanner key`; `onDidChange` hears a table opened or closed (live updates read what is open). */
class OpenTables extends Map<string, FollowingTable> {
  private readonly listeners = new Set<() => void>();

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  override set(id: string, table: FollowingTable): this {
    super.set(id, table);
    this.listeners?.forEach((l) => l());
    return this;
  }

  override delete(id: string): boolean {
    const had = super.delete(id);
    if (had) this.listeners.forEach((l) => l());
    return had;
  }
}

export const openTables = new OpenTables();
