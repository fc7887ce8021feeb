/** What nodes need from the tree around them. */
import type { ConnectionManager } from '../../connection/connectionManager';
import type { TreeNode } from './node';
import { wholeNumberSetting } from '../../settings';

export interface TreeContext {
  connections: ConnectionManager;
  /** Redraws a node's children (or the whole tree). */
  changed(node?: TreeNode): void;
  /** Collection nodes by `connection|folder|kind`, so a save can update the right one. */
  collections: Map<string, { refresh(): void; update(key?: string): Promise<void> } & TreeNode>;
}

export const collectionId = (connectionId: string, folderKey: string, kindId: string) => `${connectionId}|${folderKey}|${kindId}`;

export function pageSize(): number {
  return wholeNumberSetting('pageSize');
}
