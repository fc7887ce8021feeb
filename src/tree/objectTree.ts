/** The Objects view: connections > folders > kind groups > objects. */
import vscode = require('vscode');
import type { ConnectionManager } from '../connection/connectionManager';
import { parseObjectUri, type ObjectAddress } from '../fs/objectUri';
import { collectionId, TreeContext } from './nodes/context';
import { CollectionNode } from './nodes/collectionNode';
import { ConnectionNode } from './nodes/connectionNode';
import { FolderNode } from './nodes/folderNode';
import { TreeNode } from './nodes/node';

/** Where an object sits: the folder keys from the root down (none for the root itself), its kind and key. */
export interface TreePlace {
  connectionId: string;
  folderKeys: readonly string[];
  kindId: string;
  key: string;
}

export class ObjectTree implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly ctx: TreeContext;
  /** The connection nodes VS Code holds now: reveal walks down from them. */
  private roots: ConnectionNode[] = [];
  private readonly subscription: vscode.Disposable;
  /** Object documents with unsaved edits: their tree items say so to screen readers. */
  private readonly dirty = new Set<string>();
  private readonly dirtyWatch: vscode.Disposable;
  /** The view showing this tree (set by the composition root), for reveal. */
  view?: vscode.TreeView<TreeNode>;

  constructor(private readonly connections: ConnectionManager) {
    this.ctx = { connections, changed: (node) => this.emitter.fire(node), collections: new Map() };
    this.subscription = connections.onDidChange(() => this.refresh());
    const dirtyChanged = (uri: vscode.Uri, isDirty: boolean) => {
      const address = parseObjectUri(uri);
      const key = uri.toString();
      if (!address || isDirty === this.dirty.has(key)) return;
      if (isDirty) this.dirty.add(key);
      else this.dirty.delete(key);
      this.notesChanged(address); // redraws the object's group, which holds its state
    };
    this.dirtyWatch = vscode.Disposable.from(
      vscode.workspace.onDidChangeTextDocument((e) => dirtyChanged(e.document.uri, e.document.isDirty)),
      vscode.workspace.onDidCloseTextDocument((doc) => dirtyChanged(doc.uri, false)),
    );
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.getTreeItem();
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (node) return node.getChildren ? node.getChildren() : [];
    const active = this.connections.active?.id;
    this.roots = this.connections.all().map((c) => new ConnectionNode(this.ctx, c, c.id === active));
    return this.roots;
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
    // One redraw, once the node has read what it shows (a group its first page): its row is right when drawn.
    void Promise.resolve((node as { refresh?: () => unknown }).refresh?.()).then(() => this.emitter.fire(node));
  }

  /** After a create, update or delete (no key: a batch): that kind's group in that folder, as much as was loaded. */
  objectChanged(address: ObjectAddress): void {
    void this.ctx.collections.get(collectionId(address.connectionId, address.folderKey, address.kind.id))?.update(address.key || undefined);
  }

  /** After a note was added or deleted: reload that object's notes if the tree shows it. */
  notesChanged(address: ObjectAddress): void {
    // The group is the node VS Code holds (object nodes are made anew on each load): redrawing it reloads the open notes.
    const group = this.ctx.collections.get(collectionId(address.connectionId, address.folderKey, address.kind.id));
    if (group instanceof CollectionNode && group.loaded(address.key)) this.emitter.fire(group);
  }

  /** The groups of a connection the tree has loaded (expanded at some time; the caller knows which are collapsed). */
  loadedGroups(connectionId: string): CollectionNode[] {
    return [...this.ctx.collections.values()].filter(
      (g): g is CollectionNode => g instanceof CollectionNode && g.connectionId === connectionId && !!g.shownPages,
    );
  }

  /**
   * Shows an object (or folder) in the tree: expands the folders on its way,
   * loads its group's pages until it is there, selects and focuses it.
   */
  async reveal(place: TreePlace): Promise<TreeNode | undefined> {
    const node = await this.find(place);
    if (node && this.view) await this.view.reveal(node, { select: true, focus: true, expand: place.kindId === 'folder' ? true : undefined });
    return node;
  }

  private async find(place: TreePlace): Promise<TreeNode | undefined> {
    const roots = this.roots.length ? this.roots : ((await this.getChildren()) as ConnectionNode[]);
    const connection = roots.find((r) => r.connection.id === place.connectionId);
    let folder = (await connection?.getChildren())?.find((n): n is FolderNode => n instanceof FolderNode);
    if (place.kindId === 'folder' && !place.folderKeys.length) return folder?.folderKey === place.key ? folder : undefined;
    if (!folder || folder.folderKey !== place.folderKeys[0]) return undefined;
    for (const key of place.folderKeys.slice(1)) {
      folder = (await folder.getChildren()).find((n): n is FolderNode => n instanceof FolderNode && n.folderKey === key);
      if (!folder) return undefined;
    }
    const children = await folder.getChildren();
    if (place.kindId === 'folder') return children.find((n) => n instanceof FolderNode && n.folderKey === place.key);
    const group = children.find((n): n is CollectionNode => n instanceof CollectionNode && n.kind.id === place.kindId);
    return group?.find(place.key);
  }

  get connectionNodes(): readonly ConnectionNode[] {
    return this.roots;
  }

  dispose(): void {
    this.subscription.dispose();
    this.dirtyWatch.dispose();
    this.emitter.dispose();
  }
}
