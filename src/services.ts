/**
 * What the extension is made of, built once by the composition root
 * (extension.ts) and handed to every layer that needs more than one part:
 * commands, the editor features, the priorities table, the test API. It sits
 * beside extension.ts, outside the layers, so no layer imports one above it.
 */
import type * as vscode from 'vscode';
import type { Connection } from './connection/connection';
import type { ConnectionManager } from './connection/connectionManager';
import type { ObjectFileSystem } from './fs/objectFileSystem';
import type { ObjectSaves } from './documents/saves';
import type { Indexes } from './search/indexes';
import type { ObjectTree } from './tree/objectTree';

export interface Services {
  context: vscode.ExtensionContext;
  connections: ConnectionManager;
  tree: ObjectTree;
  objectFiles: ObjectFileSystem;
  /** The one save entry of every surface. */
  saves: ObjectSaves;
  /** Objects by name, per connection (Go to Object, links by key). */
  search: Indexes;
  /**
   * Set by the registration helper for one run of a command: the target
   * resolvers note the connection they resolve, so a failure can offer Sign In.
   */
  readonly invocation?: Invocation;
}

export interface Invocation {
  connection?: Connection;
}
