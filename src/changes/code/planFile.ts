/**
 * A plan as a file: what Save Plan writes and the command line's `plan --out` writes, and what
 * both read back to apply later (apply then refuses what moved since). The changes a plan shows
 * have their secrets masked (kinds' `sensitiveFields`): apply reads the files, never these values.
 */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { kind as kindOf, Kind } from '../../model/kinds';
import type { FieldChange } from './fileForm';
import { secretPlaceholder } from './fileForm';
import type { Plan } from './plan';
import { makeDirInside, resolveInside, writeNoFollow } from './safePaths';
import { l10n } from '../../l10n';

/** What stands for a secret's value in a plan's changes. */
const maskedSecret = '(secret)';

export function planFileText(plan: Plan): string {
  return JSON.stringify(withSecretsMasked(plan), null, 2) + '\n';
}

/** Saves `plan` under `plans/` of the pulled folder (a folder of it, not a link out of it); the file's path. */
export function savePlanFile(root: string, plan: Plan): string {
  const rel = `plans/${plan.createdAt.replace(/[:.]/g, '-')}.plan.json`;
  makeDirInside(root, 'plans');
  const file = resolveInside(root, rel);
  writeNoFollow(file, planFileText(plan), rel);
  return file;
}

export async function readPlanFile(file: string): Promise<Plan> {
  let plan: Plan;
  try {
    plan = JSON.parse(await readFile(file, 'utf8')) as Plan;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code) throw e;
    throw new Error(l10n.t('{0} is not a saved plan', path.basename(file)), { cause: e });
  }
  if (plan?.format !== 1 || !Array.isArray(plan.entries) || typeof plan.connection?.url !== 'string') {
    throw new Error(l10n.t('{0} is not a saved plan', path.basename(file)));
  }
  return plan;
}

/** The plan with every secret in its changes replaced by `maskedSecret` (the placeholder of a kept secret stays). */
export function withSecretsMasked(plan: Plan): Plan {
  return {
    ...plan,
    entries: plan.entries.map((e) => {
      const k = kindOf(e.kind);
      if (!k.sensitiveFields?.length) return e;
      const masked = { ...e, changes: e.changes.map((c) => maskChange(k, c)) };
      return e.serverChanges ? { ...masked, serverChanges: e.serverChanges.map((c) => maskChange(k, c)) } : masked;
    }),
  };
}

export function maskChange(k: Kind, change: FieldChange): FieldChange {
  const field = change.pointer.split('/')[1];
  const secret = field !== undefined && k.sensitiveFields?.includes(field.replace(/~1/g, '/').replace(/~0/g, '~'));
  const mask = (v: unknown): unknown => {
    if (secret) return v === null || v === undefined || v === secretPlaceholder ? v : maskedSecret;
    if (change.pointer !== '' || !v || typeof v !== 'object') return v;
    const copy = { ...(v as Record<string, unknown>) };
    for (const f of k.sensitiveFields ?? []) if (copy[f] !== null && copy[f] !== undefined && copy[f] !== secretPlaceholder) copy[f] = maskedSecret;
    return copy;
  };
  return { pointer: change.pointer, ...('from' in change ? { from: mask(change.from) } : {}), ...('to' in change ? { to: mask(change.to) } : {}) };
}
