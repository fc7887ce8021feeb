/**
 * Pull as Files… (a connection, a folder with or without its subfolders, or a
 * group), Pull Again (the folder named, else one of the pulled folders) and
 * Pull on one entry of the plan (an object that moved on the server). Files
 * edited since the last pull are overwritten only when the user says so.
 */
import * as path from 'node:path';
import vscode = require('vscode');
import { objectsText } from '../../runs/core/words';
import { checkBinding, readManifest } from '../../changes/code/manifest';
import type { PullScope } from '../../changes/code/manifest';
import type { PullReport } from '../../changes/code/pull';
import { editsSincePull, pull, scopeChange } from '../../changes/code/pull';
import { startPullThreads } from '../../changes/code/pullWriter';
import { slug } from '../../changes/code/fileForm';
import type { Connection } from '../../connection/connection';
import { type KindId, pulledKinds } from '../../model/kinds';
import { log } from '../../log';
import { notify } from '../../ui/notify';
import { runWizard, type WizardStep } from '../../ui/wizard';
import { kindsLabel } from '../../l10n';
import { planView } from '../../views/planView';
import { bindingFor, planEntryTarget, pulledFolderTarget, withCancellableProgress } from './codeFolder';
import { folderTarget, targeted } from '../framework/commandTargets';
import { namedBy } from '../framework/namedBy';

export const pullAsFiles = targeted({
  id: 'oms.pullAsFiles',
  target: folderTarget,
  async run(_s, { connection, folderKey }, arg?: unknown, options?: PullAsFilesOptions): Promise<PullReport> {
    startPullThreads();
    const given = namedBy(arg);
    const isConnection = given.folderKey === undefined && given.connectionId !== undefined;
    const choice: PullChoice = {
      kinds: options?.kinds ?? (given.kind && [given.kind.id]),
      recursive: options?.recursive ?? (given.kind ? false : isConnection ? true : undefined),
      root: options?.root,
    };
    const destinations = choice.root === undefined ? await destinationsOf(connection) : [];
    await runWizard(vscode.l10n.t('Pull as Files from {0}', connection.info.label), choice, [kindsStep, recursiveStep, destinationStep(destinations)]);
    const root = choice.root || (await chooseFolder());
    const only = options?.only && new Set(options.only);
    return runPull(connection, root, { folderKey, recursive: choice.recursive!, kinds: choice.kinds! }, options?.overwriteEdits, only);
  },
});

/**
 * Pull as Files' second argument (scripts, tests, the query results): the destination, the scope's kinds and
 * subfolders, and `only`: these objects' Keys alone are written (the results of a query), the folder's scope as given.
 */
interface PullAsFilesOptions {
  root?: string;
  recursive?: boolean;
  overwriteEdits?: boolean;
  kinds?: KindId[];
  only?: string[];
}

export const pullAgain = targeted({
  id: 'oms.pullAgain',
  target: pulledFolderTarget,
  async run(_s, { root, connection }, _arg?: unknown, options?: { overwriteEdits?: boolean }): Promise<PullReport> {
    startPullThreads();
    const report = await runPull(connection, root, undefined, options?.overwriteEdits);
    if (planView.current?.root === root) await vscode.commands.executeCommand('oms.plan', vscode.Uri.file(root));
    return report;
  },
});

/** Pull one object of the plan (behind or stale: the server's version replaces the file, after a yes for a stale one). */
export const pullPlanEntry = targeted({
  id: 'oms.pullPlanEntry',
  target: planEntryTarget,
  async run(_s, { entry, shown, connection }): Promise<PullReport | undefined> {
    if (entry.action === 'stale') {
      const discard = vscode.l10n.t('Discard My Edit');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t("Take the server's version of {0}? Your edit of {1} is replaced.", entry.label, entry.path),
        { modal: true },
        discard,
      );
      if (choice !== discard) return undefined;
    }
    const only = new Set([entry.key ?? '']);
    const report = await pull(connection.client, shown.root, await bindingFor(connection), { only, overwriteEdits: true });
    await vscode.commands.executeCommand('oms.plan', vscode.Uri.file(shown.root));
    return report;
  },
});

async function runPull(
  connection: Connection,
  root: string,
  scope: PullScope | undefined,
  overwrite?: boolean,
  only?: ReadonlySet<string>,
): Promise<PullReport> {
  const binding = await bindingFor(connection);
  // Refused before any question: a folder of another connection, or another pull's objects with edits.
  const existing = await readManifest(root);
  if (existing) checkBinding(existing, binding);
  const change = existing && scope ? scopeChange(root, existing, scope) : undefined;
  if (change?.edited.length) throw change;
  if (change) {
    const replace = vscode.l10n.t('Replace Them');
    if ((await vscode.window.showWarningMessage(change.message, { modal: true }, replace)) !== replace) throw new vscode.CancellationError();
  }
  const edits = await editsSincePull(root);
  let overwriteEdits = overwrite ?? false;
  if (overwrite === undefined && edits.length) {
    const keep = vscode.l10n.t('Keep My Edits'),
      replace = vscode.l10n.t('Overwrite Them');
    const choice = await vscode.window.showWarningMessage(
      edits.length === 1
        ? vscode.l10n.t('{0} was edited or deleted since the last pull.', edits[0])
        : vscode.l10n.t('{0} files were edited or deleted since the last pull (for example {1}).', edits.length, edits[0]),
      { modal: true, detail: vscode.l10n.t("Keep them and pull the rest, or replace them with the server's version.") },
      keep,
      replace,
    );
    if (!choice) throw new vscode.CancellationError();
    overwriteEdits = choice === replace;
  }
  const report = await withCancellableProgress(vscode.l10n.t('Pulling from {0}', connection.info.label), (say, signal) =>
    pull(connection.client, root, binding, {
      scope,
      overwriteEdits,
      only,
      signal,
      replaceScope: !!change,
      onProgress: (p) => say(`${objectsText(p.objects)} · ${filesWritten(p.written)}`),
    }),
  );
  const where = vscode.workspace.asRelativePath(root);
  const planAction = { title: vscode.l10n.t('Plan Changes'), run: () => vscode.commands.executeCommand('oms.plan', vscode.Uri.file(root)) };
  if (report.refused.length) {
    const more = report.refused.length - 1;
    notify('warning', more ? vscode.l10n.t('{0} (and {1} more: see the log)', report.refused[0], more) : report.refused[0]);
    for (const line of report.refused) log().warn(line);
  }
  if (report.cancelled) {
    // Pull Again of this folder, whichever plan the view shows by then.
    const again = { title: vscode.l10n.t('Pull Again'), run: () => vscode.commands.executeCommand('oms.pullAgain', vscode.Uri.file(root)) };
    notify(
      'warning',
      vscode.l10n.t('Pull of {0} cancelled after {1} ({2}): Pull Again finishes it.', where, objectsText(report.objects), filesWritten(report.written)),
      again,
    );
  } else {
    const kept =
      report.keptEdits.length === 1
        ? ` ${vscode.l10n.t('1 edited file kept.')}`
        : report.keptEdits.length
          ? ` ${vscode.l10n.t('{0} edited files kept.', report.keptEdits.length)}`
          : '';
    const pulled = vscode.l10n.t(
      'Pulled {0} into {1}: {2}, {3} removed.{4}',
      objectsText(report.objects),
      where,
      filesWritten(report.written),
      report.removed,
      kept,
    );
    notify('info', pulled, planAction);
  }
  return report;
}

const filesWritten = (n: number): string => (n === 1 ? vscode.l10n.t('1 file written') : vscode.l10n.t('{0} files written', n));

/** What Pull as Files asks, where its arguments leave it open; a root of '' is "Choose a Folder…". */
interface PullChoice {
  kinds?: PullScope['kinds'];
  recursive?: boolean;
  root?: string;
}

const kindsStep: WizardStep<PullChoice> = {
  shouldPrompt: (c) => c.kinds === undefined,
  async prompt(c, ask) {
    const items = pulledKinds.map((k) => ({ label: kindsLabel(k), id: k.id }));
    const chosen = c.kinds ? items.filter((i) => c.kinds!.includes(i.id)) : items;
    const { selected } = await ask.pickMany({
      items,
      selected: chosen,
      placeholder: vscode.l10n.t('Kinds of objects to pull'),
      check: (picked) => (picked.length ? undefined : vscode.l10n.t('Tick at least one kind')),
    });
    c.kinds = selected.map((p) => p.id);
  },
};

const recursiveStep: WizardStep<PullChoice> = {
  shouldPrompt: (c) => c.recursive === undefined,
  async prompt(c, ask) {
    const items = [
      { label: vscode.l10n.t('This folder only'), recursive: false },
      { label: vscode.l10n.t('This folder and its subfolders'), recursive: true },
    ];
    c.recursive = (await ask.pick({ items, placeholder: vscode.l10n.t('Which folders?'), active: items.find((i) => i.recursive === c.recursive) })).recursive;
  },
};

const destinationStep = (items: ReadonlyArray<vscode.QuickPickItem & { root?: string }>): WizardStep<PullChoice> => ({
  shouldPrompt: (c) => c.root === undefined,
  async prompt(c, ask) {
    c.root = (await ask.pick({ items, placeholder: vscode.l10n.t('Pull into which folder? (files meant for git)') })).root ?? '';
  },
});

/** Folders offered as pulled before: the most recently pulled first (its manifest written last), at most this many. */
const pulledBeforeMax = 20;

/** A workspace folder's `oms/<connection>`, the folders pulled from this connection before, and "Choose a Folder…". */
async function destinationsOf(connection: Connection): Promise<Array<vscode.QuickPickItem & { root?: string }>> {
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const items: Array<vscode.QuickPickItem & { root?: string }> = [];
  if (workspace) {
    const suggested = path.join(workspace, 'oms', slug(connection.info.label));
    items.push({ label: vscode.workspace.asRelativePath(suggested), description: vscode.l10n.t('in this workspace'), root: suggested });
  }
  const manifests = await vscode.workspace.findFiles('**/oms.manifest.json', '**/node_modules/**', 10_000);
  const pulledAt = new Map(
    await Promise.all(
      manifests.map(
        async (u) =>
          [
            u,
            await vscode.workspace.fs.stat(u).then(
              (s) => s.mtime,
              () => 0,
            ),
          ] as const,
      ),
    ),
  );
  let offered = 0;
  for (const u of manifests.sort((a, b) => pulledAt.get(b)! - pulledAt.get(a)!)) {
    if (offered >= pulledBeforeMax) break;
    const root = path.dirname(u.fsPath);
    // Its binding alone: no object of a large folder is parsed.
    const m = await readManifest(root, []).catch(() => undefined);
    if (m?.connection.url === connection.info.baseUrl && !items.some((i) => i.root === root)) {
      items.push({ label: vscode.workspace.asRelativePath(root), description: vscode.l10n.t('pulled before'), root });
      offered++;
    }
  }
  items.push({ label: vscode.l10n.t('$(folder-opened) Choose a Folder…') });
  return items;
}

async function chooseFolder(): Promise<string> {
  const chosen = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: vscode.l10n.t('Pull Here') });
  if (!chosen?.[0]) throw new vscode.CancellationError();
  return chosen[0].fsPath;
}
