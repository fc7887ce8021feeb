/** One object: labelled by CommonName, opens as a JSON document; its notes are its children. */
import vscode = require('vscode');
import { descriptionOf, type Kind } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import { objectUri, ObjectAddress, parseObjectUri, sameObject } from '../../fs/objectUri';
import type { TreeContext } from './context';
import { errorNode } from './errorNode';
import { MessageNode } from './messageNode';
import { contextValue, spoken, TreeNode } from './node';
import { NoteNode } from './noteNode';
import { kindLabel } from '../../l10n';

export class ObjectNode implements TreeNode {
  readonly id: string;
  readonly address: ObjectAddress;

  constructor(
    readonly parent: TreeNode,
    readonly kind: Kind,
    readonly connectionId: string,
    readonly folderKey: string,
    readonly object: BaseInfo,
    /** The folder's name, which the document's path shows. */
    private readonly folderName: string,
    private readonly ctx?: TreeContext,
  ) {
    this.address = { connectionId, folderKey, kind, key: object.Key ?? '' };
    this.id = `${parent.id}/${object.Key}`;
  }

  get name(): string {
    return this.object.CommonName || this.object.Key || vscode.l10n.t('(unnamed)');
  }

  get uri(): vscode.Uri {
    return objectUri(this.address, this.name, this.folderName);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.name, this.ctx ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.kind.icon);
    const described = descriptionOf(this.kind, this.object);
    item.description = described ?? vscode.l10n.t('v{0}', this.object.ConcurrencyVersion ?? '?');
    item.tooltip = this.tooltip();
    item.command = { command: 'oms.openObject', title: vscode.l10n.t('Open'), arguments: [this] };
    item.contextValue = contextValue('oms-object', `kind-${this.kind.id}`, ...this.kind.operations, ...this.kind.actions);
    item.resourceUri = this.uri;
    item.accessibilityInformation = spoken(
      `${kindLabel(this.kind)} ${this.name}`,
      described ?? vscode.l10n.t('version {0}', this.object.ConcurrencyVersion ?? '?'),
      this.unsaved() && vscode.l10n.t('unsaved changes'),
      this.ctx?.connections.get(this.connectionId)?.info.production && vscode.l10n.t('production'),
    );
    return item;
  }

  /** An editor holds edits of this object that were not saved. */
  private unsaved(): boolean {
    return vscode.workspace.textDocuments.some((d) => {
      const address = d.isDirty ? parseObjectUri(d.uri) : undefined;
      return !!address && sameObject(address, this.address);
    });
  }

  /** The object's notes, oldest first, as the service keeps them. */
  async getChildren(): Promise<TreeNode[]> {
    const connection = this.ctx?.connections.get(this.connectionId);
    if (!connection) return [];
    try {
      const notes = await connection.client.notes(this.kind, this.folderKey, this.address.key);
      if (!notes.length) {
        return [
          new MessageNode(this, `${this.id}/no-notes`, vscode.l10n.t('No notes: Add Note…'), {
            icon: 'note',
            command: { command: 'oms.addNote', title: vscode.l10n.t('Add Note…'), arguments: [this] },
          }),
        ];
      }
      return notes.map((n, i) => new NoteNode(this, n, i));
    } catch (e) {
      return [errorNode(this, e, this.connectionId)];
    }
  }

  private tooltip(): vscode.MarkdownString {
    const o = this.object;
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${escape(this.name)}**  \n${escape(kindLabel(this.kind))}\n\n`);
    md.appendMarkdown(`| | |\n|---|---|\n`);
    md.appendMarkdown(`| ${vscode.l10n.t('Key')} | \`${o.Key}\` |\n| ${vscode.l10n.t('Version')} | ${o.ConcurrencyVersion ?? '—'} |\n`);
    if (this.kind.describedBy) md.appendMarkdown(`| ${this.kind.describedBy} | ${escape(display(o[this.kind.describedBy]))} |\n`);
    if (o.Tags?.length) md.appendMarkdown(`| ${vscode.l10n.t('Tags')} | ${o.Tags.map(escape).join(', ')} |\n`);
    return md;
  }
}

function display(value: unknown): string {
  return value === undefined || value === null ? '—' : typeof value === 'string' ? value : JSON.stringify(value);
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
