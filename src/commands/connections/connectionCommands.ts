/** Small commands on one connection: rename, remove, sign out, make active. */
import vscode = require('vscode');
import { connectionNameProblem } from '../../connection/connectionInfo';
import { discardAndClose, objectDocuments, unsavedNote } from '../../documents/closeDocuments';
import { ConnectionTarget, connectionTarget, targeted } from '../framework/commandTargets';

export const renameConnection = targeted({
  id: 'oms.renameConnection',
  target: connectionTarget,
  async run(s, { connection: c }: ConnectionTarget, _target: unknown, newName?: string) {
    const problem = (v: string) => connectionNameProblem(v, s.connections.list(), c.id);
    const label = newName ?? (await vscode.window.showInputBox({ title: vscode.l10n.t('Rename Connection'), value: c.info.label, validateInput: problem }));
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
    const ofIt = (uri: vscode.Uri) => uri.authority === c.id;
    if (!confirmed) {
      const yes = vscode.l10n.t('Remove');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('Remove the connection "{0}" and forget its token?', c.info.label),
        { modal: true, detail: unsavedNote(objectDocuments(ofIt).dirty) },
        yes,
      );
      if (choice !== yes) return;
    }
    // Its editors close first: none is left showing an object of a connection that is gone.
    await discardAndClose(ofIt);
    await s.connections.remove(c.id);
  },
});

export const signOut = targeted({
  id: 'oms.signOut',
  target: connectionTarget,
  async run(s, { connection: c }: ConnectionTarget) {
    await c.signOut();
    s.connections.fireChanged();
    vscode.window.setStatusBarMessage(vscode.l10n.t('Signed out of {0}', c.info.label), 4000);
  },
});

export const selectConnection = targeted({
  id: 'oms.selectConnection',
  target: connectionTarget,
  async run(s, { connection: c }: ConnectionTarget) {
    await s.connections.setActive(c.id);
  },
});
