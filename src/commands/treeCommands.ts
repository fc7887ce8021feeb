/** Refresh (also the retry of a node that failed to load) and paging on tree nodes. */
import type { TreeNode } from '../tree/nodes/node';
import { pagedTarget } from './commandTargets';
import type { Command } from './services';

export const refresh: Command = {
  id: 'oms.refresh',
  run(s, node?: TreeNode) {
    s.tree.refresh(node);
  },
};

export const loadMore: Command = {
  id: 'oms.loadMore',
  run(_s, node: unknown) {
    return pagedTarget(node).loadMore();
  },
};

export const loadAll: Command = {
  id: 'oms.loadAll',
  run(_s, node: unknown) {
    return pagedTarget(node).loadAll();
  },
};
