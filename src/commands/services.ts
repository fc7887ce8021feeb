/** What commands work with; built once in extension.ts. */
import * as vscode from 'vscode';
import type { ConnectionManager } from '../connection/connectionManager';
import type { ObjectFileSystem } from '../fs/objectFileSystem';
import type { Indexes } from '../search/indexes';
import type { ObjectTree } from '../tree/objectTree';

export interface Services {
  context: vscode.ExtensionContext;
  connections: ConnectionManager;
  tree: ObjectTree;
  fs: ObjectFileSystem;
  /** Objects by name, per connection (Go to Object, links by key). */
  search: Indexes;
}

export interface Command {
  id: string;
  run(services: Services, ...args: any[]): unknown;
}
