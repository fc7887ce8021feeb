/**
 * What the objects-as-code commands act on, resolved before they run (their
 * `targeted()` targets): a pulled folder and the connection it belongs to,
 * the plan the Object Changes view shows, one entry of it, a saved plan.
 */
import * as path from 'node:path';
import vscode = require('vscode');
import { readManifest, manifestName } from '../../changes/code/manifest';
import type { ConnectionBinding } from '../../changes/code/manifest';
import { bindingOf } from '../../changes/code/pull';
import type { Plan, PlanEntry } from '../../changes/code/plan';
import { readPlanFile } from '../../changes/code/planFile';
import type { Connection } from '../../connection/connection';
import { planView, type ShownPlan } from '../../views/planView';
import type { Services } from '../framework/command';

/**
 * The folder a Uri names (the folder itself, or a file in it); else the pulled folders of the workspace
 * and the one the Object Changes view shows (first), asked when there is more than one.
 */
export async function pulledFolder(arg: unknown): Promise<string> {
  if (arg instanceof vscode.Uri && arg.scheme === 'file') {
    const p = arg.fsPath;
    return path.basename(p) === manifestName ? path.dirname(p) : p;
  }
  const shown = planView.current?.root;
  const found = (await vscode.workspace.findFiles(`**/${manifestName}`, '**/node_modules/**', 50)).map((u) => path.dirname(u.fsPath));
  const roots = [...new Set([...(shown ? [shown] : []), ...found.sort()])];
  if (!roots.length) throw new Error(vscode.l10n.t('No pulled folder in this workspace: use Pull as Files… on a folder or group of the Objects view first'));
  if (roots.length === 1) return roots[0];
  const picked = await vscode.window.showQuickPick(
    roots.map((root) => ({
      label: vscode.workspace.asRelativePath(root),
      description: root === shown ? vscode.l10n.t('shown in Object Changes') : undefined,
      root,
    })),
    { title: vscode.l10n.t('Pulled folder'), placeHolder: vscode.l10n.t('Which pulled folder?'), ignoreFocusOut: true },
  );
  if (!picked) throw new vscode.CancellationError();
  return picked.root;
}

/** The connection a pulled folder belongs to (same URL), or an error naming it. */
export async function connectionOf(s: Services, root: string): Promise<Connection> {
  const manifest = await readManifest(root);
  if (!manifest) throw new Error(vscode.l10n.t('{0} holds no {1}: use Pull as Files… first', root, manifestName));
  const { url, label } = manifest.connection;
  const same = s.connections.all().filter((c) => c.info.baseUrl === url);
  const connection = same.find((c) => c.info.label === label) ?? same[0];
  if (!connection) throw new Error(vscode.l10n.t('This folder was pulled from {0} ({1}): add that connection to plan or pull it', label, url));
  return connection;
}

export interface PulledFolderTarget {
  /** The pulled folder (absolute). */
  root: string;
  connection: Connection;
}

/** A pulled folder (see `pulledFolder`) and the connection it was pulled from. */
export async function pulledFolderTarget(s: Services, arg: unknown): Promise<PulledFolderTarget> {
  const root = await pulledFolder(arg);
  return { root, connection: await connectionOf(s, root) };
}

/** The plan the Object Changes view shows. */
export function shownPlan(): ShownPlan {
  const shown = planView.current;
  if (!shown) throw new Error(vscode.l10n.t('Plan a pulled folder first (Plan Changes…)'));
  return shown;
}

/** The entry of the Object Changes view an argument names (the view passes `{ entry }` or the entry). */
export function planEntryOf(arg: unknown): PlanEntry | undefined {
  return (arg as { entry?: PlanEntry } | undefined)?.entry ?? (arg as PlanEntry | undefined);
}

export interface PlanEntryTarget {
  entry: PlanEntry;
  shown: ShownPlan;
  connection: Connection;
}

/** An entry of the shown plan with an object on the server, and the plan's connection (else the folder's). */
export async function planEntryTarget(s: Services, arg: unknown): Promise<PlanEntryTarget> {
  const entry = planEntryOf(arg);
  const shown = planView.current;
  if (!entry?.key || !shown) throw new Error(vscode.l10n.t('Choose an entry of the Object Changes view'));
  return { entry, shown, connection: s.connections.get(shown.connectionId) ?? (await connectionOf(s, shown.root)) };
}

export interface SavedPlanTarget extends PulledFolderTarget {
  plan: Plan;
}

/** A saved plan (`plans/*.plan.json` of a pulled folder): the one a Uri names, else the one picked. */
export async function savedPlanTarget(s: Services, arg: unknown): Promise<SavedPlanTarget> {
  let file = arg instanceof vscode.Uri && arg.fsPath.endsWith('.plan.json') ? arg.fsPath : undefined;
  if (!file) {
    const found = await vscode.workspace.findFiles('**/plans/*.plan.json', '**/node_modules/**', 100);
    const picked = await vscode.window.showQuickPick(found.map((u) => ({ label: vscode.workspace.asRelativePath(u), file: u.fsPath })).reverse(), {
      placeHolder: vscode.l10n.t('Saved plan'),
      ignoreFocusOut: true,
    });
    if (!picked) throw new vscode.CancellationError();
    file = picked.file;
  }
  const plan = await readPlanFile(file);
  const root = path.dirname(path.dirname(file));
  return { root, plan, connection: await connectionOf(s, root) };
}

export function bindingFor(connection: Connection): Promise<ConnectionBinding> {
  return bindingOf(connection.client, connection.info.label, connection.info.baseUrl, connection.info.production);
}

/** Runs `work` with a cancellable notification; its AbortSignal follows the Cancel button. */
export function withCancellableProgress<T>(title: string, work: (report: (message: string) => void, signal: AbortSignal) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
    const stop = new AbortController();
    token.onCancellationRequested(() => stop.abort());
    return work((message) => progress.report({ message }), stop.signal);
  });
}
