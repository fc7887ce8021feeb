/**
 * Plan Changes (files vs what was pulled vs the server, shown in the Object
 * Changes view), with or without deletes; an entry beside the server's
 * version; a plan saved for later and opened again (apply then refuses what
 * moved since it was made).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { canonicalText, fileForm } from '../changes/code/fileForm';
import { makePlan, Plan, PlanEntry } from '../changes/code/plan';
import { kind as kindOf } from '../model/kinds';
import { planView } from '../views/planView';
import { bindingFor, connectionOf, pulledFolder } from './codeFolder';
import { connectionIdOf } from './commandTargets';
import type { Command, Services } from './services';

export const planChanges: Command = {
  id: 'oms.plan',
  async run(s, arg?: unknown, options?: { includeDeletes?: boolean }): Promise<Plan> {
    // A connection named (tree node, args): plan against it, refused when the folder belongs to another.
    const named = arg instanceof vscode.Uri ? undefined : connectionIdOf(arg);
    const root = await pulledFolder(arg);
    const connection = (named && s.connections.get(named)) || (await connectionOf(s, root));
    const includeDeletes = options?.includeDeletes ?? (planView.current?.root === root && planView.current.plan.includeDeletes);
    const binding = await bindingFor(connection);
    const result = await vscode.window.withProgress({ location: { viewId: 'oms.plan' }, title: vscode.l10n.t('Planning') }, () =>
      makePlan(connection.client, root, binding, { includeDeletes }));
    planView.show({ ...result, root, connectionId: connection.id });
    await vscode.commands.executeCommand('oms.plan.focus');
    // Creates an interrupted apply made: found on the server, not offered again; said once.
    const resolved = result.plan.resolved ?? [];
    if (resolved.length) void vscode.window.showInformationMessage(resolved.length === 1 ? resolved[0] : vscode.l10n.t('{0} (and {1} more like it)', resolved[0], resolved.length - 1));
    return result.plan;
  },
};

export const planIncludeDeletes: Command = {
  id: 'oms.planIncludeDeletes',
  run: (s) => replan(s, true),
};

export const planExcludeDeletes: Command = {
  id: 'oms.planExcludeDeletes',
  run: (s) => replan(s, false),
};

async function replan(s: Services, includeDeletes: boolean): Promise<unknown> {
  const shown = planView.current;
  if (!shown) throw new Error(vscode.l10n.t('Plan a pulled folder first (Plan Changes…)'));
  return vscode.commands.executeCommand('oms.plan', vscode.Uri.file(shown.root), { includeDeletes });
}

/** The server's version (in file form) beside the file; only one of them when the other does not exist. */
export const openPlanEntry: Command = {
  id: 'oms.openPlanEntry',
  async run(_s, arg?: unknown): Promise<void> {
    const entry = (arg as { entry?: PlanEntry } | undefined)?.entry ?? (arg as PlanEntry | undefined);
    const shown = planView.current;
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
};

/** Saves the shown plan (with its ticks) under `plans/` of the pulled folder: a change prepared now, applied later. */
export const savePlan: Command = {
  id: 'oms.savePlan',
  async run(): Promise<string> {
    const shown = planView.current;
    if (!shown) throw new Error(vscode.l10n.t('Plan a pulled folder first (Plan Changes…)'));
    const file = path.join(shown.root, 'plans', `${shown.plan.createdAt.replace(/[:.]/g, '-')}.plan.json`);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify(shown.plan, null, 2) + '\n');
    void vscode.window.showInformationMessage(vscode.l10n.t('Saved the plan as {0}. Open Saved Plan… shows it again; Apply then refuses what moved since.', vscode.workspace.asRelativePath(file)));
    return file;
  },
};

export const openSavedPlan: Command = {
  id: 'oms.openSavedPlan',
  async run(s, arg?: unknown): Promise<Plan> {
    let file = arg instanceof vscode.Uri && arg.fsPath.endsWith('.plan.json') ? arg.fsPath : undefined;
    if (!file) {
      const found = await vscode.workspace.findFiles('**/plans/*.plan.json', '**/node_modules/**', 100);
      const picked = await vscode.window.showQuickPick(found.map((u) => ({ label: vscode.workspace.asRelativePath(u), file: u.fsPath })).reverse(),
        { placeHolder: vscode.l10n.t('Saved plan'), ignoreFocusOut: true });
      if (!picked) throw new vscode.CancellationError();
      file = picked.file;
    }
    const plan = JSON.parse(await fs.readFile(file, 'utf8')) as Plan;
    if (plan?.format !== 1 || !Array.isArray(plan.entries)) throw new Error(vscode.l10n.t('{0} is not a saved plan', path.basename(file)));
    const root = path.dirname(path.dirname(file));
    const connection = await connectionOf(s, root);
    planView.show({ plan, live: new Map(), root, connectionId: connection.id });
    await vscode.commands.executeCommand('oms.plan.focus');
    return plan;
  },
};
