/** Adds a named connection: base URL, optional root folder, then sign-in. */
import vscode = require('vscode');
import { checkBaseUrl, connectionNameProblem, needsPlainHttpConfirmation, normalizeBaseUrl } from '../../connection/connectionInfo';
import type { Command } from '../framework/command';

export interface AddConnectionArgs {
  label?: string;
  baseUrl: string;
  rootFolderKey?: string;
  /** Access token to store (tests, scripts); otherwise the user signs in. */
  token?: string;
}

export const addConnection: Command = {
  id: 'oms.addConnection',
  async run(s, args?: AddConnectionArgs) {
    const baseUrl =
      args?.baseUrl ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Add Connection (1/3): service URL'),
        prompt: vscode.l10n.t('Base URL of the object management service'),
        placeHolder: 'https://api.example.com',
        ignoreFocusOut: true,
        validateInput: checkBaseUrl,
      }));
    if (!baseUrl) return undefined;
    const problem = checkBaseUrl(baseUrl);
    if (problem) throw new Error(problem);
    const url = normalizeBaseUrl(baseUrl);
    if (!args && needsPlainHttpConfirmation(url)) {
      const yes = vscode.l10n.t('Use plain http');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('{0} is plain http to another machine: the access token would cross the network unencrypted.', url),
        { modal: true },
        yes,
      );
      if (choice !== yes) return undefined;
    }
    const label =
      args?.label ??
      (await vscode.window.showInputBox({
        title: vscode.l10n.t('Add Connection (2/3): name'),
        value: new URL(url).host,
        prompt: vscode.l10n.t('A name for this connection'),
        ignoreFocusOut: true,
        validateInput: (v) => connectionNameProblem(v, s.connections.list()),
      }));
    if (!label) return undefined;
    const rootFolderKey = args
      ? args.rootFolderKey
      : await vscode.window.showInputBox({
          title: vscode.l10n.t('Add Connection (3/3): root folder (optional)'),
          prompt: vscode.l10n.t('Key of the folder to show as the root; leave empty for the current instance'),
          ignoreFocusOut: true,
          validateInput: (v) => (!v || /^[\w-]+$/.test(v.trim()) ? undefined : vscode.l10n.t('A folder key has letters, digits, - and _ only')),
        });
    if (rootFolderKey === undefined && !args) return undefined;
    const connection = await s.connections.add(
      { label: label.trim(), baseUrl: url, rootFolderKey: rootFolderKey?.trim() || undefined },
      args?.token ? { accessToken: args.token } : undefined,
    );
    if (!args?.token) await vscode.commands.executeCommand('oms.signIn', connection.id);
    return connection.id;
  },
};
