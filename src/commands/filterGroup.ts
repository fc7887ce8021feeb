/**
 * Filter a group of the tree by name, as you type. The filter stays on the
 * group: pages loaded later are filtered too. An empty filter shows all.
 */
import * as vscode from 'vscode';
import { CollectionNode } from '../tree/nodes/collectionNode';
import type { Command } from './services';
import { kindsLabel } from '../localized';

export const filterGroup: Command = {
  id: 'oms.filterGroup',
  async run(_s, group: CollectionNode, text?: string) {
    if (!(group instanceof CollectionNode)) throw new Error(vscode.l10n.t('Filter works on a group of objects in the tree'));
    if (text !== undefined) return group.setFilter(text);
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
};

export const clearGroupFilter: Command = {
  id: 'oms.clearGroupFilter',
  run(_s, group: CollectionNode) {
    if (group instanceof CollectionNode) group.setFilter('');
  },
};
