/**
 * The questions a save asks when the object changed on the server since the
 * edit's base (documents/saves.ts asks them): one per field changed on both
 * sides, or, where the merge cannot help, the only question of the whole save.
 */
import vscode = require('vscode');
import { compareWithServer } from './compare';
import type { MergeChoices, MergeConflict } from '../changes/merge3';
import type { BaseInfo } from '../model/types';
import { fieldLabel } from '../model/fieldNames';
import { conflictText, ConflictChoice } from './saves';

/** Keep mine, take theirs, or compare, for each field changed on both sides (named as the outline names it, items by `object`'s). */
export async function askPerField(name: string, conflicts: MergeConflict[], uri?: vscode.Uri, object?: unknown): Promise<MergeChoices | undefined> {
  const choices: Record<string, 'mine' | 'theirs'> = {};
  const show = (v: unknown) => (v === undefined ? vscode.l10n.t('(absent)') : JSON.stringify(v).slice(0, 120));
  for (const [i, c] of conflicts.entries()) {
    const items = [
      { label: vscode.l10n.t('Keep mine'), detail: show(c.mine), side: 'mine' as const },
      { label: vscode.l10n.t('Take theirs'), detail: show(c.theirs), side: 'theirs' as const },
      ...(uri ? [{ label: vscode.l10n.t('Compare'), detail: vscode.l10n.t('Show the server version beside yours; nothing is sent'), side: undefined }] : []),
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('"{0}" changed on the server too ({1}/{2})', name, String(i + 1), String(conflicts.length)),
      placeHolder: vscode.l10n.t('{0}: changed by you and on the server', fieldLabel(c.pointer, object)),
      ignoreFocusOut: true,
    });
    if (!picked?.side) {
      if (picked && uri) await compareWithServer(uri);
      return undefined;
    }
    choices[c.pointer] = picked.side;
  }
  return choices;
}

/** Asks, once, what to do when the object changed on the server since the edit's base. */
export async function askOnConflict(_uri: vscode.Uri, name: string, server: BaseInfo, base: number | null): Promise<ConflictChoice> {
  const compare = vscode.l10n.t('Compare'),
    overwrite = vscode.l10n.t('Overwrite');
  const choice = await vscode.window.showWarningMessage(
    conflictText(name, server, base),
    {
      modal: true,
      detail: vscode.l10n.t('Compare shows the server version beside yours (your edits stay, unsaved). Overwrite replaces the server version with yours.'),
    },
    compare,
    overwrite,
  );
  return choice === compare ? 'compare' : choice === overwrite ? 'overwrite' : 'cancel';
}
