/** Every command, each run by `runCommand`; loaded on the first command run (`register.ts` registers them at activation). */
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
import { pullAgain, pullAsFiles, pullPlanEntry } from './codePull';
import { openPlanEntry, openSavedPlan, planChanges, planExcludeDeletes, planIncludeDeletes, savePlan } from './codePlan';
import { applyPlanCommand, dryRunPlan } from './objectsAsCode/apply';
import { mergePlanEntry } from './codeMerge';
import { bulkEdit } from './bulk/bulkEdit';
import { retryFailedRun } from './bulk/retryFailedRun';
import { undoRun } from './bulk/undoRun';

const commands: readonly Command[] = [
  addConnection, renameConnection, removeConnection, signIn, signOut, selectConnection, trySandbox,
  refresh, loadMore, loadAll,
  openObject, newObject, deleteObject, showLog,
  inviteUser, sendPushNotification, sendPushNotificationFromFile, addPeople, editScannerPriorities,
  saveDocument, reviewChanges, showSaveHistory, markProduction, unmarkProduction,
  goToObject, revealInTree, followLink, filterGroup, clearGroupFilter, addNote, deleteNote, copyAsCurl, openPrioritiesTable,
  pullAsFiles, pullAgain, pullPlanEntry, planChanges, planIncludeDeletes, planExcludeDeletes, openPlanEntry, savePlan, openSavedPlan,
  applyPlanCommand, dryRunPlan, mergePlanEntry,
  bulkEdit, retryFailedRun, undoRun,
];

const byId = new Map(commands.map((c) => [c.id, c]));

/** Runs the command `id` (one the manifest contributes) with the arguments VS Code passed. */
export function runCommandById(services: Services, id: string, args: unknown[]): Promise<unknown> {
  const command = byId.get(id);
  if (!command) throw new Error(`The command ${id} is contributed but has no implementation`);
  return runCommand(services, command, args);
}
