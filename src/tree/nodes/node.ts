/** What every tree node is: an item, optional children, and its parent for reveal/refresh. */
import vscode = require('vscode');

export interface TreeNode {
  readonly parent?: TreeNode;
  /** Stable id so expansion state survives refreshes. */
  readonly id: string;
  getTreeItem(): vscode.TreeItem;
  getChildren?(): Promise<TreeNode[]>;
}

/**
 * What a screen reader says for an item: its kind and name first, then its state
 * (the parts that are set), as one sentence the tree's row announces.
 */
export function spoken(...parts: Array<string | false | undefined>): vscode.AccessibilityInformation {
  return { label: parts.filter(Boolean).join(', '), role: 'treeitem' };
}

/** Context value words: `viewItem =~ /\bdelete\b/` in package.json menus. */
export function contextValue(...words: Array<string | false | undefined>): string {
  return words.filter(Boolean).join(' ');
}
