/**
 * Quick edit of an input scanner's eight reporting priorities: pick a range
 * (label, resistance range, priority, status), type its new priority, pick its
 * status code by name. Saving uses the save operation (save/saveObject.ts)
 * with the version shown as its base: when the scanner changed meanwhile,
 * nothing is written and the user is offered Reload.
 *
 * Args (tests, scripts; no prompts):
 *   executeCommand('oms.editScannerPriorities', {
 *     connectionId, folderKey, key,
 *     index: 0..7,                 // which reporting priority
 *     priority?: number, statusCode?: number,   // unchanged when left out
 *     expectedVersion?: number,    // the ConcurrencyVersion the edit is based on (default: the one read now)
 *   })
 * Returns `{ ok: true, changed }` or `{ ok: false, reason, conflict?, serverVersion? }`.
 */
import vscode = require('vscode');
import { rangeText, wholeNumberProblem, withRow } from '../../model/priorities';
import { statusCodeLabels, statusLabel } from '../../model/statusCodes';
import type { InputScannerInfo } from '../../model/types';
import { conflictText, notSavedBecause, notSavedText, savedText } from '../../documents/saves';
import { mergedText } from '../../documents/mergedText';
import { ObjectTarget, objectTarget, targeted } from '../framework/commandTargets';
import { MultiStepInput, Step } from '../../ui/multiStepInput';
import { notify, showLogAction } from '../../ui/notify';
import type { Services } from '../framework/command';

export interface EditPrioritiesArgs {
  connectionId?: string;
  folderKey?: string;
  key?: string;
  index: number;
  priority?: number;
  statusCode?: number;
  expectedVersion?: number | null;
}

export type EditPrioritiesResult =
  { ok: true; changed: boolean } | { ok: false; reason: string; conflict?: boolean; serverVersion?: number | null; cancelled?: boolean };

function checkPriority(text: string): string | undefined {
  const v = text.trim();
  if (!/^-?\d+$/.test(v)) return vscode.l10n.t('Enter a whole number');
  const problem = wholeNumberProblem(Number(v));
  return problem && vscode.l10n.t('The priority {0}', problem);
}

const rangeOf = (p: { MinResistanceCode: number; MaxResistanceCode: number }) => rangeText(p.MinResistanceCode, p.MaxResistanceCode);

const isArgs = (t: unknown): t is EditPrioritiesArgs => !!t && typeof t === 'object' && 'index' in t;

export const editScannerPriorities = targeted({
  id: 'oms.editScannerPriorities',
  target: (s, arg) => objectTarget(s, 'inputScanner', arg),
  async run(s, scanner: ObjectTarget, arg?: unknown): Promise<EditPrioritiesResult | undefined> {
    if (isArgs(arg)) return editFromArgs(s, scanner, arg);

    for (;;) {
      const shown = await scanner.connection.client.get<InputScannerInfo>(scanner.kind, scanner.folderKey, scanner.key);
      const edit = await askEdit(scanner, shown);
      const result = await save(s, scanner, shown, shown.ConcurrencyVersion ?? null, edit.index, edit.priority, edit.statusCode, true);
      if (result.ok || result.cancelled) return result;
      if (!result.conflict) {
        notify('error', result.reason, showLogAction);
        return result;
      }
      const reload = vscode.l10n.t('Reload');
      const choice = await vscode.window.showWarningMessage(
        result.reason,
        { modal: true, detail: vscode.l10n.t('Your change was not saved. Reload shows the current priorities so you can make the change again.') },
        reload,
      );
      if (choice !== reload) return result;
    }
  },
});

async function editFromArgs(s: Services, scanner: ObjectTarget, a: EditPrioritiesArgs): Promise<EditPrioritiesResult> {
  const fail = (reason: string): EditPrioritiesResult => {
    notify('error', notSavedBecause(scanner.name, reason));
    return { ok: false, reason };
  };
  if (!Number.isInteger(a.index) || a.index < 0 || a.index > 7) return fail(`index must be 0 to 7 (got ${a.index})`);
  if (a.priority !== undefined && checkPriority(String(a.priority))) return fail(`priority ${a.priority}: ${checkPriority(String(a.priority))}`);
  const shown = await scanner.connection.client.get<InputScannerInfo>(scanner.kind, scanner.folderKey, scanner.key);
  const expected = a.expectedVersion === undefined ? (shown.ConcurrencyVersion ?? null) : a.expectedVersion;
  const result = await save(s, scanner, shown, expected, a.index, a.priority, a.statusCode);
  if (!result.ok && !result.cancelled) notify(result.conflict ? 'warning' : 'error', result.reason);
  return result;
}

interface Edit {
  index: number;
  priority: number;
  statusCode: number;
}

async function askEdit(scanner: ObjectTarget, shown: InputScannerInfo): Promise<Edit> {
  const entries = shown.InputScannerReportingPriorities ?? [];
  if (!entries.length) throw new Error(vscode.l10n.t('"{0}" has no reporting priorities', scanner.name));
  const title = vscode.l10n.t('Scanner Priorities: {0} (version {1})', scanner.name, String(shown.ConcurrencyVersion ?? '?'));
  const state: Partial<Edit> = {};

  const pickEntry: Step = async (input) => {
    const items = entries.map((p, index) => ({
      label: `${index + 1}. ${p.CommonName || statusLabel(p.StatusCode)}`,
      description: rangeOf(p),
      detail: vscode.l10n.t('Priority {0} · Status {1}: {2}', String(p.Priority), String(p.StatusCode), statusLabel(p.StatusCode)),
      index,
    }));
    const picked = await input.pick({
      title,
      step: 1,
      totalSteps: 3,
      items,
      active: items[state.index ?? 0],
      matchOnDescription: true,
      matchOnDetail: true,
      placeholder: vscode.l10n.t('Reporting priority to change (resistance range, priority, status)'),
    });
    if (picked.index !== state.index) {
      state.priority = undefined;
      state.statusCode = undefined;
    }
    state.index = picked.index;
    return inputPriority;
  };

  const inputPriority: Step = async (input) => {
    const entry = entries[state.index!];
    const text = await input.input({
      title,
      step: 2,
      totalSteps: 3,
      value: String(state.priority ?? entry.Priority),
      prompt: vscode.l10n.t('Priority of {0} (now {1})', rangeOf(entry), String(entry.Priority)),
      validate: checkPriority,
    });
    state.priority = Number(text.trim());
    return pickStatus;
  };

  const pickStatus: Step = async (input) => {
    const entry = entries[state.index!];
    const codes = Object.keys(statusCodeLabels).map(Number);
    if (!codes.includes(entry.StatusCode)) codes.push(entry.StatusCode);
    const items = codes.map((code) => ({
      label: `${code}: ${statusLabel(code)}`,
      description: code === entry.StatusCode ? vscode.l10n.t('current') : undefined,
      code,
    }));
    const picked = await input.pick({
      title,
      step: 3,
      totalSteps: 3,
      items,
      active: items.find((i) => i.code === (state.statusCode ?? entry.StatusCode)),
      placeholder: vscode.l10n.t('Status reported for {0}; Enter saves', rangeOf(entry)),
    });
    state.statusCode = picked.code;
    return undefined;
  };

  await MultiStepInput.run(pickEntry);
  return state as Edit;
}

/**
 * Applies the edit to the scanner as shown and sends it through the one save
 * entry, based on version `expected`: a scanner changed since then is a
 * conflict, nothing is written. Open editors of the scanner without edits
 * then show the new version; the tree refreshes.
 */
async function save(
  s: Services,
  scanner: ObjectTarget,
  shown: InputScannerInfo,
  expected: number | null,
  index: number,
  priority?: number,
  statusCode?: number,
  merge = false,
): Promise<EditPrioritiesResult> {
  if (!shown.InputScannerReportingPriorities?.[index])
    return { ok: false, reason: vscode.l10n.t('the scanner has no reporting priority {0}', String(index + 1)) };
  const edited = withRow(shown, index, { priority, statusCode });
  const address = { connectionId: scanner.connection.id, folderKey: scanner.folderKey, kind: scanner.kind, key: scanner.key };
  // Interactive, the scanner as shown is the edit's base: a change made meanwhile on another row merges in.
  const { outcome, tookTheirs } = await s.saves.saveMerging(
    { address, edit: edited, base: expected, options: { notStored: 'ignore' } },
    merge ? shown : undefined,
    scanner.name,
  );
  switch (outcome.status) {
    case 'saved':
      notify('info', tookTheirs ? mergedText(scanner.name, outcome.object, tookTheirs) : savedText(scanner.name, outcome.object));
      return { ok: true, changed: true };
    case 'unchanged':
      vscode.window.setStatusBarMessage(vscode.l10n.t('No changes to save'), 4000);
      return { ok: true, changed: false };
    case 'conflict':
      return {
        ok: false,
        conflict: true,
        reason: conflictText(scanner.name, outcome.server, expected),
        serverVersion: outcome.server.ConcurrencyVersion ?? null,
      };
    case 'refused':
      return { ok: false, reason: notSavedText(scanner.name, outcome), cancelled: outcome.refusal.kind === 'cancelled' };
  }
}
