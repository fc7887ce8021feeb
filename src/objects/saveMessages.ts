/**
 * What the user reads about a save, each message written once: saved,
 * unchanged, a conflict, a refusal (with the action that helps). Every save
 * surface (editor, priorities table, quick edit, Restore) words its outcome
 * through these.
 */
import * as vscode from 'vscode';
import { compareWithServer } from '../fs/serverVersion';
import type { Refusal, SaveOutcome } from '../save/outcome';
import type { BaseInfo } from '../model/types';
import { notify, MessageAction } from '../ui/notify';

type NotSaved = Exclude<SaveOutcome, { status: 'saved' | 'unchanged' }>;

export function savedText(name: string, object: BaseInfo, created = false): string {
  return created
    ? vscode.l10n.t('Created "{0}" (version {1})', object.CommonName ?? name, String(object.ConcurrencyVersion))
    : vscode.l10n.t('Saved "{0}" (version {1})', object.CommonName ?? name, String(object.ConcurrencyVersion));
}

export function unchangedText(name: string): string {
  return vscode.l10n.t('"{0}": no changes to send', name);
}

/** A save merged with the server's changes: which fields it took in. */
export function mergedText(name: string, object: BaseInfo, tookTheirs: readonly string[]): string {
  const fields = tookTheirs.map((p) => p.slice(1)).join(', ') || vscode.l10n.t('none');
  return vscode.l10n.t('Saved "{0}" (version {1}), merged with the server\'s changes to: {2}', object.CommonName ?? name, String(object.ConcurrencyVersion), fields);
}

/** The one wording of a conflict: whose version is where. */
export function conflictText(name: string, server: BaseInfo, base: number | null): string {
  return vscode.l10n.t('"{0}" changed on the server (now version {1}; your edit is based on version {2}).', name, String(server.ConcurrencyVersion), String(base));
}

export function notSavedText(name: string, outcome: NotSaved): string {
  return notSavedBecause(name, outcome.status === 'conflict' ? conflictText(name, outcome.server, outcome.base) : outcome.refusal.message);
}

/** A save not sent, and why (also for an edit refused before it became a save). */
export function notSavedBecause(name: string, reason: string): string {
  return vscode.l10n.t('"{0}" not saved: {1}', name, reason);
}

export interface ReportPlace {
  /** The document saved: Compare and Show Problems act on it. */
  uri?: vscode.Uri;
  connectionId?: string;
}

/** Says, in one notification with the actions that help, why a save was not sent. */
export function reportNotSaved(outcome: NotSaved, name: string, place: ReportPlace = {}): void {
  if (outcome.status === 'refused' && outcome.refusal.kind === 'cancelled') {
    vscode.window.setStatusBarMessage(vscode.l10n.t('"{0}" not sent: cancelled', name), 5000);
    return;
  }
  const actions: MessageAction[] = outcome.status === 'conflict' ? compareAction(place) : refusalActions(outcome.refusal, place);
  notify(outcome.status === 'conflict' ? 'warning' : 'error', notSavedText(name, outcome), ...actions);
}

function compareAction(place: ReportPlace): MessageAction[] {
  const uri = place.uri;
  return uri ? [{ title: vscode.l10n.t('Compare'), run: () => compareWithServer(uri) }] : [];
}

function refusalActions(refusal: Refusal, place: ReportPlace): MessageAction[] {
  const actions: MessageAction[] = [];
  if (refusal.kind === 'invalid' || refusal.kind === 'identity' || refusal.kind === 'notStored') {
    actions.push({ title: vscode.l10n.t('Show Problems'), run: () => vscode.commands.executeCommand('workbench.actions.view.problems') });
  }
  if (refusal.kind === 'auth' && place.connectionId) {
    const id = place.connectionId;
    actions.push({ title: vscode.l10n.t('Sign In'), run: () => vscode.commands.executeCommand('oms.signIn', id) });
  }
  if (refusal.kind === 'server') actions.push(...compareAction(place));
  return actions;
}
