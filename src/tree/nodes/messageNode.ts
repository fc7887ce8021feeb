/** A leaf that says something: an error with a retry, "sign in", or "nothing here". */
import vscode = require('vscode');
import { spoken, TreeNode } from './node';

export class MessageNode implements TreeNode {
  constructor(
    readonly parent: TreeNode | undefined,
    readonly id: string,
    private readonly label: string,
    private readonly options: { icon?: string; tooltip?: string; command?: vscode.Command; contextValue?: string; spoken?: string } = {},
  ) {}

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = this.options.icon ? new vscode.ThemeIcon(this.options.icon) : undefined;
    item.tooltip = this.options.tooltip;
    item.command = this.options.command;
    item.accessibilityInformation = spoken(this.options.spoken ?? this.label);
    item.contextValue = this.options.contextValue ?? 'oms-message';
    return item;
  }
}
