/**
 * The Objects view follows live reads: while it is visible, the pages of its expanded groups are read
 * (not those under a collapsed folder), and a read page moves its group on (new, removed and renamed
 * objects; expansion, selection and the filter stay).
 */
import vscode = require('vscode');
import type { LiveFeed } from '../live/liveFeed';
import type { WatchedGroup } from '../live/liveReads';
import type { CollectionNode } from './nodes/collectionNode';
import type { TreeNode } from './nodes/node';
import type { ObjectTree } from './objectTree';

export function followServerInTree(tree: ObjectTree, view: vscode.TreeView<TreeNode>, live: LiveFeed): vscode.Disposable {
  /** Nodes the user collapsed: groups under them are not read. */
  const collapsed = new Set<string>();
  /** Per connection, the groups handed to its last poll, each with its node. */
  const nodes = new Map<string, Map<WatchedGroup, CollectionNode>>();
  const shown = (node: TreeNode) => {
    for (let n: TreeNode | undefined = node; n; n = n.parent) if (collapsed.has(n.id)) return false;
    return true;
  };
  return vscode.Disposable.from(
    live.watch({
      visible: () => view.visible,
      watched: (connectionId) => {
        const mine = new Map(
          tree
            .loadedGroups(connectionId)
            .filter(shown)
            .map((node) => [{ kind: node.kind, folderKey: node.folderKey, ...node.shownPages! }, node]),
        );
        nodes.set(connectionId, mine);
        return { groups: [...mine.keys()], objects: [] };
      },
    }),
    live.onDidRead(({ connectionId, groups }) => {
      for (const read of groups) nodes.get(connectionId)?.get(read.group)?.followServer(read.items, read.complete, read.group.pages);
    }),
    view.onDidChangeVisibility(() => live.wake()),
    view.onDidCollapseElement((e) => collapsed.add(e.element.id)),
    view.onDidExpandElement((e) => {
      collapsed.delete(e.element.id);
      live.wake();
    }),
  );
}
