/**
 * Runs a command as every command runs: any failure reported alike (`failure.ts`), with Sign In
 * for the connection the failure names (or the arguments do): never an unhandled rejection,
 * nothing thrown at VS Code, Escape quiet.
 */
import vscode = require('vscode');
import { log } from '../../log';
import { connectionIdOf } from './commandTargets';
import { attribution, describeFailure, FailureAction, failureTitle, resultOf } from './failure';
import type { Command, Services } from './command';

export async function runCommand(services: Services, command: Command, args: unknown[]): Promise<unknown> {
  try {
    return await command.run(services, ...args);
  } catch (thrown) {
    const { error: e, connectionId: failedOn } = attribution(thrown);
    if (e instanceof vscode.CancellationError) return undefined;
    const connectionId = failedOn ?? connectionIdOf(args[0]);
    const known = connectionId !== undefined && services.connections.get(connectionId) !== undefined;
    // Not awaited: the command ends now; the message stays until the user answers it.
    void report(describeFailure(failureTitle(commandTitle(services, command.id)), e, known), {
      signIn: () => vscode.commands.executeCommand('oms.signIn', connectionId),
      retry: () => runCommand(services, command, args),
    });
    return resultOf(e);
  }
}

/**
 * Reports, the same way, a failure of work a command hands on rather than
 * awaits (what a quick pick's Enter starts after the command returned).
 */
export function reportFailure(services: Services, title: string, error: unknown, connectionId: string | undefined, retry: () => unknown): void {
  if (error instanceof vscode.CancellationError) return;
  const known = connectionId !== undefined && services.connections.get(connectionId) !== undefined;
  void report(describeFailure(title, error, known), { signIn: () => vscode.commands.executeCommand('oms.signIn', connectionId), retry });
}

/** The command's title from the manifest, which VS Code hands over in the user's language. */
function commandTitle(services: Services, id: string): string {
  const commands = (services.context.extension.packageJSON as { contributes: { commands: Array<{ command: string; title: string }> } }).contributes.commands;
  return commands.find((c) => c.command === id)?.title ?? id;
}

async function report(failure: ReturnType<typeof describeFailure>, actions: { signIn(): unknown; retry(): unknown }): Promise<void> {
  log().error(failure.message);
  const labels: Record<FailureAction, string> = { 'Sign In': vscode.l10n.t('Sign In'), Retry: vscode.l10n.t('Retry'), 'Show Log': vscode.l10n.t('Show Log') };
  const shown = await vscode.window.showErrorMessage(failure.message, ...failure.actions.map((a) => labels[a]));
  const choice = failure.actions.find((a) => labels[a] === shown);
  if (choice === 'Sign In') await actions.signIn();
  else if (choice === 'Retry') await actions.retry();
  else if (choice === 'Show Log') log().show();
}
