/** What every tree node is: an item, optional children, and its parent for reveal/refresh. */
import * as vscode from 'vscode';

export interface TreeNode {
  readonly parent?: TreeNode;
  /** Stable id so expansion state survives refreshes. */
  readonly id: string;
  getTreeItem(): vscode.TreeItem;
  getChildren?(): Promise<TreeNode[]>;
}

/** Context value words: `viewItem =~ /\bdelete\b/` in package.json menus. */
export function contextValue(...words: Array<string | false | undefined>): string {
  return words.filter(Boolean).join(' ');
}
