/**
 * Show Save History of an object: the versions its saves replaced (recorded
 * on this machine), newest first, with their time; picking one shows it beside
 * the server's current version and offers Restore, which writes it back
 * through the same save operation as any save (version check included).
 *
 * Args (tests, scripts): executeCommand('oms.showSaveHistory', target, { index, restore: true })
 * restores the index-th entry without prompts; returns the save outcome.
 */
import vscode = require('vscode');
import { historyUri } from '../../editor/historyDocuments';
import type { ObjectAddress } from '../../fs/objectUri';
import type { HistoryEntry } from '../../save/history';
import type { SaveOutcome } from '../../save/outcome';
import { reportNotSaved } from '../../documents/saves';
import { ObjectTarget, targeted, thisObject } from '../framework/commandTargets';
import type { Services } from '../framework/command';

interface HistoryArgs {
  index: number;
  restore?: boolean;
}

export const showSaveHistory = targeted({
  id: 'oms.showSaveHistory',
  target: thisObject,
  async run(s, { address }: ObjectTarget & { address: ObjectAddress }, _target: unknown, args?: HistoryArgs): Promise<SaveOutcome | undefined> {
    if (!s.saves.history) throw new Error(vscode.l10n.t('No save history on this machine'));
    const entries = await s.saves.history.list(address.connectionId, address.key);
    if (!entries.length) {
      vscode.window.setStatusBarMessage(vscode.l10n.t('No saves of this object recorded on this machine yet: nothing to show'), 5000);
      return undefined;
    }
    const entry = args ? entries[args.index] : await pickEntry(entries);
    if (!entry) return undefined;
    if (args?.restore) return restore(s, address, entry);

    const current = await s.connections.require(address.connectionId).client.get(address.kind, address.folderKey, address.key);
    const name = current.CommonName ?? address.key;
    await vscode.commands.executeCommand(
      'vscode.diff',
      historyUri(entry.object, `${name} v${entry.object.ConcurrencyVersion}`),
      historyUri(current, `${name} v${current.ConcurrencyVersion}`),
      vscode.l10n.t(
        '{0}: version {1} ({2}) ↔ server (version {3})',
        name,
        String(entry.object.ConcurrencyVersion),
        when(entry),
        String(current.ConcurrencyVersion),
      ),
    );
    const restoreLabel = vscode.l10n.t('Restore');
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Restore version {0} of "{1}" on the server? It replaces version {2}.',
        String(entry.object.ConcurrencyVersion),
        name,
        String(current.ConcurrencyVersion),
      ),
      restoreLabel,
    );
    return choice === restoreLabel ? restore(s, address, entry, current.ConcurrencyVersion ?? null) : undefined;
  },
});

async function pickEntry(entries: HistoryEntry[]): Promise<HistoryEntry | undefined> {
  const picked = await vscode.window.showQuickPick(
    entries.map((entry) => ({
      label: vscode.l10n.t('Version {0}: {1}', String(entry.object.ConcurrencyVersion), entry.object.CommonName ?? entry.key),
      description: when(entry),
      detail: vscode.l10n.t('Replaced by a save; pick to compare with the server and restore'),
      entry,
    })),
    { title: vscode.l10n.t('Save History'), placeHolder: vscode.l10n.t('Earlier versions replaced by saves, newest first') },
  );
  return picked?.entry;
}

/**
 * Writes the earlier version back, based on `base` (the server version the
 * user saw; by default the one read now). Its Notes and Links are the old
 * ones: the save ignores them (the server keeps its own).
 */
async function restore(s: Services, address: ObjectAddress, entry: HistoryEntry, base?: number | null): Promise<SaveOutcome> {
  const from =
    base !== undefined
      ? base
      : ((await s.connections.require(address.connectionId).client.get(address.kind, address.folderKey, address.key)).ConcurrencyVersion ?? null);
  const outcome = await s.saves.save({ address, edit: entry.object, base: from, options: { notStored: 'ignore' } });
  const name = entry.object.CommonName ?? address.key;
  if (outcome.status === 'saved')
    vscode.window.setStatusBarMessage(
      vscode.l10n.t(
        'Restored "{0}" to its version {1} (now version {2})',
        name,
        String(entry.object.ConcurrencyVersion),
        String(outcome.object.ConcurrencyVersion),
      ),
      5000,
    );
  else if (outcome.status === 'unchanged') vscode.window.setStatusBarMessage(vscode.l10n.t('"{0}" already holds that version: nothing to restore', name), 5000);
  else reportNotSaved(outcome, name, { connectionId: address.connectionId });
  return outcome;
}

function when(entry: HistoryEntry): string {
  return new Date(entry.savedAt).toLocaleString();
}
