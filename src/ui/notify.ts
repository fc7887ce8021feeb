/**
 * Non-blocking messages: a command run by a test or a script must not wait for
 * someone to dismiss a notification. Every message is also logged.
 */
import vscode = require('vscode');
import { log } from '../log';

export interface MessageAction {
  title: string;
  run: () => unknown;
}

/**
 * Shows a result without waiting for it to be dismissed (so commands run by
 * tests or scripts return at once), logs it, and runs the chosen action.
 */
export function notify(level: 'info' | 'warning' | 'error', message: string, ...actions: MessageAction[]): void {
  const show = (text: string, ...items: string[]) =>
    level === 'info'
      ? vscode.window.showInformationMessage(text, ...items)
      : level === 'warning'
        ? vscode.window.showWarningMessage(text, ...items)
        : vscode.window.showErrorMessage(text, ...items);
  if (level === 'info') log().info(message);
  else if (level === 'warning') log().warn(message);
  else log().error(message);
  void Promise.resolve(show(message, ...actions.map((a) => a.title))).then(
    (choice) => actions.find((a) => a.title === choice)?.run(),
    () => undefined,
  );
}

export const showLogAction: MessageAction = { title: vscode.l10n.t('Show Log'), run: () => log().show() };
