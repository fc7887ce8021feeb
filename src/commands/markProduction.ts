/** Marks a connection as production (every write asks first), or back to ordinary. */
import * as vscode from 'vscode';
import type { Command, Services } from './services';
import { pickConnection } from './pick';

type Target = { connection?: { id: string } } | { connectionId?: string } | string | undefined;

async function connectionOf(s: Services, target: Target) {
  const id = typeof target === 'string' ? target
    : target && 'connection' in target ? target.connection?.id
    : target && 'connectionId' in target ? target.connectionId : undefined;
  const connection = id ? s.connections.get(id) : await pickConnection(s);
  if (!connection) throw new Error(`No connection "${id}"`);
  return connection;
}

export const markProduction: Command = {
  id: 'oms.markProduction',
  async run(s, target?: Target, mark?: unknown) {
    const production = mark !== false;
    const connection = await connectionOf(s, target);
    await s.connections.update(connection.id, { production });
    vscode.window.setStatusBarMessage(`${connection.info.label} is ${production ? 'marked as production: every write asks first' : 'no longer marked as production'}`, 5000);
    return production;
  },
};

export const unmarkProduction: Command = {
  id: 'oms.unmarkProduction',
  run: (s, target?: Target) => markProduction.run(s, target, false),
};
