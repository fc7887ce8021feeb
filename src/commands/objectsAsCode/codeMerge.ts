/**
 * Merge on a stale entry of the plan: the server's changes and the file's,
 * three-way (src/changes/code/merge.ts). Conflicts are settled one pointer at a
 * time (keep mine or take the server's); then the file holds the merge and
 * the plan shows it as an ordinary update. Nothing is sent.
 */
import vscode = require('vscode');
import { mergeEntry, MergeOutcome } from '../../changes/code/merge';
import type { PlanEntry } from '../../changes/code/plan';
import type { BaseInfo } from '../../model/types';
import { fieldLabel, fieldLabels } from '../../model/fieldNames';
import { notify } from '../../ui/notify';
import { planView, type ShownPlan } from '../../views/planView';
import { targeted } from '../framework/commandTargets';
import { planEntryOf } from './codeFolder';

interface StaleEntry {
  entry: PlanEntry;
  shown: ShownPlan;
  /** The server's copy, read by the plan. */
  live: BaseInfo;
}

/** A stale entry of the shown plan, with the server's copy the plan read. */
function staleEntryTarget(_s: unknown, arg: unknown): Promise<StaleEntry> {
  const entry = planEntryOf(arg);
  const shown = planView.current;
  const live = entry?.key ? shown?.live.get(entry.key) : undefined;
  if (!entry || !shown || !live || entry.action !== 'stale') {
    throw new Error(vscode.l10n.t('Choose a stale entry of the Object Changes view (plan again if it is from a saved plan)'));
  }
  return Promise.resolve({ entry, shown, live });
}

export const mergePlanEntry = targeted({
  id: 'oms.mergePlanEntry',
  target: staleEntryTarget,
  async run(_s, { entry, shown, live }, _arg?: unknown, choicesArg?: Record<string, 'mine' | 'theirs'>): Promise<MergeOutcome> {
    let outcome = await mergeEntry(shown.root, entry, live, choicesArg);
    if (outcome.conflicts.length) {
      const choices: Record<string, 'mine' | 'theirs'> = { ...choicesArg };
      for (const c of outcome.conflicts) {
        const mine = { label: vscode.l10n.t('Keep mine: {0}', JSON.stringify(c.mine)), side: 'mine' as const };
        const theirs = { label: vscode.l10n.t("Take the server's: {0}", JSON.stringify(c.theirs)), side: 'theirs' as const };
        const picked = await vscode.window.showQuickPick([mine, theirs], {
          title: vscode.l10n.t('{0}: {1} changed on both sides (was {2})', entry.label, fieldLabel(c.pointer, live), JSON.stringify(c.base)),
          ignoreFocusOut: true,
        });
        if (!picked) throw new vscode.CancellationError();
        choices[c.pointer] = picked.side;
      }
      outcome = await mergeEntry(shown.root, entry, live, choices);
    }
    notify(
      'info',
      vscode.l10n.t(
        'Merged {0}: the file holds your changes and {1} from the server. Plan shows what is left to send.',
        entry.label,
        outcome.tookTheirs.length ? fieldLabels(outcome.tookTheirs, live) : vscode.l10n.t('nothing'),
      ),
    );
    await vscode.commands.executeCommand('oms.plan', vscode.Uri.file(shown.root));
    return outcome;
  },
});
