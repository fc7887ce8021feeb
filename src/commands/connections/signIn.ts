/** Sign in: paste a token, or user name + password + instance through POST /token. */
import vscode = require('vscode');
import { readToken } from '../../api/auth';
import { ConnectionTarget, connectionTarget, targeted } from '../framework/commandTargets';

export interface SignInArgs {
  token?: string;
  instance?: string;
  user?: string;
  password?: string;
}

export const signIn = targeted({
  id: 'oms.signIn',
  target: connectionTarget,
  async run(s, { connection }: ConnectionTarget, _target: unknown, args?: SignInArgs) {
    const method = args
      ? args.token
        ? 'token'
        : 'password'
      : (
          await vscode.window.showQuickPick(
            [
              { label: `$(key) ${vscode.l10n.t('Paste an access token')}`, value: 'token' as const },
              { label: `$(account) ${vscode.l10n.t('User name and password')}`, description: vscode.l10n.t('POST /token'), value: 'password' as const },
            ],
            { title: vscode.l10n.t('Sign in to {0}', connection.info.label), ignoreFocusOut: true },
          )
        )?.value;
    if (!method) return false;

    if (method === 'token') {
      const token =
        args?.token ??
        (await vscode.window.showInputBox({
          title: vscode.l10n.t('Sign in to {0}: access token', connection.info.label),
          prompt: vscode.l10n.t('Stored in the OS secret store and sent only to {0}', new URL(connection.info.baseUrl).origin),
          password: true,
          ignoreFocusOut: true,
          validateInput: tokenProblem,
        }));
      if (!token) return false;
      const read = readToken(token);
      if (!('token' in read)) throw new Error(tokenProblem(token));
      await connection.setTokens({ accessToken: read.token });
    } else {
      const instance = args?.instance ?? (await ask(vscode.l10n.t('Instance name'), vscode.l10n.t('Enter the instance name'), connection.info.instance));
      if (!instance) return false;
      const user = args?.user ?? (await ask(vscode.l10n.t('User name'), vscode.l10n.t('Enter the user name'), connection.info.user));
      if (!user) return false;
      const password = args?.password ?? (await ask(vscode.l10n.t('Password'), vscode.l10n.t('Enter the password'), undefined, true));
      if (!password) return false;
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Signing in to {0}…', connection.info.label) },
        () => connection.signInWithPassword({ instance, user, password }),
      );
      await s.connections.update(connection.id, { instance, user });
    }
    s.connections.fireChanged();
    // Prove the token works before saying so.
    await connection.rootFolderKey();
    vscode.window.setStatusBarMessage(vscode.l10n.t('Signed in to {0}', connection.info.label), 4000);
    return true;
  },
});

/** What is wrong with a pasted token, in words; undefined when the service can be sent it. */
function tokenProblem(pasted: string): string | undefined {
  const read = readToken(pasted);
  if ('token' in read) return undefined;
  switch (read.problem) {
    case 'empty':
      return vscode.l10n.t('Paste the access token');
    case 'space':
      return vscode.l10n.t('A token has no spaces or line breaks, and this one has one at character {0}: paste the token alone', read.at ?? 0);
    case 'character':
      return vscode.l10n.t('Character {0} cannot be sent in an HTTP header: a token is plain ASCII', read.at ?? 0);
  }
}

async function ask(prompt: string, empty: string, value?: string, password = false) {
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Sign in: {0}', prompt),
    prompt,
    value,
    password,
    ignoreFocusOut: true,
    validateInput: (v) => (v ? undefined : empty),
  });
}
