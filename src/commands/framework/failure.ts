/**
 * How a failed command reads: one line with the reason, and the actions that
 * help (Sign In when the service refused the token of a known connection,
 * Retry when it could not be reached, Show Log always). Plain TypeScript, so
 * the rule is unit tested; `runCommand.ts` shows it.
 */
import { ApiError } from '../../api/errors';
import { l10n } from '../../l10n';

/**
 * A failure that also carries the value a programmatic caller gets back
 * (tests, scripts: `{ ok: false, reason, ... }`); the user sees it reported
 * like any other failure. `cause` (an ApiError, say) decides the actions.
 */
export class Failure<R = unknown> extends Error {
  constructor(
    message: string,
    readonly result: R,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'Failure';
  }
}

/**
 * A failure while a command acted on a connection it had resolved: the report offers Sign In for
 * that connection. The target resolvers and `targeted()` attach it (`onConnection`); the runner
 * reads it (`attribution`). `error` is what was thrown.
 */
class FailureOn extends Error {
  constructor(
    readonly connectionId: string,
    readonly error: unknown,
  ) {
    super(messageOf(error), { cause: error });
    this.name = 'FailureOn';
  }
}

/** Runs `work`; what it throws names `connectionId`, unless it already names the one it failed on. */
export async function onConnection<T>(connectionId: string, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    throw e instanceof FailureOn ? e : new FailureOn(connectionId, e);
  }
}

/** What was thrown, and the connection it names (see `FailureOn`). */
export function attribution(thrown: unknown): { error: unknown; connectionId?: string } {
  return thrown instanceof FailureOn ? { error: thrown.error, connectionId: thrown.connectionId } : { error: thrown };
}

/** Wraps any error thrown by a call into a Failure with the result built from it (for `.catch`). */
export function failWith<R>(result: (error: unknown) => R): (error: unknown) => never {
  return (error) => {
    throw new Failure(messageOf(error), result(error), { cause: error });
  };
}

/** Which actions a report offers (their labels are the caller's, in the user's language). */
export type FailureAction = 'Sign In' | 'Retry' | 'Show Log';

export interface FailureReport {
  message: string;
  actions: FailureAction[];
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The command's title as the palette shows it (`Invite User to Engage Site…`) -> `"Invite User to Engage Site" failed`. */
export function failureTitle(commandTitle: string): string {
  return l10n.t('"{0}" failed', commandTitle.replace(/…$/, ''));
}

function apiErrorIn(error: unknown): ApiError | undefined {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof ApiError) return e;
  }
  return undefined;
}

/** The message and actions for a failed command; `connectionKnown` when the command named or picked one. */
export function describeFailure(title: string, error: unknown, connectionKnown: boolean): FailureReport {
  const api = apiErrorIn(error);
  const actions: FailureAction[] = [];
  if (api?.kind === 'auth' && connectionKnown) actions.push('Sign In');
  if (api?.kind === 'network' || api?.kind === 'timeout') actions.push('Retry');
  actions.push('Show Log');
  // Fields the service named (`Errors: [{pointer, message}]`) say what to fix.
  const details = api?.details.length
    ? ` (${api.details
        .slice(0, 3)
        .map((d) => `${d.pointer ?? ''} ${d.message}`.trim())
        .join('; ')})`
    : '';
  return { message: `${title}: ${messageOf(error)}${details}`, actions };
}

/** What a programmatic caller gets back from a failed command. */
export function resultOf(error: unknown): unknown {
  return error instanceof Failure ? error.result : undefined;
}
