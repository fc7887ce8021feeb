/** Small commands on one connection: rename, remove, sign out, make active. */
import * as vscode from 'vscode';
import { connectionNameProblem } from '../connection/connectionInfo';
import { ConnectionTarget, connectionTarget, targeted } from './commandTargets';

export const renameConnection = targeted({
  id: 'oms.renameConnection',
  target: connectionTarget,
  async run(s, { connection: c }: ConnectionTarget, _target: unknown, newName?: string) {
    const problem = (v: string) => connectionNameProblem(v, s.connections.list(), c.id);
    const label = newName ?? (await vscode.window.showInputBox({ title: 'Rename Connection', value: c.info.label, validateInput: problem }));
    if (label === undefined) return;
    const refused = problem(label);
    if (refused) throw new Error(refused);
    await s.connections.update(c.id, { label: label.trim() });
  },
});

export const removeConnection = targeted({
  id: 'oms.removeConnection',
  target: connectionTarget,
  async run(s, { connection: c }: ConnectionTarget, _target: unknown, confirmed?: boolean) {
    if (!confirmed) {
      const yes = 'Remove';
      const choice = await vscode.window.showWarningMessage(`Remove the connection "${c.info.label}" and forget its token?`, { modal: true }, yes);
      if (choice !== yes) return;
    }
    await s.connections.remove(c.id);
  },
});

export const signOut = targeted({
  id: 'oms.signOut',
  target: connectionTarget,
  async run(s, { connection: c }: ConnectionTarget) {
    await c.signOut();
    s.connections.fireChanged();
    vscode.window.setStatusBarMessage(`Signed out of ${c.info.label}`, 4000);
  },
});

export const selectConnection = targeted({
  id: 'oms.selectConnection',
  target: connectionTarget,
  async run(s, { connection: c }: ConnectionTarget) {
    await s.connections.setActive(c.id);
  },
});
