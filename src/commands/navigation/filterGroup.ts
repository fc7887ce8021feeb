/**
 * Filter a group of the tree by name, as you type. The filter stays on the
 * group: pages loaded later are filtered too. An empty filter shows all.
 */
import vscode = require('vscode');
import type { CollectionNode } from '../../tree/nodes/collectionNode';
import { groupTarget, targeted } from '../framework/commandTargets';
import { kindsLabel } from '../../l10n';

export const filterGroup = targeted({
  id: 'oms.filterGroup',
  target: groupTarget,
  async run(_s, group: CollectionNode, _node: unknown, text?: unknown) {
    if (typeof text === 'string') return group.setFilter(text);
    const before = group.filter;
    const box = vscode.window.createInputBox();
    box.title = vscode.l10n.t('Filter {0}', kindsLabel(group.kind));
    box.prompt = vscode.l10n.t('Part of the name; Enter keeps the filter, Escape restores the previous one');
    box.value = before;
    let accepted = false;
    const disposables = [
      box.onDidChangeValue((v) => group.setFilter(v)),
      box.onDidAccept(() => {
        accepted = true;
        box.hide();
      }),
    ];
    const hidden = new Promise<void>((resolve) => disposables.push(box.onDidHide(() => resolve())));
    box.show();
    await hidden;
    for (const d of disposables) d.dispose();
    box.dispose();
    if (!accepted) group.setFilter(before);
  },
});

export const clearGroupFilter = targeted({
  id: 'oms.clearGroupFilter',
  target: groupTarget,
  run(_s, group: CollectionNode) {
    group.setFilter('');
  },
});
