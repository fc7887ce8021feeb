/**
 * Pull as Files… (a connection, a folder with or without its subfolders, or a
 * group), Pull Again (the shown plan's folder) and Pull on one entry of the
 * plan (an object that moved on the server). Files edited since the last pull
 * are overwritten only when the user says so.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkBinding, readManifest } from '../changes/code/manifest';
import type { PullScope } from '../changes/code/manifest';
import type { PullReport } from '../changes/code/pull';
import { editsSincePull, pull, scopeChange } from '../changes/code/pull';
import { startPullThreads } from '../changes/code/pullWriter';
import { slug } from '../changes/code/fileForm';
import type { PlanEntry } from '../changes/code/plan';
import type { Connection } from '../connection/connection';
import { objectKinds, supports } from '../model/kinds';
import { log } from '../log';
import { notify } from '../ui/notify';
import { planView } from '../views/planView';
import { bindingFor, connectionOf, pulledFolder, withCancellableProgress } from './codeFolder';
import { folderTarget } from './commandTargets';
import { namedBy } from './namedBy';
import type { Command } from './services';

export const pullAsFiles: Command = {
  id: 'oms.pullAsFiles',
  async run(s, arg?: unknown, options?: { root?: string; recursive?: boolean; overwriteEdits?: boolean }): Promise<PullReport> {
    startPullThreads();
    const given = namedBy(arg);
    const { connection, folderKey } = await folderTarget(s, arg);
    const isConnection = given.folderKey === undefined && given.connectionId !== undefined;
    const kinds = given.kind ? [given.kind.id] : await pickKinds();
    const recursive = options?.recursive ?? (given.kind ? false : isConnection ? true : await askRecursive());
    const root = options?.root ?? (await pickDestination(connection));
    return runPull(connection, root, { folderKey, recursive, kinds }, options?.overwriteEdits);
  },
};

export const pullAgain: Command = {
  id: 'oms.pullAgain',
  async run(s, arg?: unknown, options?: { overwriteEdits?: boolean }): Promise<PullReport> {
    startPullThreads();
    const root = await pulledFolder(arg);
    const connection = await connectionOf(s, root);
    const report = await runPull(connection, root, undefined, options?.overwriteEdits);
    if (planView.current?.root === root) await vscode.commands.executeCommand('oms.plan', vscode.Uri.file(root));
    return report;
  },
};

/** Pull one object of the plan (behind or stale: the server's version replaces the file, after a yes for a stale one). */
export const pullPlanEntry: Command = {
  id: 'oms.pullPlanEntry',
  async run(s, arg?: unknown): Promise<PullReport | undefined> {
    const entry = (arg as { entry?: PlanEntry } | undefined)?.entry ?? (arg as PlanEntry | undefined);
    const shown = planView.current;
    if (!entry?.key || !shown) throw new Error(vscode.l10n.t('Choose an entry of the Object Changes view'));
    if (entry.action === 'stale') {
      const discard = vscode.l10n.t('Discard My Edit');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('Take the server\'s version of {0}? Your edit of {1} is replaced.', entry.label, entry.path), { modal: true }, discard);
      if (choice !== discard) return undefined;
    }
    const connection = s.connections.get(shown.connectionId) ?? (await connectionOf(s, shown.root));
    const report = await pull(connection.client, shown.root, await bindingFor(connection), { only: new Set([entry.key]), overwriteEdits: true });
    await vscode.commands.executeCommand('oms.plan', vscode.Uri.file(shown.root));
    return report;
  },
};

async function runPull(connection: Connection, root: string, scope: PullScope | undefined, overwrite?: boolean): Promise<PullReport> {
  const binding = await bindingFor(connection);
  // Refused before any question: a folder of another connection, or another pull's objects with edits.
  const existing = await readManifest(root);
  if (existing) checkBinding(existing, binding);
  const change = existing && scope ? scopeChange(root, existing, scope) : undefined;
  if (change?.edited.length) throw change;
  if (change) {
    const replace = vscode.l10n.t('Replace Them');
    if ((await vscode.window.showWarningMessage(change.message, { modal: true }, replace)) !== replace) throw new vscode.CancellationError();
  }
  const edits = await editsSincePull(root);
  let overwriteEdits = overwrite ?? false;
  if (overwrite === undefined && edits.length) {
    const keep = vscode.l10n.t('Keep My Edits'), replace = vscode.l10n.t('Overwrite Them');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('{0} files were edited or deleted since the last pull (for example {1}).', edits.length, edits[0]),
      { modal: true, detail: vscode.l10n.t('Keep them and pull the rest, or replace them with the server\'s version.') }, keep, replace);
    if (!choice) throw new vscode.CancellationError();
    overwriteEdits = choice === replace;
  }
  const report = await withCancellableProgress(vscode.l10n.t('Pulling from {0}', connection.info.label), (say, signal) =>
    pull(connection.client, root, binding, {
      scope, overwriteEdits, signal, replaceScope: !!change,
      onProgress: (p) => say(vscode.l10n.t('{0} objects · {1} files written', p.objects, p.written)),
    }));
  const where = vscode.workspace.asRelativePath(root);
  const planAction = { title: vscode.l10n.t('Plan Changes'), run: () => vscode.commands.executeCommand('oms.plan', vscode.Uri.file(root)) };
  if (report.refused.length) {
    const more = report.refused.length - 1;
    notify('warning', more
      ? vscode.l10n.t('{0} (and {1} more: see the log)', report.refused[0], more)
      : report.refused[0]);
    for (const line of report.refused) log().warn(line);
  }
  if (report.cancelled) {
    notify('warning', vscode.l10n.t('Pull cancelled after {0} objects ({1} files written): Pull Again finishes it.', report.objects, report.written));
  } else {
    const kept = report.keptEdits.length ? vscode.l10n.t(' {0} edited files kept.', report.keptEdits.length) : '';
    notify('info', vscode.l10n.t('Pulled {0} objects into {1}: {2} files written, {3} removed.{4}', report.objects, where, report.written, report.removed, kept), planAction);
  }
  return report;
}

async function pickKinds(): Promise<PullScope['kinds']> {
  const items = objectKinds.filter((k) => supports(k, 'list')).map((k) => ({ label: k.pluralLabel, picked: true, id: k.id }));
  const picked = await vscode.window.showQuickPick(items, { canPickMany: true, placeHolder: vscode.l10n.t('Kinds of objects to pull'), ignoreFocusOut: true });
  if (!picked?.length) throw new vscode.CancellationError();
  return picked.map((p) => p.id);
}

async function askRecursive(): Promise<boolean> {
  const only = vscode.l10n.t('This folder only'), all = vscode.l10n.t('This folder and its subfolders');
  const picked = await vscode.window.showQuickPick([only, all], { placeHolder: vscode.l10n.t('Which folders?'), ignoreFocusOut: true });
  if (!picked) throw new vscode.CancellationError();
  return picked === all;
}

/** A workspace folder's `oms/<connection>`, a folder pulled from this connection before, or any folder. */
async function pickDestination(connection: Connection): Promise<string> {
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const items: Array<vscode.QuickPickItem & { root?: string }> = [];
  if (workspace) {
    const suggested = path.join(workspace, 'oms', slug(connection.info.label));
    items.push({ label: vscode.workspace.asRelativePath(suggested), description: vscode.l10n.t('in this workspace'), root: suggested });
  }
  for (const u of await vscode.workspace.findFiles('**/oms.manifest.json', '**/node_modules/**', 50)) {
    const root = path.dirname(u.fsPath);
    const m = await readManifest(root).catch(() => undefined);
    if (m?.connection.url === connection.info.baseUrl && !items.some((i) => i.root === root)) {
      items.push({ label: vscode.workspace.asRelativePath(root), description: vscode.l10n.t('pulled before'), root });
    }
  }
  items.push({ label: vscode.l10n.t('$(folder-opened) Choose a Folder…') });
  const picked = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Pull into which folder? (files meant for git)'), ignoreFocusOut: true });
  if (!picked) throw new vscode.CancellationError();
  if (picked.root) return picked.root;
  const chosen = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: vscode.l10n.t('Pull Here') });
  if (!chosen?.[0]) throw new vscode.CancellationError();
  return chosen[0].fsPath;
}
