/** Refresh (also the retry of a node that failed to load) and paging on tree nodes. */
import type { TreeNode } from '../../tree/nodes/node';
import type { Paged } from '../../tree/nodes/loadMoreNode';
import { pagedTarget, targeted } from '../framework/commandTargets';
import type { Command } from '../framework/command';

export const refresh: Command = {
  id: 'oms.refresh',
  run(s, node?: TreeNode) {
    s.tree.refresh(node);
  },
};

export const loadMore = targeted({
  id: 'oms.loadMore',
  target: pagedTarget,
  run: (_s, group: Paged) => group.loadMore(),
});

export const loadAll = targeted({
  id: 'oms.loadAll',
  target: pagedTarget,
  run: (_s, group: Paged) => group.loadAll(),
});
