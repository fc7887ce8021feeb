/** Marks a connection as production (every write asks first), or back to ordinary. */
import vscode = require('vscode');
import type { Services } from '../framework/command';
import { ConnectionTarget, connectionTarget, targeted } from '../framework/commandTargets';

async function mark(s: Services, { connection }: ConnectionTarget, production: boolean): Promise<boolean> {
  await s.connections.update(connection.id, { production });
  vscode.window.setStatusBarMessage(
    production
      ? vscode.l10n.t('{0} is marked as production: every write asks first', connection.info.label)
      : vscode.l10n.t('{0} is no longer marked as production', connection.info.label),
    5000,
  );
  return production;
}

export const markProduction = targeted({
  id: 'oms.markProduction',
  target: connectionTarget,
  run: (s, target: ConnectionTarget) => mark(s, target, true),
});

export const unmarkProduction = targeted({
  id: 'oms.unmarkProduction',
  target: connectionTarget,
  run: (s, target: ConnectionTarget) => mark(s, target, false),
});
