/** Every command, registered in one place, each run by `runCommand`. */
import * as vscode from 'vscode';
import { addConnection } from './addConnection';
import { removeConnection, renameConnection, selectConnection, signOut } from './connectionCommands';
import { deleteObject } from './deleteObject';
import { newObject } from './newObject';
import { openObject } from './openObject';
import { runCommand } from './runCommand';
import type { Command, Services } from './services';
import { signIn } from './signIn';
import { loadAll, loadMore, refresh } from './treeCommands';
import { trySandbox } from './trySandbox';
import { showLog } from './showLog';
import { inviteUser } from './inviteUser';
import { sendPushNotification } from './sendPushNotification';
import { sendPushNotificationFromFile } from './sendPushNotificationFromFile';
import { addPeople } from './addPeople';
import { editScannerPriorities } from './editScannerPriorities';
import { saveDocument } from './saveDocument';
import { reviewChanges } from './reviewChanges';
import { showSaveHistory } from './showSaveHistory';
import { markProduction, unmarkProduction } from './markProduction';
import { goToObject } from './goToObject';
import { revealInTree } from './revealInTree';
import { followLink } from './followLink';
import { clearGroupFilter, filterGroup } from './filterGroup';
import { addNote } from './addNote';
import { deleteNote } from './deleteNote';
import { copyAsCurl } from './copyAsCurl';
import { openPrioritiesTable } from './openPrioritiesTable';

const commands: readonly Command[] = [
  addConnection, renameConnection, removeConnection, signIn, signOut, selectConnection, trySandbox,
  refresh, loadMore, loadAll,
  openObject, newObject, deleteObject, showLog,
  inviteUser, sendPushNotification, sendPushNotificationFromFile, addPeople, editScannerPriorities,
  saveDocument, reviewChanges, showSaveHistory, markProduction, unmarkProduction,
  goToObject, revealInTree, followLink, filterGroup, clearGroupFilter, addNote, deleteNote, copyAsCurl, openPrioritiesTable,
];

export function registerCommands(services: Services): vscode.Disposable[] {
  return commands.map((command) => vscode.commands.registerCommand(command.id, (...args: unknown[]) => runCommand(services, command, args)));
}
