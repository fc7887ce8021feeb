/** A connection at the top of the tree; its child is the root folder. */
import vscode = require('vscode');
import type { Connection } from '../../connection/connection';
import { ApiError } from '../../api/errors';
import type { BaseInfo } from '../../model/types';
import { TreeContext } from './context';
import { errorNode } from './errorNode';
import { FolderNode } from './folderNode';
import { MessageNode } from './messageNode';
import { contextValue, spoken, TreeNode } from './node';

export class ConnectionNode implements TreeNode {
  readonly parent = undefined;
  readonly id: string;

  constructor(
    private readonly ctx: TreeContext,
    readonly connection: Connection,
    private readonly active: boolean,
  ) {
    this.id = `conn:${connection.id}`;
  }

  getTreeItem(): vscode.TreeItem {
    const info = this.connection.info;
    const item = new vscode.TreeItem(info.label, vscode.TreeItemCollapsibleState.Expanded);
    item.id = this.id;
    // Production has a colour of its own (the status bar's warning colour), whatever is active.
    const colour = info.production ? new vscode.ThemeColor('statusBarItem.warningBackground') : this.active ? new vscode.ThemeColor('charts.green') : undefined;
    item.iconPath = new vscode.ThemeIcon(info.production ? 'flame' : info.sandbox ? 'beaker' : 'plug', colour);
    // The label already names the connection: the description adds only what it does not say.
    item.description = [this.active && vscode.l10n.t('● active'), info.production && vscode.l10n.t('PRODUCTION'), !info.sandbox && new URL(info.baseUrl).host]
      .filter(Boolean)
      .join(' · ');
    item.tooltip = [
      info.label,
      info.baseUrl,
      info.production && vscode.l10n.t('Production: every write asks first'),
      this.active && vscode.l10n.t('Active connection'),
    ]
      .filter(Boolean)
      .join('\n');
    item.accessibilityInformation = spoken(
      vscode.l10n.t('Connection {0}', info.label),
      info.sandbox ? vscode.l10n.t('local sandbox') : new URL(info.baseUrl).host,
      this.active && vscode.l10n.t('active'),
      info.production && vscode.l10n.t('production: every write asks first'),
    );
    item.contextValue = contextValue('oms-connection', info.sandbox && 'sandbox', info.production && 'production');
    return item;
  }

  async getChildren(): Promise<TreeNode[]> {
    if (!this.connection.info.sandbox && !(await this.connection.hasToken())) {
      return [
        new MessageNode(this, `${this.id}/signin`, vscode.l10n.t('Sign in…'), {
          icon: 'key',
          command: { command: 'oms.signIn', title: vscode.l10n.t('Sign In'), arguments: [this.connection.id] },
        }),
      ];
    }
    try {
      const rootKey = await this.connection.rootFolderKey();
      // Some services may not serve the folder itself; its key is enough to browse.
      const root = await this.connection.client.folder(rootKey).catch((e) => {
        if (e instanceof ApiError && (e.kind === 'notFound' || e.kind === 'permission' || e.status === 405))
          return { Key: rootKey, CommonName: vscode.l10n.t('Root folder') } as BaseInfo;
        throw e;
      });
      return [new FolderNode(this, this.ctx, this.connection.id, root, true)];
    } catch (e) {
      return [errorNode(this, e, this.connection.id)];
    }
  }
}
