/**
 * What the extension is made of, built once by the composition root
 * (extension.ts) and handed to every layer that needs more than one part:
 * commands, the editor features, the priorities table, the test API. It sits
 * beside extension.ts, outside the layers, so no layer imports one above it.
 */
import type * as vscode from 'vscode';
import type { ConnectionManager } from './connection/connectionManager';
import type { ObjectFileSystem } from './fs/objectFileSystem';
import type { ObjectSaves } from './documents/saves';
import type { Indexes } from './search/indexes';
import type { LiveFeed } from './live/liveFeed';
import type { ObjectTree } from './tree/objectTree';

export interface Services {
  context: vscode.ExtensionContext;
  connections: ConnectionManager;
  tree: ObjectTree;
  objectFiles: ObjectFileSystem;
  /** The save entry of every surface. */
  saves: ObjectSaves;
  /** Objects by name, per connection (Go to Object, links by key). */
  search: Indexes;
  /** Live reads: what shows server objects registers here, and hears each poll's answer. */
  live: LiveFeed;
}
