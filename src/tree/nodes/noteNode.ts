/** One note of an object: its text, author and time; Delete Note is on its menu. */
import vscode = require('vscode');
import type { NoteInfo } from '../../model/types';
import type { ObjectNode } from './objectNode';
import { spoken, TreeNode } from './node';

export class NoteNode implements TreeNode {
  readonly id: string;

  constructor(
    readonly parent: ObjectNode,
    readonly note: NoteInfo,
    index: number,
  ) {
    this.id = `${parent.id}/note-${note.Key ?? index}`;
  }

  get author(): string {
    return this.note.User?.CommonName || vscode.l10n.t('unknown author');
  }

  getTreeItem(): vscode.TreeItem {
    const text = (this.note.NoteText ?? '').trim();
    const item = new vscode.TreeItem(text.split(/\r?\n/)[0] || vscode.l10n.t('(empty note)'), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('note');
    item.description = `${this.author} · ${when(this.note.CreatedOn)}`;
    const md = new vscode.MarkdownString();
    md.appendText(text);
    md.appendMarkdown(`\n\n---\n`);
    md.appendText(`${this.author}, ${this.note.CreatedOn ? new Date(this.note.CreatedOn).toLocaleString() : vscode.l10n.t('time not given')}`);
    item.tooltip = md;
    item.accessibilityInformation = spoken(
      vscode.l10n.t('Note by {0}', this.author),
      item.description?.toString().split(' · ')[1],
      text || vscode.l10n.t('empty'),
    );
    item.contextValue = this.note.Key ? 'oms-note delete' : 'oms-note';
    return item;
  }
}

/** `2026-11-22 04:31` in local time, or "time not given". */
function when(iso: string | null | undefined): string {
  if (!iso) return vscode.l10n.t('time not given');
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
