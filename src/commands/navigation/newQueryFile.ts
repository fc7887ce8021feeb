/**
 * New Query File: an untitled query file (`.omsq`) for the folder or group it ran on (from its menu, else the
 * Objects view's selection, else the active connection's instance), with how the file works in comments and one
 * example query. Saved in the workspace, it is kept in git with the team's work.
 */
import vscode = require('vscode');
import { pathOfFolder } from '../../query/folderPath';
import { newQueryFileText, NewQueryFilePlace } from '../../query/queryFileTemplate';
import type { Command, Services } from '../framework/command';
import { namedBy } from '../framework/namedBy';

export const newQueryFile: Command = {
  id: 'oms.newQueryFile',
  async run(s: Services, arg?: unknown) {
    const doc = await vscode.workspace.openTextDocument({
      language: 'oms-query',
      content: newQueryFileText(await placeOf(s, arg ?? s.tree.view?.selection[0])),
    });
    await vscode.window.showTextDocument(doc);
  },
};

async function placeOf(s: Services, node: unknown): Promise<NewQueryFilePlace> {
  const named = namedBy(node);
  const connection = named.connectionId ? s.connections.get(named.connectionId) : s.connections.active;
  if (!connection) return { folder: '' };
  const place = {
    kind: named.kind?.id === 'folder' ? undefined : named.kind,
    connection: connection === s.connections.active ? undefined : connection.info.label,
  };
  if (!named.folderKey) return { ...place, folder: '' };
  // Offline or refused: the folder by its key, which the file takes as well.
  const folder = await connection.rootFolderKey().then(
    (root) => pathOfFolder(connection.client, root, named.folderKey!),
    () => named.folderKey!,
  );
  return { ...place, folder };
}
