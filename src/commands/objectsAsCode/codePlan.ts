/**
 * Plan Changes (files vs what was pulled vs the server, shown in the Object
 * Changes view), with or without deletes; an entry beside the server's
 * version; a plan saved for later and opened again (apply then refuses what
 * moved since it was made).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { canonicalText, fileForm } from '../../changes/code/fileForm';
import { makePlan, type Plan, type PlanEntry } from '../../changes/code/plan';
import { kind as kindOf } from '../../model/kinds';
import { planView, type ShownPlan } from '../../views/planView';
import { bindingFor, planEntryOf, planFolderTarget, savedPlanTarget, shownPlan } from './codeFolder';
import { targeted } from '../framework/commandTargets';

export const planChanges = targeted({
  id: 'oms.plan',
  target: planFolderTarget,
  async run(_s, { root, connection }, _arg?: unknown, options?: { includeDeletes?: boolean }): Promise<Plan> {
    const includeDeletes = options?.includeDeletes ?? (planView.current?.root === root && planView.current.plan.includeDeletes);
    const binding = await bindingFor(connection);
    const result = await vscode.window.withProgress({ location: { viewId: 'oms.plan' }, title: vscode.l10n.t('Planning') }, () =>
      makePlan(connection.client, root, binding, { includeDeletes }));
    planView.show({ ...result, root, connectionId: connection.id });
    await vscode.commands.executeCommand('oms.plan.focus');
    return result.plan;
  },
});

const replan = (includeDeletes: boolean) => (_s: unknown, shown: ShownPlan) =>
  vscode.commands.executeCommand('oms.plan', vscode.Uri.file(shown.root), { includeDeletes });

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
    const file = vscode.Uri.file(path.join(shown.root, entry.path));
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
  async run(_s, shown): Promise<string> {
    const file = path.join(shown.root, 'plans', `${shown.plan.createdAt.replace(/[:.]/g, '-')}.plan.json`);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify(shown.plan, null, 2) + '\n');
    void vscode.window.showInformationMessage(vscode.l10n.t('Saved the plan as {0}. Open Saved Plan… shows it again; Apply then refuses what moved since.', vscode.workspace.asRelativePath(file)));
    return file;
  },
});

export const openSavedPlan = targeted({
  id: 'oms.openSavedPlan',
  target: savedPlanTarget,
  async run(_s, { plan, root, connection }): Promise<Plan> {
    planView.show({ plan, live: new Map(), root, connectionId: connection.id });
    await vscode.commands.executeCommand('oms.plan.focus');
    return plan;
  },
});
