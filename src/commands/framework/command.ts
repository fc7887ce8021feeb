/** The shapes of a command; what commands work with (`Services`) is built by the composition root (src/services.ts). */
import type { Services } from '../../services';

export type { Services } from '../../services';

/** A command as `index.ts` registers it: one that acts on no target (or `targeted()` made it). */
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
