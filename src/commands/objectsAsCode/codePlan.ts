/**
 * Plan Changes (files vs what was pulled vs the server, shown in the Object
 * Changes view), with or without deletes; an entry beside the server's
 * version; a plan saved for later and opened again (apply then refuses what
 * moved since it was made).
 */
import vscode = require('vscode');
import { canonicalText, fileForm } from '../../changes/code/fileForm';
import { makePlan, type Plan, type PlanEntry, type PlanResult } from '../../changes/code/plan';
import { savePlanFile } from '../../changes/code/planFile';
import { resolveInside } from '../../changes/code/safePaths';
import { kind as kindOf } from '../../model/kinds';
import { planView, type PlanNode, type ShownPlan } from '../../views/planView';
import { bindingFor, connectionOf, planEntryOf, pulledFolder, savedPlanTarget, shownPlan } from './codeFolder';
import { connectionIdOf, targeted } from '../framework/commandTargets';
import type { Command } from '../framework/command';

export const planChanges = targeted({
  id: 'oms.plan',
  // Only the folder is resolved first: a folder whose manifest or connection fails still clears the plan shown before.
  target: async (_s, arg) => ({ root: await pulledFolder(arg), named: arg instanceof vscode.Uri ? undefined : connectionIdOf(arg) }),
  async run(s, { root, named }, _arg?: unknown, options?: { includeDeletes?: boolean }): Promise<Plan> {
    let result: PlanResult;
    // The view first, where the plan's progress shows: focused at the end instead, it took the keys from
    // whatever the user had opened meanwhile (a pick for Apply got its Enter sent to the view's row).
    await vscode.commands.executeCommand('oms.plan.focus');
    try {
      // A connection named (tree node, args): plan against it, refused when the folder belongs to another.
      const connection = (named && s.connections.get(named)) || (await connectionOf(s, root));
      const includeDeletes = options?.includeDeletes ?? !!planView.lastPlanOf(root)?.includeDeletes;
      const binding = await bindingFor(connection);
      result = await vscode.window.withProgress({ location: { viewId: 'oms.plan' }, title: vscode.l10n.t('Planning') }, () =>
        makePlan(connection.client, root, binding, { includeDeletes }),
      );
      planView.show({ ...result, root, connectionId: connection.id }, { replanned: true });
    } catch (e) {
      // The plan shown before is of the folder as it was: nothing of it stays to tick.
      planView.failed(root, (e as Error).message);
      throw e;
    }
    // Creates an interrupted apply made: found on the server, not offered again; said once.
    const resolved = result.plan.resolved ?? [];
    if (resolved.length)
      void vscode.window.showInformationMessage(
        resolved.length === 1 ? resolved[0] : vscode.l10n.t('{0} (and {1} more like it)', resolved[0], resolved.length - 1),
      );
    return result.plan;
  },
});

const replan = (includeDeletes: boolean) => (_s: unknown, shown: ShownPlan) =>
  vscode.commands.executeCommand('oms.plan', vscode.Uri.file(shown.root), { includeDeletes });

/**
 * Space on an entry or group of the Object Changes view (or its menu): ticks it, or unticks it when ticked. The
 * keybinding's arguments ask VS Code for the focused row (arrow keys move the focus, not the selection).
 */
export const togglePlanTick: Command = {
  id: 'oms.togglePlanTick',
  run(_s, arg?: unknown): void {
    planView.toggle(arg && typeof arg === 'object' && ('entry' in arg || 'range' in arg || 'group' in arg) ? (arg as PlanNode) : undefined);
  },
};

export const planIncludeDeletes = targeted({
  id: 'oms.planIncludeDeletes',
  target: () => Promise.resolve(shownPlan()),
  run: replan(true),
});

export const planExcludeDeletes = targeted({
  id: 'oms.planExcludeDeletes',
  target: () => Promise.resolve(shownPlan()),
  run: replan(false),
});

/** The server's version (in file form) beside the file; only one of them when the other does not exist. */
export const openPlanEntry = targeted({
  id: 'oms.openPlanEntry',
  // Nothing to show (no entry, no plan): nothing happens.
  target: (_s, arg) => Promise.resolve({ entry: planEntryOf(arg), shown: planView.current }),
  async run(_s, { entry, shown }: { entry?: PlanEntry; shown?: ShownPlan }): Promise<void> {
    if (!entry || !shown) return;
    const live = entry.key ? shown.live.get(entry.key) : undefined;
    const kind = kindOf(entry.kind);
    // A saved plan's entry is untrusted: its file is opened only inside the pulled folder, through no link.
    const file = vscode.Uri.file(resolveInside(shown.root, entry.path));
    const hasFile = !!entry.local;
    const liveUri = live && planView.liveUri(entry, canonicalText(kind, fileForm(kind, live)));
    if (liveUri && hasFile) {
      await vscode.commands.executeCommand('vscode.diff', liveUri, file, vscode.l10n.t('{0}: server ↔ file', entry.label), { preview: true });
    } else if (liveUri) {
      await vscode.window.showTextDocument(liveUri, { preview: true });
    } else if (hasFile) {
      await vscode.window.showTextDocument(file, { preview: true });
    }
  },
});

/** Saves the shown plan (with its ticks) under `plans/` of the pulled folder: a change prepared now, applied later. */
export const savePlan = targeted({
  id: 'oms.savePlan',
  target: () => Promise.resolve(shownPlan()),
  run(_s, shown): Promise<string> {
    const file = savePlanFile(shown.root, shown.plan);
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Saved the plan as {0}. Open Saved Plan… shows it again; Apply then refuses what moved since.', vscode.workspace.asRelativePath(file)),
    );
    return Promise.resolve(file);
  },
});

export const openSavedPlan = targeted({
  id: 'oms.openSavedPlan',
  target: savedPlanTarget,
  async run(_s, { plan, root, connection }): Promise<Plan> {
    planView.show({ plan, live: new Map(), onServer: new Map(), lists: [], root, connectionId: connection.id }); // a saved plan: not followed live
    await vscode.commands.executeCommand('oms.plan.focus');
    return plan;
  },
});
