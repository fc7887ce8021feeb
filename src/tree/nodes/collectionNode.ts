/** One kind's objects in one folder, paged. */
import vscode = require('vscode');
import type { Kind } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import { log } from '../../log';
import { Pager } from '../pager';
import { collectionId, TreeContext, pageSize } from './context';
import { errorNode } from './errorNode';
import { LoadMoreNode, Paged } from './loadMoreNode';
import { MessageNode } from './messageNode';
import { contextValue, spoken, TreeNode } from './node';
import { ObjectNode } from './objectNode';
import { kindsLabel } from '../../l10n';

export class CollectionNode implements Paged {
  readonly id: string;
  private pager: Pager<BaseInfo>;
  /** Shows only objects whose name holds this text (pages loaded later too). */
  filter = '';
  /** A failed first page read before the row was drawn: shown (once) when the group is expanded. */
  private failure?: unknown;
  /** VS Code asked for the rows: live updates read the group again only then. */
  private expanded = false;

  constructor(
    readonly parent: TreeNode,
    private readonly ctx: TreeContext,
    readonly kind: Kind,
    readonly connectionId: string,
    readonly folderKey: string,
    /** The folder's name, for its objects' document paths. */
    private readonly folderName: string,
  ) {
    this.id = `${parent.id}/${kind.collection}`;
    this.pager = this.newPager();
    ctx.collections.set(collectionId(connectionId, folderKey, kind.id), this);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(kindsLabel(this.kind), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.kind.icon);
    const loaded = `${this.pager.items.length}${this.pager.hasMore ? '+' : ''}`;
    if (this.filter)
      item.description = `“${this.filter}”: ${this.pager.started ? vscode.l10n.t('{0} of {1}', this.shown().length, loaded) : vscode.l10n.t('filtered')}`;
    else if (this.pager.started) item.description = loaded;
    // Before its first page a group knows nothing of what it holds: no count, and no "more to load".
    item.accessibilityInformation = spoken(
      vscode.l10n.t('Group {0}', kindsLabel(this.kind)),
      this.pager.started && (this.pager.items.length || this.pager.hasMore ? vscode.l10n.t('{0} loaded', this.pager.items.length) : vscode.l10n.t('empty')),
      this.pager.started && this.pager.hasMore && vscode.l10n.t('more to load'),
      this.filter && vscode.l10n.t('filtered by “{0}”: {1} shown', this.filter, this.shown().length),
    );
    item.contextValue = contextValue('oms-collection', `kind-${this.kind.id}`, this.filter && 'filtered', ...this.kind.operations, ...this.kind.actions);
    return item;
  }

  /**
   * Reads the first page before the row is drawn (its folder expanded, Refresh), so the row says its count from
   * the start. A redraw of the group after its rows are shown makes VS Code forget their handles until it has
   * listed them again: a right-click in that moment acted on the group instead of the row.
   */
  async firstPage(): Promise<void> {
    const pager = this.pager;
    try {
      if (!pager.started) await pager.loadMore();
    } catch (e) {
      if (this.pager === pager) this.failure = e;
    }
  }

  async getChildren(): Promise<TreeNode[]> {
    this.expanded = true;
    const failed = (e: unknown) => {
      this.failure = undefined;
      this.pager = this.newPager();
      return [errorNode(this, e, this.connectionId)];
    };
    if (this.failure) return failed(this.failure);
    try {
      if (!this.pager.started) await this.pager.loadMore();
    } catch (e) {
      return failed(e);
    }
    // The same node for the same object: a redraw of the group (its count after loading) keeps the rows and any menu open on one.
    const nodes: TreeNode[] = this.shown().map((o) => this.nodeOf(o));
    if (this.pager.hasMore) nodes.push(new LoadMoreNode(this, this.pager.items.length));
    if (!nodes.length) {
      const none = this.filter
        ? vscode.l10n.t('No {0} named like “{1}”', kindsLabel(this.kind).toLocaleLowerCase(), this.filter)
        : vscode.l10n.t('No {0}', kindsLabel(this.kind).toLocaleLowerCase());
      nodes.push(new MessageNode(this, `${this.id}/empty`, none, { icon: 'info' }));
    }
    return nodes;
  }

  /** Loaded objects that pass the filter. */
  private shown(): BaseInfo[] {
    const words = this.filter.toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length) return this.pager.items;
    return this.pager.items.filter((o) => words.every((w) => (o.CommonName ?? o.Key ?? '').toLowerCase().includes(w)));
  }

  setFilter(text: string): void {
    this.filter = text.trim();
    this.ctx.changed(this);
  }

  /** The node of an object among the pages loaded so far. */
  loaded(key: string): ObjectNode | undefined {
    const object = this.pager.items.find((o) => o.Key === key);
    return object && new ObjectNode(this, this.kind, this.connectionId, this.folderKey, object, this.folderName, this.ctx);
  }

  /** The node of one object, loading pages until it shows up (for reveal). */
  async find(key: string): Promise<ObjectNode | undefined> {
    for (;;) {
      const node = this.loaded(key);
      if (node) {
        if (this.filter && !this.shown().includes(node.object)) this.setFilter('');
        return node;
      }
      if (this.pager.started && !this.pager.hasMore) return undefined;
      await this.pager.loadMore();
      this.ctx.changed(this);
    }
  }

  async loadMore(): Promise<void> {
    await this.pager.loadMore();
    this.ctx.changed(this);
  }

  async loadAll(): Promise<void> {
    await this.pager.loadAll();
    this.ctx.changed(this);
  }

  private nodes = new WeakMap<BaseInfo, ObjectNode>();

  private nodeOf(o: BaseInfo): ObjectNode {
    let node = this.nodes.get(o);
    if (!node) this.nodes.set(o, (node = new ObjectNode(this, this.kind, this.connectionId, this.folderKey, o, this.folderName, this.ctx)));
    return node;
  }

  /** The pages shown, for live updates to read again; undefined before the group was expanded. */
  get shownPages(): { pages: number; pageSize: number; all: boolean } | undefined {
    const p = this.pager;
    return p.started && this.expanded ? { pages: p.pages, pageSize: p.pageSize, all: !p.hasMore } : undefined;
  }

  /**
   * The pages shown, as the server holds them now (live updates): new, removed and renamed objects
   * show; expansion, selection, the filter and Load all stay (node ids are the objects' keys).
   */
  followServer(items: BaseInfo[], complete: boolean, pages: number): void {
    const shown = this.pager.items;
    const same =
      complete === !this.pager.hasMore &&
      items.length === shown.length &&
      items.every((o, i) => o.Key === shown[i].Key && o.ConcurrencyVersion === shown[i].ConcurrencyVersion && o.CommonName === shown[i].CommonName);
    if (!same && this.pager.follow(items, complete, pages)) this.ctx.changed(this);
  }

  /** The Refresh command: from the first page again, read before the row is redrawn. */
  refresh(): Promise<void> {
    this.pager = this.newPager();
    this.failure = undefined;
    return this.firstPage();
  }

  /**
   * After a save, create or delete: what was loaded stays loaded (a Load all of thousands is not lost to
   * a quick edit). An object already shown is read again by its key; anything else lists the loaded
   * pages again (a new or deleted object moves the pages after it).
   */
  async update(key?: string): Promise<void> {
    try {
      const at = key ? this.pager.items.findIndex((o) => o.Key === key) : -1;
      const client = this.ctx.connections.get(this.connectionId)?.client;
      const object = at >= 0 && client ? await client.get(this.kind, this.folderKey, key!).catch(() => undefined) : undefined;
      if (object && this.pager.items[at]?.Key === key) this.pager.items[at] = object;
      else await this.pager.reload();
    } catch (e) {
      log().warn(`${this.kind.pluralLabel} not listed again: ${(e as Error).message}`);
      this.pager = this.newPager(); // the next expand shows the failure
    }
    this.ctx.changed(this);
  }

  private newPager(): Pager<BaseInfo> {
    let size: number;
    try {
      size = pageSize();
    } catch (e) {
      // A setting out of range fails the group's first load: the tree shows it as the group's error item.
      return new Pager(() => Promise.reject(e instanceof Error ? e : new Error(String(e))));
    }
    return new Pager((page) => this.ctx.connections.require(this.connectionId).client.list(this.kind, this.folderKey, page, size), size);
  }
}
