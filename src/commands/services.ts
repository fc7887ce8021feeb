/** What commands work with (built once in extension.ts), and the shapes of a command. */
import type * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
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
  /**
   * Set by the registration helper for one run of a command: the target
   * resolvers note the connection they resolve, so a failure can offer Sign In.
   */
  readonly invocation?: Invocation;
}

export interface Invocation {
  connection?: Connection;
}

/** A command as `index.ts` registers it; it reads its arguments itself (through the resolvers of `commandTargets.ts`). */
export interface Command {
  readonly id: string;
  run(services: Services, ...args: unknown[]): unknown;
}

/**
 * A command whose first argument (a tree node, a Uri, an args object, or
 * nothing: then the palette pickers ask) is resolved into a typed target
 * before `run`; `run` gets the target followed by all the arguments.
 * `targeted()` in `commandTargets.ts` turns it into a Command.
 */
export interface TargetedCommand<T> {
  readonly id: string;
  target(services: Services, arg: unknown): Promise<T>;
  run(services: Services, target: T, ...args: unknown[]): unknown;
}
