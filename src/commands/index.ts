/** Every command, each run by `runCommand`; loaded on the first command run (`register.ts` registers them at activation). */
import { addConnection } from './connections/addConnection';
import { removeConnection, renameConnection, selectConnection, signOut } from './connections/connectionCommands';
import { deleteObject } from './objects/deleteObject';
import { newObject } from './objects/newObject';
import { openObject } from './objects/openObject';
import { runCommand } from './framework/runCommand';
import type { Command, Services } from './framework/command';
import { signIn } from './connections/signIn';
import { loadAll, loadMore, refresh } from './navigation/treeCommands';
import { trySandbox } from './connections/trySandbox';
import { showLog } from './framework/showLog';
import { inviteUser } from './objects/inviteUser';
import { sendPushNotification } from './push/sendPushNotification';
import { sendPushNotificationFromFile } from './push/sendPushNotificationFromFile';
import { addPeople } from './people/addPeople';
import { editScannerPriorities } from './scanners/editScannerPriorities';
import { saveDocument } from './objects/saveDocument';
import { reviewChanges } from './objects/reviewChanges';
import { showSaveHistory } from './objects/showSaveHistory';
import { markProduction, unmarkProduction } from './connections/markProduction';
import { goToObject } from './navigation/goToObject';
import { findObjectsWhere } from './navigation/findObjectsWhere';
import { runQuery } from './navigation/runQuery';
import { newQueryFile } from './navigation/newQueryFile';
import { revealInTree } from './navigation/revealInTree';
import { followLink } from './navigation/followLink';
import { clearGroupFilter, filterGroup } from './navigation/filterGroup';
import { addNote } from './objects/addNote';
import { deleteNote } from './objects/deleteNote';
import { copyAsCurl } from './objects/copyAsCurl';
import { openPrioritiesTable } from './scanners/openPrioritiesTable';
import { pullAgain, pullAsFiles, pullPlanEntry } from './objectsAsCode/codePull';
import { openPlanEntry, openSavedPlan, planChanges, planExcludeDeletes, planIncludeDeletes, savePlan, togglePlanTick } from './objectsAsCode/codePlan';
import { applyPlanCommand, dryRunPlan } from './objectsAsCode/apply';
import { mergePlanEntry } from './objectsAsCode/codeMerge';
import { bulkEdit } from './bulk/bulkEdit';
import { retryFailedRun } from './bulk/retryFailedRun';
import { undoRun } from './bulk/undoRun';
import { showRun } from './bulk/showRun';
import { l10n } from '../l10n';

const commands: readonly Command[] = [
  addConnection,
  renameConnection,
  removeConnection,
  signIn,
  signOut,
  selectConnection,
  trySandbox,
  refresh,
  loadMore,
  loadAll,
  openObject,
  newObject,
  deleteObject,
  showLog,
  inviteUser,
  sendPushNotification,
  sendPushNotificationFromFile,
  addPeople,
  editScannerPriorities,
  saveDocument,
  reviewChanges,
  showSaveHistory,
  markProduction,
  unmarkProduction,
  goToObject,
  findObjectsWhere,
  runQuery,
  newQueryFile,
  revealInTree,
  followLink,
  filterGroup,
  clearGroupFilter,
  addNote,
  deleteNote,
  copyAsCurl,
  openPrioritiesTable,
  pullAsFiles,
  pullAgain,
  pullPlanEntry,
  planChanges,
  togglePlanTick,
  planIncludeDeletes,
  planExcludeDeletes,
  openPlanEntry,
  savePlan,
  openSavedPlan,
  applyPlanCommand,
  dryRunPlan,
  mergePlanEntry,
  bulkEdit,
  retryFailedRun,
  undoRun,
  showRun,
];

const byId = new Map(commands.map((c) => [c.id, c]));

/** Runs the command `id` (one the manifest contributes) with the arguments VS Code passed. */
export function runCommandById(services: Services, id: string, args: unknown[]): Promise<unknown> {
  const command = byId.get(id);
  if (!command) throw new Error(l10n.t('The command {0} is contributed but has no implementation', id));
  return runCommand(services, command, args);
}
