/**
 * What Bulk Edit…, Retry Failed… and Undo Run… share: the preview (counts, every changed
 * object's diff, the requests as cURL) before anything is sent, then one run through the
 * executor with progress, cancel and a result per object, journalled for Undo Run.
 */
import * as vscode from 'vscode';
import { curlOf } from '../api/curl';
import { countsOf, PreviewEntry, previewChanges } from '../changes/bulk';
import { Change, ChangeResult, runChanges } from '../changes/executor';
import { RunJournal } from '../changes/runJournal';
import type { Connection } from '../connection/connection';
import { prettyJson } from '../model/saveChecks';
import type { Services } from './framework/command';

/** A run of this window, kept so Retry Failed can send exactly what failed or was not sent. */
export interface RunRecord {
  runId: string;
  title: string;
  connectionId: string;
  changes: Change[];
  results: ChangeResult[];
}

const runs: RunRecord[] = [];

export function recentRuns(): readonly RunRecord[] {
  return runs;
}

export function journalOf(s: Services): RunJournal {
  return new RunJournal(vscode.Uri.joinPath(s.context.globalStorageUri, 'runs').fsPath);
}

/** Before/after texts of previews, served read-only to the diff editors. */
const scheme = 'oms-bulk';
const texts = new Map<string, string>();
let provider: vscode.Disposable | undefined;

function textUri(s: Services, path: string, text: string, side?: 'before' | 'after'): vscode.Uri {
  provider ??= vscode.workspace.registerTextDocumentContentProvider(scheme, { provideTextDocumentContent: (uri) => texts.get(uri.toString()) ?? '' });
  if (!s.context.subscriptions.includes(provider)) s.context.subscriptions.push(provider);
  // One path for both sides of a diff (a side in the query), so the diff editor shows no rename.
  const uri = vscode.Uri.from({ scheme, path, ...(side ? { query: side } : {}) });
  texts.set(uri.toString(), text);
  return uri;
}

export function countsText(entries: readonly PreviewEntry[]): string {
  const c = countsOf(entries);
  const parts = [
    vscode.l10n.t('{0} to change', c.change), vscode.l10n.t('{0} no-op', c.noop), vscode.l10n.t('{0} invalid', c.invalid),
    vscode.l10n.t('{0} not applicable', c.notApplicable),
  ];
  if (c.stale) parts.push(vscode.l10n.t('{0} stale (changed since; kept)', c.stale));
  return parts.join(' · ');
}

/** Reads every object with progress (cancellable); undefined when cancelled. */
export async function makePreview(connection: Connection, title: string, changes: Change[]): Promise<PreviewEntry[] | undefined> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const controller = new AbortController();
    token.onCancellationRequested(() => controller.abort());
    let last = 0;
    const entries = await previewChanges(connection.client, changes, {
      signal: controller.signal,
      onEntry: (_e, done, total) => {
        progress.report({ message: vscode.l10n.t('read {0}/{1}', done, total), increment: ((done - last) / total) * 100 });
        last = done;
      },
    });
    return token.isCancellationRequested ? undefined : entries;
  });
}

type PreviewAction = 'apply' | 'applyStop' | 'diffs' | 'list' | 'requests' | 'cancel';

/**
 * Shows the preview until the user applies or cancels: counts in the title, every change's
 * diff, the list of all objects with their status, the requests as cURL.
 * Returns whether to stop at the first error, or undefined (cancelled, nothing sent).
 */
export async function confirmPreview(s: Services, connection: Connection, title: string, entries: PreviewEntry[], runLabel: string): Promise<{ stopOnError: boolean } | undefined> {
  const changed = entries.filter((e) => e.status === 'change');
  const summary = `${title}: ${countsText(entries)}`;
  if (changed.length) await showDiffs(s, title, changed);
  for (;;) {
    const items: Array<vscode.QuickPickItem & { action: PreviewAction }> = [
      ...(changed.length ? [
        { label: `$(check) ${vscode.l10n.t('{0} {1} objects, continue on error', runLabel, changed.length)}`, action: 'apply' as const },
        { label: `$(debug-stop) ${vscode.l10n.t('{0} {1} objects, stop at the first error', runLabel, changed.length)}`, action: 'applyStop' as const },
        { label: `$(diff-multiple) ${vscode.l10n.t('Show the {0} diffs', changed.length)}`, action: 'diffs' as const },
        { label: `$(terminal) ${vscode.l10n.t('Show requests (cURL, without the token)')}`, action: 'requests' as const },
      ] : []),
      { label: `$(list-flat) ${vscode.l10n.t('Show every object and what it would get')}`, action: 'list' },
      { label: `$(close) ${vscode.l10n.t('Cancel: send nothing')}`, action: 'cancel' },
    ];
    const choice = await vscode.window.showQuickPick(items, { title: summary, placeHolder: changed.length ? vscode.l10n.t('Only the changes are sent') : vscode.l10n.t('Nothing to send'), ignoreFocusOut: true });
    switch (choice?.action) {
      case 'apply': return { stopOnError: false };
      case 'applyStop': return { stopOnError: true };
      case 'diffs': await showDiffs(s, title, changed); break;
      case 'list': await showDocument(s, 'preview.txt', entries.map((e) => `${e.status.padEnd(13)} ${e.change.label} (${e.change.key ?? e.change.id})${e.reason ? `: ${e.reason}` : ''}${e.changes.length ? `: ${e.changes.map((c) => `${c.pointer} ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}`).join(', ')}` : ''}`).join('\n'), 'plaintext'); break;
      case 'requests': await showDocument(s, 'requests.sh', await requestsText(connection, changed), 'shellscript'); break;
      default: return undefined;
    }
  }
}

/** The multi-file diff editor where the host has it, else a list with a diff per object. */
async function showDiffs(s: Services, title: string, changed: PreviewEntry[]): Promise<void> {
  const stamp = Date.now().toString(36);
  const pairs = changed.map((e) => {
    const path = `/${stamp}/${e.change.label.replace(/[/\\]/g, '_')}.${e.change.key ?? e.change.id}.json`;
    const after = textUri(s, path, prettyJson(e.after), 'after');
    return [after, textUri(s, path, prettyJson(e.before), 'before'), after] as const;
  });
  try {
    await vscode.commands.executeCommand('vscode.changes', title, pairs);
  } catch {
    const pick = await vscode.window.showQuickPick(changed.map((e, i) => ({ label: e.change.label, description: e.changes.map((c) => c.pointer).join(', '), i })), { title: vscode.l10n.t('Diff of which object?') });
    if (pick) await vscode.commands.executeCommand('vscode.diff', pairs[pick.i][1], pairs[pick.i][2], `${pick.label} (${title})`);
  }
}

/** Per object: the read, the write and the read after, as the executor sends them; the token never appears. */
async function requestsText(connection: Connection, changed: PreviewEntry[]): Promise<string> {
  const lines = [`# ${vscode.l10n.t('Each object is read, written only if still as previewed (after the operation is applied again to that read), and read back. Set TOKEN first.')}`];
  for (const e of changed) {
    const { kind, folderKey, key } = e.change;
    lines.push(`# ${e.change.label}`, await curlOf(connection.info.baseUrl, async (c) => {
      await c.get(kind, folderKey, key!);
      await c.update(kind, { ...e.after!, Key: key, InFolderKey: folderKey });
    }));
  }
  return lines.join('\n') + '\n';
}

/** A read-only document (nothing to save when it is closed). */
async function showDocument(s: Services, name: string, content: string, language: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument(textUri(s, `/${Date.now().toString(36)}/${name}`, content));
  await vscode.window.showTextDocument(await vscode.languages.setTextDocumentLanguage(document, language), { preview: false });
}

/** Sends the changes with progress and cancel, journals each object, and reports the results. */
export async function runWithProgress(s: Services, connection: Connection, title: string, changes: Change[], stopOnError: boolean, of?: string): Promise<RunRecord> {
  const approval = await connection.approveWrites(vscode.l10n.t('{0}: {1} objects', title, changes.length));
  const writer = await journalOf(s).begin({ title, connectionId: connection.id, total: changes.length, ...(of ? { of } : {}) });
  const byId = new Map(changes.map((c) => [c.id, c]));
  const results = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const controller = new AbortController();
    token.onCancellationRequested(() => controller.abort());
    let last = 0;
    return runChanges(connection.client, changes, {
      stopOnError, signal: controller.signal, approval,
      onResult: (r) => {
        void writer.record(byId.get(r.id)!, r);
        const c = byId.get(r.id)!;
        // Open editors of the object follow, as after any save (objects/saves.ts).
        if (r.outcome === 'applied' && r.after && c.key) s.saves.saved({ connectionId: connection.id, folderKey: c.folderKey, kind: c.kind, key: c.key }, r.after);
      },
      onProgress: (p) => {
        const waiting = p.waitingSeconds ? ` · ${vscode.l10n.t('waiting {0} s', p.waitingSeconds)}` : '';
        progress.report({ message: `${p.done}/${p.total} · ${vscode.l10n.t('{0} failed', p.failed)}${waiting}`, increment: ((p.done - last) / p.total) * 100 });
        last = p.done;
      },
    });
  });
  await writer.close();
  const record: RunRecord = { runId: writer.header.runId, title, connectionId: connection.id, changes, results };
  runs.unshift(record);
  s.tree.refresh();
  void reportRun(s, record);
  return record;
}

function resultCounts(results: readonly ChangeResult[]): Record<ChangeResult['outcome'], number> {
  const counts = { applied: 0, unchanged: 0, stale: 0, failed: 0, notSent: 0 };
  for (const r of results) counts[r.outcome]++;
  return counts;
}

function resultsText(results: readonly ChangeResult[]): string {
  const c = resultCounts(results);
  return vscode.l10n.t('{0} applied · {1} failed · {2} not sent · {3} unchanged · {4} stale', c.applied, c.failed, c.notSent, c.unchanged, c.stale);
}

async function reportRun(s: Services, run: RunRecord): Promise<void> {
  const c = resultCounts(run.results);
  const show = vscode.l10n.t('Show Results');
  const retry = vscode.l10n.t('Retry Failed');
  const undo = vscode.l10n.t('Undo Run');
  const message = `${run.title}: ${resultsText(run.results)}`;
  const actions = [show, ...(c.failed + c.notSent ? [retry] : []), ...(c.applied ? [undo] : [])];
  const choice = await (c.failed || c.stale ? vscode.window.showWarningMessage(message, ...actions) : vscode.window.showInformationMessage(message, ...actions));
  if (choice === show) {
    await showDocument(s, 'results.txt', run.results.map((r) => `${r.outcome.padEnd(9)} ${r.label} (${r.id})${r.reason ? `: ${r.reason}` : ''}`).join('\n') + '\n', 'plaintext');
  } else if (choice === retry) {
    await vscode.commands.executeCommand('oms.retryFailedRun', { runId: run.runId });
  } else if (choice === undo) {
    await vscode.commands.executeCommand('oms.undoRun', { runId: run.runId, connectionId: run.connectionId });
  }
}
