/**
 * Quick edit of an input scanner's eight reporting priorities: pick a range
 * (label, resistance range, priority, status), type its new priority, pick its
 * status code by name. Saving uses the one save operation (save/saveObject.ts)
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
import * as vscode from 'vscode';
import { statusCodeLabels, statusLabel } from '../model/statusCodes';
import type { InputScannerInfo, InputScannerReportingPriority } from '../model/types';
import { ObjectTarget, objectTarget } from './commandTargets';
import { MultiStepInput, Step } from '../ui/multiStepInput';
import { notify, showLogAction } from '../ui/notify';
import type { Command, Services } from './services';

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
  | { ok: true; changed: boolean }
  | { ok: false; reason: string; conflict?: boolean; serverVersion?: number | null; cancelled?: boolean };

const int32 = { min: -2147483648, max: 2147483647 };

/** `850..1150`; an upper bound of -1 is the open-ended range. */
function rangeText(p: Pick<InputScannerReportingPriority, 'MinResistanceCode' | 'MaxResistanceCode'>): string {
  return `${p.MinResistanceCode}..${p.MaxResistanceCode === -1 ? 'open' : p.MaxResistanceCode}`;
}

function checkPriority(text: string): string | undefined {
  const v = text.trim();
  if (!/^-?\d+$/.test(v)) return 'Enter a whole number';
  const n = Number(v);
  if (n < int32.min || n > int32.max) return 'The priority is a 32-bit integer';
  return undefined;
}

const isArgs = (t: unknown): t is EditPrioritiesArgs => !!t && typeof t === 'object' && 'index' in t;

export const editScannerPriorities: Command = {
  id: 'oms.editScannerPriorities',
  async run(s, target?: EditPrioritiesArgs | object): Promise<EditPrioritiesResult | undefined> {
    const scanner = await objectTarget(s, 'inputScanner', target);
    if (isArgs(target)) return editFromArgs(s, scanner, target);

    for (;;) {
      const shown = await scanner.connection.client.get<InputScannerInfo>(scanner.kind, scanner.folderKey, scanner.key);
      const edit = await askEdit(scanner, shown);
      const result = await save(s, scanner, shown, shown.ConcurrencyVersion ?? null, edit.index, edit.priority, edit.statusCode);
      if (result.ok) {
        if (result.changed) notify('info', `Saved reporting priority ${edit.index + 1} of "${scanner.name}".`);
        else vscode.window.setStatusBarMessage('No changes to save', 4000);
        return result;
      }
      if (result.cancelled) return result;
      if (!result.conflict) {
        notify('error', `Not saved: ${result.reason}`, showLogAction);
        return result;
      }
      const reload = 'Reload';
      const choice = await vscode.window.showWarningMessage(
        `"${scanner.name}" changed on the server (now version ${result.serverVersion}, you edited version ${shown.ConcurrencyVersion}). Your change was not saved.`,
        { modal: true, detail: 'Reload shows the current priorities so you can make the change again.' },
        reload,
      );
      if (choice !== reload) return result;
    }
  },
};

async function editFromArgs(s: Services, scanner: ObjectTarget, a: EditPrioritiesArgs): Promise<EditPrioritiesResult> {
  const fail = (reason: string): EditPrioritiesResult => {
    notify('error', `Not saved: ${reason}`);
    return { ok: false, reason };
  };
  if (!Number.isInteger(a.index) || a.index < 0 || a.index > 7) return fail(`index must be 0 to 7 (got ${a.index})`);
  if (a.priority !== undefined && checkPriority(String(a.priority))) return fail(`priority ${a.priority}: ${checkPriority(String(a.priority))}`);
  const shown = await scanner.connection.client.get<InputScannerInfo>(scanner.kind, scanner.folderKey, scanner.key);
  const expected = a.expectedVersion === undefined ? shown.ConcurrencyVersion ?? null : a.expectedVersion;
  const result = await save(s, scanner, shown, expected, a.index, a.priority, a.statusCode);
  if (!result.ok && !result.cancelled) {
    notify(result.conflict ? 'warning' : 'error', result.conflict
      ? `"${scanner.name}" changed on the server (now version ${result.serverVersion}, the edit was based on ${expected}); not saved.`
      : `Not saved: ${result.reason}`);
  }
  return result;
}

interface Edit {
  index: number;
  priority: number;
  statusCode: number;
}

async function askEdit(scanner: ObjectTarget, shown: InputScannerInfo): Promise<Edit> {
  const entries = shown.InputScannerReportingPriorities ?? [];
  if (!entries.length) throw new Error(`"${scanner.name}" has no reporting priorities`);
  const title = `Scanner Priorities: ${scanner.name} (version ${shown.ConcurrencyVersion ?? '?'})`;
  const state: Partial<Edit> = {};

  const pickEntry: Step = async (input) => {
    const items = entries.map((p, index) => ({
      label: `${index + 1}. ${p.CommonName || statusLabel(p.StatusCode)}`,
      description: rangeText(p),
      detail: `Priority ${p.Priority} · Status ${p.StatusCode}: ${statusLabel(p.StatusCode)}`,
      index,
    }));
    const picked = await input.pick({
      title, step: 1, totalSteps: 3, items, active: items[state.index ?? 0], matchOnDescription: true, matchOnDetail: true,
      placeholder: 'Reporting priority to change (resistance range, priority, status)',
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
      title, step: 2, totalSteps: 3, value: String(state.priority ?? entry.Priority),
      prompt: `Priority of ${rangeText(entry)} (now ${entry.Priority})`,
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
      description: code === entry.StatusCode ? 'current' : undefined,
      code,
    }));
    const picked = await input.pick({
      title, step: 3, totalSteps: 3, items, active: items.find((i) => i.code === (state.statusCode ?? entry.StatusCode)),
      placeholder: `Status reported for ${rangeText(entry)}; Enter saves`,
    });
    state.statusCode = picked.code;
    return undefined;
  };

  await MultiStepInput.run(pickEntry);
  return state as Edit;
}

/**
 * Applies the edit to the scanner as shown and sends it through the one save
 * operation, based on version `expected`: a scanner changed since then is a
 * typed conflict, nothing is written. Open editors of the scanner reload and
 * the tree refreshes (the file system's events).
 */
async function save(s: Services, scanner: ObjectTarget, shown: InputScannerInfo, expected: number | null, index: number, priority?: number, statusCode?: number): Promise<EditPrioritiesResult> {
  const entry = shown.InputScannerReportingPriorities?.[index];
  if (!entry) return { ok: false, reason: `the scanner has no reporting priority ${index + 1}` };
  const next = { ...entry, Priority: priority ?? entry.Priority, StatusCode: statusCode ?? entry.StatusCode };
  if (next.Priority === entry.Priority && next.StatusCode === entry.StatusCode) return { ok: true, changed: false };
  const { Notes: _notes, Links: _links, ...rest } = shown;
  const edited = { ...rest, InputScannerReportingPriorities: shown.InputScannerReportingPriorities.map((p, i) => (i === index ? next : p)) };
  const address = { connectionId: scanner.connection.id, folderKey: scanner.folderKey, kind: scanner.kind, key: scanner.key };
  const outcome = await s.fs.sendEdit(address, edited, expected);
  switch (outcome.status) {
    case 'saved': return { ok: true, changed: true };
    case 'unchanged': return { ok: true, changed: false };
    case 'conflict': return { ok: false, conflict: true, reason: `the scanner changed on the server (version ${outcome.server.ConcurrencyVersion}, expected ${expected})`, serverVersion: outcome.server.ConcurrencyVersion ?? null };
    case 'refused': return { ok: false, reason: outcome.refusal.message, cancelled: outcome.refusal.kind === 'cancelled' };
  }
}
