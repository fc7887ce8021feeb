/**
 * The run core's host in the editor (the command line's is src/cli/terminalHost.ts): a progress
 * notification with counts and Cancel, the preview's quick pick, notifications, and the save events
 * of `documents/saves.ts` (open editors follow, the tree and Go to Object re-read). Where runs are
 * found: this machine's journal (global storage), the pulled folders' `.oms/runs/` in the workspace,
 * and journal files opened by hand (a CI job's artifact).
 */
import vscode = require('vscode');
import { RunJournal, type RunHeader } from '../changes/runJournal';
import type { Connection } from '../connection/connection';
import { allRuns, folderOfJournal, journalFile, sameService, type FoundRun } from './core/journals';
import type { RunHost, RunView } from './core/run';
import type { Services } from '../services';
import { countProgress } from '../ui/countProgress';
import { notify } from '../ui/notify';
import { confirmPreview, readForPreview, stopChoice } from './preview';
import { reportRun } from './report';

/**
 * What the user sees of a run in the editor.
 * @internal Exported for its unit tests.
 */
export const editorView: RunView = {
  progress: (title, work) =>
    Promise.resolve(
      vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        return work(countProgress(progress), controller.signal);
      }),
    ),
  readForPreview,
  confirm: confirmPreview,
  stopOnError: askStopOnError,
  say: (level, message) => notify(level, message),
  report: reportRun,
};

export function runHost(s: Services): RunHost {
  return {
    view: editorView,
    events: { wrote: (a, object) => s.saves.runWrote(a, object), ended: (written, deleted) => s.saves.runEnded(written, deleted) },
  };
}

/** This machine's journal: runs of objects anywhere (Bulk Edit, and undo and retry of runs kept here). */
export function machineJournal(s: Services): RunJournal {
  return new RunJournal(vscode.Uri.joinPath(s.context.globalStorageUri, 'runs').fsPath);
}

/**
 * Journals this window wrote to or opened by hand outside the workspace's folders (a folder pulled elsewhere, an
 * artifact of a CI job): listed with the others until the window closes.
 */
const opened: RunJournal[] = [];

/** Lists `journal` with the others from now on (an Apply of a pulled folder outside the workspace). */
export function rememberJournal(journal: RunJournal): void {
  if (!opened.some((j) => j.dir === journal.dir)) opened.push(journal);
}

/** Every journal the editor knows: this machine's, the workspace's pulled folders' (`.oms/runs/`), and those opened by hand. */
export async function editorJournals(s: Services): Promise<RunJournal[]> {
  const dirs = new Set<string>();
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file') continue;
    // `null`: the cache folder is found even where files.exclude hides it.
    const files = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/.oms/runs/*.jsonl'), null, 2000);
    for (const file of files) dirs.add(vscode.Uri.joinPath(file, '..').fsPath);
  }
  return [machineJournal(s), ...[...dirs].sort().map((dir) => new RunJournal(dir)), ...opened];
}

/** Asks for a journal file (a run of `oms apply` in CI, handed over as an artifact); undefined when none chosen. */
async function openJournalFile(): Promise<{ journal: RunJournal; runId: string } | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title: vscode.l10n.t('Open a run journal'),
    canSelectMany: false,
    filters: { [vscode.l10n.t('Run journal')]: ['jsonl'] },
  });
  if (!picked?.[0]) return undefined;
  const found = await journalFile(picked[0].fsPath);
  await found.journal.read(found.runId);
  rememberJournal(found.journal);
  return found;
}

/**
 * A run picked from every journal (`matches`: the runs offered), or a journal file opened by hand.
 * Throws CancellationError when nothing is picked.
 */
export async function pickRun(
  s: Services,
  title: string,
  matches: (run: FoundRun) => boolean,
  describe: (run: FoundRun) => string,
): Promise<{ journal: RunJournal; runId: string }> {
  const runs = (await allRuns(await editorJournals(s))).filter(matches);
  const open = {
    label: `$(folder-opened) ${vscode.l10n.t('Open a run journal…')}`,
    detail: vscode.l10n.t('A .jsonl file a run wrote (oms apply in CI keeps it in the folder’s .oms/runs/)'),
  };
  const items = [
    ...runs.map((r) => ({
      label: r.header.title,
      description: `${new Date(r.header.startedAt).toLocaleString()} · ${whereText(r)}`,
      detail: describe(r),
      run: r,
    })),
    open,
  ];
  const pick = await vscode.window.showQuickPick<vscode.QuickPickItem & { run?: FoundRun }>(items, { title, matchOnDescription: true });
  if (!pick) throw new vscode.CancellationError();
  if (pick.run) return { journal: pick.run.journal, runId: pick.run.header.runId };
  const found = await openJournalFile();
  if (!found) throw new vscode.CancellationError();
  return found;
}

/** Where a run's journal is: a folder of the workspace, or this machine. */
function whereText(run: FoundRun): string {
  const root = folderOfJournal(run.journal);
  return root ? vscode.workspace.asRelativePath(root, true) : opened.includes(run.journal) ? run.journal.dir : vscode.l10n.t('this machine');
}

/** The editor's connection for a run: the one it was made with, else one to the same service (a run of the command line). */
export function connectionFor(s: Services, header: RunHeader): Connection | undefined {
  return s.connections.get(header.connectionId) ?? s.connections.all().find((c) => sameService(header, c));
}

/** Stop at the first error, or go on? Asked here for every run not previewed first (Apply, a batch add, their retries). */
async function askStopOnError(title: string, verb: string, placeHolder?: string): Promise<boolean> {
  const stop = { label: stopChoice(verb, true), stop: true };
  const go = { label: stopChoice(verb, false), stop: false };
  const picked = await vscode.window.showQuickPick([stop, go], { title, placeHolder, ignoreFocusOut: true });
  if (!picked) throw new vscode.CancellationError();
  return picked.stop;
}
