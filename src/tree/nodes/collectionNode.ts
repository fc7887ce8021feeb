/** One kind's objects in one folder, paged. */
import * as vscode from 'vscode';
import type { Kind } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import { Pager } from '../pager';
import { collectionId, TreeContext, pageSize } from './context';
import { errorNode } from './errorNode';
import { LoadMoreNode, Paged } from './loadMoreNode';
import { MessageNode } from './messageNode';
import { contextValue, TreeNode } from './node';
import { ObjectNode } from './objectNode';

export class CollectionNode implements Paged {
  readonly id: string;
  private pager: Pager<BaseInfo>;

  constructor(readonly parent: TreeNode, private readonly ctx: TreeContext, readonly kind: Kind, readonly connectionId: string, readonly folderKey: string) {
    this.id = `${parent.id}/${kind.collection}`;
    this.pager = this.newPager();
    ctx.collections.set(collectionId(connectionId, folderKey, kind.id), this);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.kind.pluralLabel, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.kind.icon);
    if (this.pager.started) item.description = `${this.pager.items.length}${this.pager.hasMore ? '+' : ''}`;
    item.contextValue = contextValue('oms-collection', `kind-${this.kind.id}`, ...this.kind.operations, ...this.kind.actions);
    return item;
  }

  async getChildren(): Promise<TreeNode[]> {
    try {
      if (!this.pager.started) await this.pager.loadMore();
    } catch (e) {
      this.pager = this.newPager();
      return [errorNode(this, e, this.connectionId)];
    }
    const nodes: TreeNode[] = this.pager.items.map((o) => new ObjectNode(this, this.kind, this.connectionId, this.folderKey, o));
    if (this.pager.hasMore) nodes.push(new LoadMoreNode(this, this.pager.items.length));
    if (!nodes.length) nodes.push(new MessageNode(this, `${this.id}/empty`, `No ${this.kind.pluralLabel.toLowerCase()}`, { icon: 'info' }));
    return nodes;
  }

  async loadMore(): Promise<void> {
    await this.pager.loadMore();
    this.ctx.changed(this);
  }

  async loadAll(): Promise<void> {
    await this.pager.loadAll();
    this.ctx.changed(this);
  }

  refresh(): void {
    this.pager = this.newPager();
  }

  private newPager(): Pager<BaseInfo> {
    return new Pager((page) => {
      const connection = this.ctx.connections.get(this.connectionId);
      if (!connection) throw new Error('The connection was removed');
      return connection.client.list(this.kind, this.folderKey, page, pageSize());
    });
  }
}
