/**
 * Retry Failed…: a run of this window sent again for exactly its failed and not-sent objects,
 * previewed again first (each object is read again; nothing is resent blindly).
 * Args: `{ runId? }` (else the newest run of this window with failures).
 */
import * as vscode from 'vscode';
import { confirmPreview, makePreview, recentRuns, runWithProgress } from './bulkRun';
import type { Command } from './framework/command';

export const retryFailedRun: Command = {
  id: 'oms.retryFailedRun',
  async run(s, args?: { runId?: string }) {
    const unfinished = (r: (typeof runs)[number]) => r.results.some((x) => x.outcome === 'failed' || x.outcome === 'notSent');
    const runs = recentRuns();
    const run = args?.runId ? runs.find((r) => r.runId === args.runId) : runs.find(unfinished);
    if (!run || !unfinished(run)) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No run of this window has failed or unsent objects.'));
      return;
    }
    const connection = s.connections.require(run.connectionId);
    const again = new Set(run.results.filter((x) => x.outcome === 'failed' || x.outcome === 'notSent').map((x) => x.id));
    const changes = run.changes.filter((c) => again.has(c.id));
    const title = vscode.l10n.t('Retry of {0} objects of “{1}”', changes.length, run.title);
    const entries = await makePreview(connection, title, changes);
    if (!entries) return;
    const confirmed = await confirmPreview(s, connection, title, entries, vscode.l10n.t('Send again to'));
    if (!confirmed) return;
    const toSend = new Set(entries.filter((e) => e.status === 'change').map((e) => e.change.id));
    await runWithProgress(s, connection, title, changes.filter((c) => toSend.has(c.id)), confirmed.stopOnError, run.runId);
  },
};
