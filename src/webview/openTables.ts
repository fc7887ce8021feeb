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
  /** The scanner is gone from the server (a live read's 404): the table says so, once, and offers what fits. */
  deleted(): void;
  /** Brings the table to the front. */
  reveal(): void;
}

export const openTables = new Map<string, FollowingTable>();
