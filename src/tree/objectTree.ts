/** The Objects view: connections > folders > kind groups > objects. */
import * as vscode from 'vscode';
import type { ConnectionManager } from '../connection/connectionManager';
import type { ObjectAddress } from '../fs/objectUri';
import { collectionId, TreeContext } from './nodes/context';
import { ConnectionNode } from './nodes/connectionNode';
import { TreeNode } from './nodes/node';

export class ObjectTree implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly ctx: TreeContext;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly connections: ConnectionManager) {
    this.ctx = { connections, changed: (node) => this.emitter.fire(node), collections: new Map() };
    this.subscription = connections.onDidChange(() => this.refresh());
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.getTreeItem();
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (node) return node.getChildren ? node.getChildren() : [];
    const active = this.connections.active?.id;
    return this.connections.all().map((c) => new ConnectionNode(this.ctx, c, c.id === active));
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  /** Reloads a node's children (pages loaded so far are dropped), or everything. */
  refresh(node?: TreeNode): void {
    if (!node) {
      this.ctx.collections.clear();
      this.emitter.fire(undefined);
      return;
    }
    (node as { refresh?: () => void }).refresh?.();
    this.emitter.fire(node);
  }

  /** After a create, update or delete: reload that kind's group in that folder. */
  objectChanged(address: ObjectAddress): void {
    const group = this.ctx.collections.get(collectionId(address.connectionId, address.folderKey, address.kind.id));
    if (group) this.refresh(group);
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
