/** Palette helpers: when a command runs without a tree node, ask for what it needs. */
import * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
import { Kind, kind as kindOf, objectKinds, supports } from '../model/kinds';
import type { BaseInfo } from '../model/types';
import type { Services } from './services';

export async function pickConnection(s: Services): Promise<Connection> {
  const all = s.connections.all();
  if (all.length === 0) {
    throw new Error('No connection yet: run "OMS: Add Connection" or "OMS: Try the Local Sandbox"');
  }
  if (all.length === 1) return all[0];
  const active = s.connections.active?.id;
  const picked = await vscode.window.showQuickPick(
    all.map((c) => ({ label: c.info.label, description: c.info.baseUrl, detail: c.id === active ? 'Active connection' : undefined, connection: c })),
    { placeHolder: 'Connection', ignoreFocusOut: true },
  );
  if (!picked) throw new vscode.CancellationError();
  return picked.connection;
}

/** Walks the folder tree from the root: pick a folder or go into one. */
export async function pickFolder(connection: Connection): Promise<string> {
  let key = await connection.rootFolderKey();
  let name = 'root folder';
  for (;;) {
    const folders = await connection.client.listAll(kindOf('folder'), key);
    const items = [
      { label: `$(check) Use ${name}`, key, enter: false },
      ...folders.map((f) => ({ label: `$(folder) ${f.CommonName ?? f.Key}`, description: 'open', key: f.Key ?? '', enter: true })),
    ];
    const picked = folders.length ? await vscode.window.showQuickPick(items, { placeHolder: `Folder (in ${name})`, ignoreFocusOut: true }) : items[0];
    if (!picked) throw new vscode.CancellationError();
    if (!picked.enter) return key;
    key = picked.key;
    name = picked.label.replace('$(folder) ', '');
  }
}

export async function pickObject<T extends BaseInfo>(connection: Connection, kind: Kind, folderKey: string, placeHolder?: string): Promise<T> {
  const objects = await connection.client.listAll<T>(kind, folderKey);
  if (!objects.length) throw new Error(`No ${kind.pluralLabel.toLowerCase()} in this folder`);
  const picked = await vscode.window.showQuickPick(
    objects.map((o) => ({ label: o.CommonName ?? o.Key ?? '', description: o.Key ?? '', object: o })),
    { placeHolder: placeHolder ?? kind.label, matchOnDescription: true, ignoreFocusOut: true },
  );
  if (!picked) throw new vscode.CancellationError();
  return picked.object;
}

export async function pickKind(operation: 'list' | 'create', placeHolder: string): Promise<Kind> {
  const picked = await vscode.window.showQuickPick(
    objectKinds.filter((k) => supports(k, operation)).map((k) => ({ label: k.pluralLabel, objectKind: k })),
    { placeHolder, ignoreFocusOut: true },
  );
  if (!picked) throw new vscode.CancellationError();
  return picked.objectKind;
}
