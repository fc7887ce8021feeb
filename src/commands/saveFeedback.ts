/** Tells the user, in one line with the action that helps, why a save was not sent. */
import * as vscode from 'vscode';
import type { SaveOutcome } from '../save/outcome';
import { compareWithServer } from '../fs/serverVersion';
import { notify, MessageAction } from '../ui/notify';

export function reportNotSaved(outcome: Exclude<SaveOutcome, { status: 'saved' | 'unchanged' }>, name: string, uri?: vscode.Uri, connectionId?: string): void {
  if (outcome.status === 'conflict') {
    notify('warning', `"${name}" not saved: it changed on the server (now version ${outcome.server.ConcurrencyVersion}, your edit is based on ${outcome.base}). Compare, then save again to overwrite, or Revert to take theirs.`,
      ...(uri ? [{ title: 'Compare', run: () => compareWithServer(uri) }] : []));
    return;
  }
  const { refusal } = outcome;
  if (refusal.kind === 'cancelled') {
    vscode.window.setStatusBarMessage(`"${name}" not sent: cancelled`, 5000);
    return;
  }
  const actions: MessageAction[] = [];
  if (refusal.kind === 'invalid' || refusal.kind === 'identity' || refusal.kind === 'notStored') {
    actions.push({ title: 'Show Problems', run: () => vscode.commands.executeCommand('workbench.actions.view.problems') });
  }
  if (refusal.kind === 'auth' && connectionId) actions.push({ title: 'Sign In', run: () => vscode.commands.executeCommand('oms.signIn', connectionId) });
  if (refusal.kind === 'server' && uri) actions.push({ title: 'Compare', run: () => compareWithServer(uri) });
  notify('error', `"${name}" not saved: ${refusal.message}`, ...actions);
}
