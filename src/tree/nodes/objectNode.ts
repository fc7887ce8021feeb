/** One object: labelled by CommonName, opens as a JSON document. */
import * as vscode from 'vscode';
import type { Kind } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import { objectUri, ObjectAddress } from '../../fs/objectUri';
import { contextValue, TreeNode } from './node';

export class ObjectNode implements TreeNode {
  readonly id: string;
  readonly address: ObjectAddress;

  constructor(readonly parent: TreeNode, readonly kind: Kind, readonly connectionId: string, readonly folderKey: string, readonly object: BaseInfo) {
    this.address = { connectionId, folderKey, kind, key: object.Key ?? '' };
    this.id = `${parent.id}/${object.Key}`;
  }

  get name(): string {
    return this.object.CommonName || this.object.Key || '(unnamed)';
  }

  get uri(): vscode.Uri {
    return objectUri(this.address, this.name);
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(this.name, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.kind.icon);
    const described = this.kind.describedBy ? this.object[this.kind.describedBy] : undefined;
    item.description = typeof described === 'string' && described ? described : `v${this.object.ConcurrencyVersion ?? '?'}`;
    item.tooltip = this.tooltip();
    item.command = { command: 'oms.openObject', title: 'Open', arguments: [this] };
    item.contextValue = contextValue('oms-object', `kind-${this.kind.id}`, ...this.kind.operations, ...this.kind.actions);
    item.resourceUri = this.uri;
    return item;
  }

  private tooltip(): vscode.MarkdownString {
    const o = this.object;
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${escape(this.name)}**  \n${this.kind.label}\n\n`);
    md.appendMarkdown(`| | |\n|---|---|\n`);
    md.appendMarkdown(`| Key | \`${o.Key}\` |\n| Version | ${o.ConcurrencyVersion ?? '—'} |\n`);
    if (this.kind.describedBy) md.appendMarkdown(`| ${this.kind.describedBy} | ${escape(display(o[this.kind.describedBy]))} |\n`);
    if (o.Tags?.length) md.appendMarkdown(`| Tags | ${o.Tags.map(escape).join(', ')} |\n`);
    return md;
  }
}

function display(value: unknown): string {
  return value === undefined || value === null ? '—' : typeof value === 'string' ? value : JSON.stringify(value);
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
