/** Palette helpers: when a command runs without a tree node, ask for what it needs. */
import vscode = require('vscode');
import type { Connection } from '../../connection/connection';
import { Kind, kind as kindOf, objectKinds, supports } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import type { Services } from './command';
import { kindLabel, kindsLabel } from '../../l10n';

export async function pickConnection(s: Services): Promise<Connection> {
  const all = s.connections.all();
  if (all.length === 0) {
    throw new Error(vscode.l10n.t('No connection yet: run "OMS: Add Connection" or "OMS: Try the Local Sandbox"'));
  }
  if (all.length === 1) return all[0];
  const active = s.connections.active?.id;
  const picked = await vscode.window.showQuickPick(
    all.map((c) => ({
      label: c.info.label,
      description: c.info.baseUrl,
      detail: c.id === active ? vscode.l10n.t('Active connection') : undefined,
      connection: c,
    })),
    { placeHolder: vscode.l10n.t('Connection'), ignoreFocusOut: true },
  );
  if (!picked) throw new vscode.CancellationError();
  return picked.connection;
}

/** Walks the folder tree from the root: pick a folder or go into one. */
export async function pickFolder(connection: Connection): Promise<string> {
  let key = await connection.rootFolderKey();
  let name = vscode.l10n.t('root folder');
  for (;;) {
    const folders = await connection.client.listAll(kindOf('folder'), key);
    const items = [
      { label: `$(check) ${vscode.l10n.t('Use {0}', name)}`, key, enter: false },
      ...folders.map((f) => ({ label: `$(folder) ${f.CommonName ?? f.Key}`, description: vscode.l10n.t('open'), key: f.Key ?? '', enter: true })),
    ];
    const picked = folders.length
      ? await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Folder (in {0})', name), ignoreFocusOut: true })
      : items[0];
    if (!picked) throw new vscode.CancellationError();
    if (!picked.enter) return key;
    key = picked.key;
    name = picked.label.replace('$(folder) ', '');
  }
}

export async function pickObject<T extends BaseInfo>(connection: Connection, kind: Kind, folderKey: string, placeHolder?: string): Promise<T> {
  const objects = await connection.client.listAll<T>(kind, folderKey);
  if (!objects.length) throw new Error(vscode.l10n.t('No {0} in this folder', kindsLabel(kind).toLocaleLowerCase()));
  const picked = await vscode.window.showQuickPick(
    objects.map((o) => ({ label: o.CommonName ?? o.Key ?? '', description: o.Key ?? '', object: o })),
    { placeHolder: placeHolder ?? kindLabel(kind), matchOnDescription: true, ignoreFocusOut: true },
  );
  if (!picked) throw new vscode.CancellationError();
  return picked.object;
}

export async function pickKind(operation: 'list' | 'create', placeHolder: string): Promise<Kind> {
  const picked = await vscode.window.showQuickPick(
    objectKinds.filter((k) => supports(k, operation)).map((k) => ({ label: kindsLabel(k), objectKind: k })),
    { placeHolder, ignoreFocusOut: true },
  );
  if (!picked) throw new vscode.CancellationError();
  return picked.objectKind;
}
