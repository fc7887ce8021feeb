/**
 * Which pulled folder (objects as code) a command works on, and the
 * connection it belongs to: shared by the pull, plan and apply commands.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readManifest, manifestName } from '../changes/code/manifest';
import type { ConnectionBinding } from '../changes/code/manifest';
import { bindingOf } from '../changes/code/pull';
import type { Connection } from '../connection/connection';
import { planView } from '../views/planView';
import type { Services } from './services';

/** The folder a Uri names (the folder itself, or a file in it), else the shown plan's, else the pulled folders in the workspace. */
export async function pulledFolder(arg: unknown): Promise<string> {
  if (arg instanceof vscode.Uri && arg.scheme === 'file') {
    const p = arg.fsPath;
    return path.basename(p) === manifestName ? path.dirname(p) : p;
  }
  if (planView.current) return planView.current.root;
  const found = await vscode.workspace.findFiles(`**/${manifestName}`, '**/node_modules/**', 50);
  if (!found.length) throw new Error(vscode.l10n.t('No pulled folder in this workspace: use Pull as Files… on a folder or group of the Objects view first'));
  if (found.length === 1) return path.dirname(found[0].fsPath);
  const picked = await vscode.window.showQuickPick(
    found.map((u) => ({ label: vscode.workspace.asRelativePath(path.dirname(u.fsPath)), root: path.dirname(u.fsPath) })),
    { placeHolder: vscode.l10n.t('Pulled folder'), ignoreFocusOut: true },
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
  if (s.invocation) s.invocation.connection = connection;
  return connection;
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
