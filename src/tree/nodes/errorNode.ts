/** Turns a failed load into a node with the reason and what to do about it. */
import vscode = require('vscode');
import { ApiError } from '../../api/errors';
import { MessageNode } from './messageNode';
import type { TreeNode } from './node';

export function errorNode(parent: TreeNode, error: unknown, connectionId: string): TreeNode {
  const message = error instanceof Error ? error.message : String(error);
  const reason = message.replace(/[.\s]+$/, '');
  if (error instanceof ApiError && error.kind === 'auth') {
    return new MessageNode(parent, `${parent.id}/error`, vscode.l10n.t('Sign in to load this'), {
      icon: 'key',
      tooltip: message,
      spoken: vscode.l10n.t('Error: sign in to load this. {0}', reason),
      command: { command: 'oms.signIn', title: vscode.l10n.t('Sign In'), arguments: [connectionId] },
      contextValue: 'oms-error',
    });
  }
  if (error instanceof ApiError && (error.kind === 'permission' || error.kind === 'notFound' || error.status === 405)) {
    // The spec does not promise list/get for every kind: say so, don't fail.
    return new MessageNode(parent, `${parent.id}/error`, vscode.l10n.t('Not available: {0}', message), {
      icon: 'circle-slash',
      tooltip: message,
      spoken: vscode.l10n.t('Not available: {0}', message),
    });
  }
  return new MessageNode(parent, `${parent.id}/error`, vscode.l10n.t('Failed to load: {0}', message), {
    icon: 'error',
    tooltip: `${message}\n${vscode.l10n.t('Click to retry.')}`,
    spoken: vscode.l10n.t('Error: failed to load. {0}. Press Enter to retry.', reason),
    command: { command: 'oms.refresh', title: vscode.l10n.t('Retry'), arguments: [parent] },
    contextValue: 'oms-error',
  });
}
