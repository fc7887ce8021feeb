/** Small commands on one connection: rename, remove, sign out, make active. */
import * as vscode from 'vscode';
import { pickConnection } from './pick';
import type { Command } from './services';

type Target = string | { connection?: { id: string } } | undefined;
const idOf = (t: Target) => (typeof t === 'string' ? t : t?.connection?.id);

export const renameConnection: Command = {
  id: 'oms.renameConnection',
  async run(s, target: Target, newName?: string) {
    const c = await pickConnection(s, idOf(target));
    const label = newName ?? (await vscode.window.showInputBox({ title: 'Rename Connection', value: c.info.label, validateInput: (v) => (v.trim() ? undefined : 'Enter a name') }));
    if (label) await s.connections.update(c.id, { label: label.trim() });
  },
};

export const removeConnection: Command = {
  id: 'oms.removeConnection',
  async run(s, target: Target, confirmed?: boolean) {
    const c = await pickConnection(s, idOf(target));
    if (!confirmed) {
      const yes = 'Remove';
      const choice = await vscode.window.showWarningMessage(`Remove the connection "${c.info.label}" and forget its token?`, { modal: true }, yes);
      if (choice !== yes) return;
    }
    await s.connections.remove(c.id);
  },
};

export const signOut: Command = {
  id: 'oms.signOut',
  async run(s, target: Target) {
    const c = await pickConnection(s, idOf(target));
    await c.signOut();
    s.connections.fireChanged();
    vscode.window.setStatusBarMessage(`Signed out of ${c.info.label}`, 4000);
  },
};

export const selectConnection: Command = {
  id: 'oms.selectConnection',
  async run(s, target: Target) {
    const c = await pickConnection(s, idOf(target) ?? (s.connections.all().length === 1 ? s.connections.all()[0].id : undefined));
    await s.connections.setActive(c.id);
  },
};
