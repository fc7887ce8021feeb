/** "Load more" at the end of a paged list; "Load all" is its inline action. */
import vscode = require('vscode');
import { spoken, TreeNode } from './node';

export interface Paged extends TreeNode {
  loadMore(): Promise<void>;
  loadAll(): Promise<void>;
}

export class LoadMoreNode implements TreeNode {
  readonly id: string;
  constructor(
    readonly parent: Paged,
    private readonly loaded: number,
  ) {
    this.id = `${parent.id}/load-more`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(vscode.l10n.t('Load more…'), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.description = vscode.l10n.t('{0} loaded', this.loaded);
    item.iconPath = new vscode.ThemeIcon('ellipsis');
    item.command = { command: 'oms.loadMore', title: vscode.l10n.t('Load More'), arguments: [this.parent] };
    item.accessibilityInformation = spoken(vscode.l10n.t('Load more'), vscode.l10n.t('{0} loaded', this.loaded));
    item.contextValue = 'oms-loadMore';
    return item;
  }
}
