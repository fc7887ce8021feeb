/** Refresh, retry and paging on tree nodes. */
import type { Paged } from '../tree/nodes/loadMoreNode';
import type { TreeNode } from '../tree/nodes/node';
import type { Command } from './services';

export const refresh: Command = {
  id: 'oms.refresh',
  run(s, node?: TreeNode) {
    s.tree.refresh(node);
  },
};

/** An error node retries by reloading its parent. */
export const retry: Command = {
  id: 'oms.retry',
  run(s, node?: TreeNode) {
    s.tree.refresh(node);
  },
};

export const loadMore: Command = {
  id: 'oms.loadMore',
  run(_s, node: Paged) {
    return node.loadMore();
  },
};

export const loadAll: Command = {
  id: 'oms.loadAll',
  run(_s, node: Paged | { parent: Paged }) {
    return ('loadAll' in node ? node : node.parent).loadAll();
  },
};
