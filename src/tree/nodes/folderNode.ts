/** A folder (or the root instance): its child folders, then one group per kind. */
import vscode = require('vscode');
import { kind as kindOf, objectKinds, supports } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import { collectionId, TreeContext } from './context';
import { CollectionNode } from './collectionNode';
import { errorNode } from './errorNode';
import { contextValue, spoken, TreeNode } from './node';

export class FolderNode implements TreeNode {
  readonly id: string;
  private groups?: CollectionNode[];

  constructor(
    readonly parent: TreeNode,
    private readonly ctx: TreeContext,
    readonly connectionId: string,
    readonly folder: BaseInfo,
    private readonly isRoot = false,
  ) {
    this.id = `${parent.id}/${folder.Key}`;
  }

  get folderKey(): string {
    return this.folder.Key ?? '';
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(
      this.folder.CommonName || this.folderKey,
      this.isRoot ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.isRoot ? 'root-folder' : 'folder');
    item.description = this.isRoot ? vscode.l10n.t('instance') : undefined;
    item.tooltip = `${this.folder.CommonName ?? ''}\n${vscode.l10n.t('Key: {0}', this.folderKey)}`;
    const name = this.folder.CommonName || this.folderKey;
    item.accessibilityInformation = spoken(this.isRoot ? vscode.l10n.t('Instance {0}', name) : vscode.l10n.t('Folder {0}', name));
    item.contextValue = contextValue('oms-folder', this.isRoot && 'root');
    return item;
  }

  async getChildren(): Promise<TreeNode[]> {
    const connection = this.ctx.connections.get(this.connectionId);
    if (!connection) return [];
    // The same group (and its loaded pages) whichever node of this folder asks: a reveal walks the tree too.
    const groups = (this.groups ??= objectKinds
      .filter((k) => supports(k, 'list'))
      .map(
        (k) =>
          (this.ctx.collections.get(collectionId(this.connectionId, this.folderKey, k.id)) as CollectionNode | undefined) ??
          new CollectionNode(this, this.ctx, k, this.connectionId, this.folderKey, this.folder.CommonName || this.folderKey),
      ));
    // Each group's first page with the subfolders: its row says its count when first drawn.
    const [subfolders] = await Promise.all([
      connection.client.listAll(kindOf('folder'), this.folderKey).then(
        (folders) => folders.map((f): TreeNode => new FolderNode(this, this.ctx, this.connectionId, f)),
        (e) => [errorNode(this, e, this.connectionId)],
      ),
      ...groups.map((g) => g.firstPage()),
    ]);
    return [...subfolders, ...groups];
  }

  refresh(): void {
    for (const g of this.groups ?? []) this.ctx.collections.delete(collectionId(this.connectionId, this.folderKey, g.kind.id));
    this.groups = undefined;
  }
}
