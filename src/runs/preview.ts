/**
 * The preview of a run, before anything is sent: every object read (progress, cancel), the counts,
 * diffs opened on demand a few at a time (a preview of 10,000 objects opens none by itself), the
 * list of all objects, and the requests as cURL (no token, no secret field).
 */
import vscode = require('vscode');
import { curlOf } from '../api/curl';
import type { PreviewEntry } from '../changes/bulk';
import type { Connection } from '../connection/connection';
import { prettyJson } from '../model/saveChecks';
import type { BaseInfo } from '../model/types';
import { hideSecrets, secretShown } from '../model/secrets';
import type { PreviewWords, ShowProgress } from './core/run';
import { countProgress } from '../ui/countProgress';
import { objectsText, previewCountsText } from './core/words';
import { forgetRunTexts, runTextUri, showReadOnly } from './documents';
import { fieldLabel, fieldLabels } from '../model/fieldNames';

/** Diffs opened together at most (the multi-diff editor, or by the picker). */
const diffsAtOnce = 20;

type PreviewAction = 'apply' | 'applyStop' | 'diffs' | 'list' | 'requests' | 'notes' | 'said' | 'cancel';

/** The stop-or-continue choice in the words every run uses: a preview's go-ahead and the host's own question (vscodeHost.ts). */
export function stopChoice(verb: string, stop: boolean): string {
  return stop ? vscode.l10n.t('{0}, stop at the first error', verb) : vscode.l10n.t('{0}, continue after errors', verb);
}

/** The reading's quick input, kept open until the preview takes its place (`readForPreview`). */
let reading: vscode.QuickPick<vscode.QuickPickItem> | undefined;
let readingTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * The reading before a preview, its count in a busy quick input (Escape cancels it) that the preview then takes
 * over. The quick input never closes between the user's last answer and the preview, so VS Code does not hand the
 * keyboard back to the editor behind meanwhile: a webview (the query results) takes it back late, after the preview
 * has opened, and the preview's Enter went to the webview.
 */
export async function readForPreview<T>(title: string, work: (show: ShowProgress, signal: AbortSignal) => Promise<T>): Promise<T> {
  const pick = vscode.window.createQuickPick();
  pick.title = title;
  pick.placeholder = vscode.l10n.t('Reading the objects…');
  pick.busy = true;
  pick.ignoreFocusOut = true;
  const controller = new AbortController();
  let done = false;
  pick.onDidHide(() => {
    if (!done) controller.abort();
  });
  pick.show();
  try {
    const result = await work(countProgress({ report: ({ message }) => (pick.placeholder = message) }), controller.signal);
    if (result !== undefined && !controller.signal.aborted) {
      letGo();
      reading = pick;
      // A reading that ends in no preview lets go of it soon.
      readingTimer = setTimeout(() => reading === pick && letGo(), 5_000);
    }
    return result;
  } finally {
    done = true;
    if (reading !== pick) pick.dispose();
  }
}

function letGo(): void {
  clearTimeout(readingTimer);
  reading?.dispose();
  reading = undefined;
}

/**
 * Shows the preview until the user sends or cancels. Returns whether to stop at the first
 * error, or undefined (cancelled, nothing sent).
 */
export async function confirmPreview(
  connection: Connection,
  title: string,
  entries: PreviewEntry[],
  words: PreviewWords,
): Promise<{ stopOnError: boolean } | undefined> {
  const changed = entries.filter((e) => e.status === 'change');
  const n = changed.length;
  const notes = words.notes ?? [];
  forgetRunTexts();
  if (n && n <= diffsAtOnce) await showDiffs(title, changed);
  for (;;) {
    const what = words.objects?.(changed) ?? objectsText(n);
    const items: Array<vscode.QuickPickItem & { action: PreviewAction }> = [
      ...(n
        ? [
            { label: `$(check) ${stopChoice(`${words.runLabel} ${what}`, false)}`, action: 'apply' as const },
            { label: `$(debug-stop) ${stopChoice(`${words.runLabel} ${what}`, true)}`, action: 'applyStop' as const },
            { label: `$(diff-multiple) ${n === 1 ? vscode.l10n.t('Show the diff') : vscode.l10n.t('Show the {0} diffs', n)}`, action: 'diffs' as const },
            { label: `$(terminal) ${vscode.l10n.t('Show requests (cURL, without the token or secrets)')}`, action: 'requests' as const },
          ]
        : []),
      ...(notes.length ? [{ label: `$(warning) ${vscode.l10n.t('What cannot be done, per object ({0})', notes.length)}`, action: 'notes' as const }] : []),
      { label: `$(list-flat) ${vscode.l10n.t('Show every object and what it would get')}`, action: 'list' },
      ...(words.lines ?? []).map((line) => ({ label: `$(info) ${line}`, action: 'said' as const })),
      { label: `$(close) ${vscode.l10n.t('Cancel: send nothing')}`, action: 'cancel' },
    ];
    const shown = vscode.window.showQuickPick(items, {
      title: `${title}: ${previewCountsText(entries)}`,
      placeHolder: n ? vscode.l10n.t('Only the changes are sent') : vscode.l10n.t('Nothing to send'),
      ignoreFocusOut: true,
    });
    // Shown in the reading's place (VS Code replaced it): letting go of it now closes nothing.
    letGo();
    const choice = await shown;
    switch (choice?.action) {
      case 'apply':
        return { stopOnError: false };
      case 'applyStop':
        return { stopOnError: true };
      case 'diffs':
        await showDiffs(title, changed);
        break;
      case 'list':
        await showReadOnly('preview.txt', entries.map(entryLine).join('\n') + '\n', 'plaintext');
        break;
      case 'notes':
        await showReadOnly('cannot.txt', notes.map((x) => `${x.label}: ${x.note}`).join('\n') + '\n', 'plaintext');
        break;
      case 'requests':
        await showReadOnly('requests.sh', await requestsText(connection, changed), 'shellscript');
        break;
      case 'said':
        break;
      default:
        return undefined;
    }
  }
}

function entryLine(e: PreviewEntry): string {
  const fields = e.changes.map((c) => `${fieldLabel(c.pointer)} ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}`).join(', ');
  return `${e.status.padEnd(13)} ${e.change.label} (${e.change.key ?? e.change.id})${e.reason ? `: ${e.reason}` : ''}${fields ? `: ${fields}` : ''}`;
}

/** A few diffs at once: all of them in the multi-diff editor when few, else the objects picked (up to `diffsAtOnce`). */
async function showDiffs(title: string, changed: PreviewEntry[]): Promise<void> {
  let chosen = changed;
  if (changed.length > diffsAtOnce) {
    const items = changed.map((e) => ({ label: e.change.label, description: fieldLabels(e.changes.map((c) => c.pointer)), e }));
    const picks = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Diffs of which objects? (up to {0} at once)', diffsAtOnce),
      canPickMany: true,
      matchOnDescription: true,
    });
    if (!picks?.length) return;
    chosen = picks.slice(0, diffsAtOnce).map((p) => p.e);
  }
  const stamp = Date.now().toString(36);
  const pairs = chosen.map((e) => {
    const path = `/${stamp}/${e.change.label.replace(/[/\\]/g, '_')}.${e.change.key ?? e.change.id}.json`;
    const kind = e.change.kind;
    // A create has nothing before it, a delete nothing after it: that side is empty.
    const text = (o: BaseInfo | undefined) => (o ? prettyJson(hideSecrets(kind, o, secretShown)) : '');
    const after = runTextUri(path, text(e.change.op === 'delete' ? undefined : e.after), 'after');
    return [after, runTextUri(path, text(e.before), 'before'), after] as const;
  });
  try {
    await vscode.commands.executeCommand('vscode.changes', title, pairs);
  } catch {
    for (const [, before, after] of pairs.slice(0, 3)) await vscode.commands.executeCommand('vscode.diff', before, after, title);
  }
}

/**
 * Per object: the read, the write and the read after, as the executor sends them; the token
 * never appears, and a secret field only as a placeholder.
 * @internal Exported for its unit test.
 */
export async function requestsText(connection: Connection, changed: PreviewEntry[]): Promise<string> {
  const intro = vscode.l10n.t(
    'Each object is read, written only if still as previewed (after the operation is applied again to that read), and read back. Set TOKEN first.',
  );
  const lines = [`# ${intro}`];
  for (const e of changed) {
    const { kind, folderKey, key } = e.change;
    const body = hideSecrets(kind, e.after, secretShown);
    lines.push(
      `# ${e.change.label}`,
      await curlOf(connection.info.baseUrl, async (c) => {
        if (e.change.op === 'create') return c.create(kind, folderKey, body!);
        await c.get(kind, folderKey, key!);
        if (e.change.op === 'delete') return c.delete(kind, folderKey, key!);
        await c.update(kind, { ...body!, Key: key, InFolderKey: folderKey });
      }),
    );
  }
  return lines.join('\n') + '\n';
}
