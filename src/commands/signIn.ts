/** Sign in: paste a token, or user name + password + instance through POST /token. */
import * as vscode from 'vscode';
import { ConnectionTarget, connectionTarget, targeted } from './commandTargets';

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
      ? (args.token ? 'token' : 'password')
      : (await vscode.window.showQuickPick(
          [
            { label: '$(key) Paste an access token', value: 'token' as const },
            { label: '$(account) User name and password', description: 'POST /token', value: 'password' as const },
          ],
          { title: `Sign in to ${connection.info.label}`, ignoreFocusOut: true },
        ))?.value;
    if (!method) return false;

    if (method === 'token') {
      const token = args?.token ?? (await vscode.window.showInputBox({
        title: `Sign in to ${connection.info.label}: access token`,
        prompt: `Stored in the OS secret store and sent only to ${new URL(connection.info.baseUrl).origin}`,
        password: true,
        ignoreFocusOut: true,
        validateInput: (v) => (/^\S{8,}$/.test(v.trim()) ? undefined : 'Paste the whole token (no spaces)'),
      }));
      if (!token) return false;
      await connection.setTokens({ accessToken: token.trim() });
    } else {
      const instance = args?.instance ?? (await ask('Instance name', connection.info.instance));
      if (!instance) return false;
      const user = args?.user ?? (await ask('User name', connection.info.user));
      if (!user) return false;
      const password = args?.password ?? (await ask('Password', undefined, true));
      if (!password) return false;
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Signing in to ${connection.info.label}…` },
        () => connection.signInWithPassword({ instance, user, password }));
      await s.connections.update(connection.id, { instance, user });
    }
    s.connections.fireChanged();
    // Prove the token works before saying so.
    await connection.rootFolderKey();
    vscode.window.setStatusBarMessage(`Signed in to ${connection.info.label}`, 4000);
    return true;
  },
});

async function ask(prompt: string, value?: string, password = false) {
  return vscode.window.showInputBox({ title: `Sign in: ${prompt}`, prompt, value, password, ignoreFocusOut: true, validateInput: (v) => (v ? undefined : `Enter the ${prompt.toLowerCase()}`) });
}
