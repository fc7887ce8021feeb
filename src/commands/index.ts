/** Every command, registered in one place. */
import * as vscode from 'vscode';
import { addConnection } from './addConnection';
import { removeConnection, renameConnection, selectConnection, signOut } from './connectionCommands';
import { deleteObject } from './deleteObject';
import { newObject } from './newObject';
import { openObject } from './openObject';
import { guarded } from './reportError';
import type { Command, Services } from './services';
import { signIn } from './signIn';
import { loadAll, loadMore, refresh, retry } from './treeCommands';
import { trySandbox } from './trySandbox';
import { showLog } from './showLog';
import { inviteUser } from './inviteUser';
import { sendPushNotification } from './sendPushNotification';
import { sendPushNotificationFromFile } from './sendPushNotificationFromFile';
import { addPeople } from './addPeople';
import { editScannerPriorities } from './editScannerPriorities';
import { goToObject } from './goToObject';
import { revealInTree } from './revealInTree';
import { followLink } from './followLink';
import { clearGroupFilter, filterGroup } from './filterGroup';
import { addNote } from './addNote';
import { deleteNote } from './deleteNote';
import { copyAsCurl } from './copyAsCurl';
import { openPrioritiesTable } from './openPrioritiesTable';

export const commands: readonly Command[] = [
  addConnection, renameConnection, removeConnection, signIn, signOut, selectConnection, trySandbox,
  refresh, retry, loadMore, loadAll,
  openObject, newObject, deleteObject, showLog,
  inviteUser, sendPushNotification, sendPushNotificationFromFile, addPeople, editScannerPriorities,
  goToObject, revealInTree, followLink, filterGroup, clearGroupFilter, addNote, deleteNote, copyAsCurl, openPrioritiesTable,
];

export function registerCommands(services: Services): vscode.Disposable[] {
  return commands.map((command) =>
    vscode.commands.registerCommand(command.id, (...args: unknown[]) =>
      // Errors become a message with the reason, never an unhandled rejection.
      guarded(titleOf(command.id), async () => command.run(services, ...args)),
    ),
  );
}

function titleOf(id: string): string {
  const words = id.replace(/^oms\./, '').replace(/([A-Z])/g, ' $1').toLowerCase();
  return `Could not ${words}`;
}
