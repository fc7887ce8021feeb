/** One way to tell the user a command failed, with the action that helps. */
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import { log } from '../log';

export async function reportError(what: string, error: unknown, connectionId?: string): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  log().error(`${what}: ${message}`);
  const actions = error instanceof ApiError && error.kind === 'auth' && connectionId ? ['Sign In', 'Show Log'] : ['Show Log'];
  const choice = await vscode.window.showErrorMessage(`${what}: ${message}`, ...actions);
  if (choice === 'Sign In') await vscode.commands.executeCommand('oms.signIn', connectionId);
  if (choice === 'Show Log') log().show();
}

/** Runs `fn`; a failure is reported, never thrown into VS Code as an unhandled error. */
export async function guarded<T>(what: string, fn: () => Promise<T>, connectionId?: string): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof vscode.CancellationError) return undefined;
    // Not awaited: the command ends now; the message stays until the user answers it.
    void reportError(what, e, connectionId);
    return undefined;
  }
}
