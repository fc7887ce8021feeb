/**
 * Creates whose outcome is not known yet. Before a create of a pulled folder's
 * new file is sent, it is recorded here (`.oms/pending.jsonl`, appended and
 * fsynced); once its answer is recorded (the file has its Key) or the service
 * refused it, it is settled. A create still pending after a crash, a kill or a
 * lost answer may exist on the server under a Key no one saw: the next plan
 * looks for it (plan.ts) rather than offering to create it again.
 */
import { closeSync, constants, fsyncSync, openSync, rmSync, writeSync } from 'node:fs';
import type { KindId } from '../../model/kinds';
import { cachePath } from './manifest';
import { readNoFollow } from './safePaths';

const fileName = 'pending.jsonl';

export interface PendingCreate {
  /** The new file, relative to the pulled folder. */
  path: string;
  kind: KindId;
  folderKey: string;
  /** When it was sent. */
  at: string;
}

type Line = { create: PendingCreate } | { settled: string };

/** The creates sent and not settled, by file path. */
export function pendingCreates(root: string): Map<string, PendingCreate> {
  const pending = new Map<string, PendingCreate>();
  for (const line of (readNoFollow(cachePath(root, fileName), `.oms/${fileName}`) ?? '').split('\n')) {
    let step: Partial<{ create: PendingCreate; settled: string }> | null;
    try {
      step = JSON.parse(line) as typeof step;
    } catch {
      continue; // cut short by a crash (written before the create was sent: it was not sent)
    }
    if (typeof step?.create?.path === 'string') pending.set(step.create.path, step.create);
    else if (typeof step?.settled === 'string') pending.delete(step.settled);
  }
  return pending;
}

/** Records a create about to be sent: on disk (fsynced) before the request goes out. */
export function recordPending(root: string, create: Omit<PendingCreate, 'at'>): void {
  append(root, [{ create: { ...create, at: new Date().toISOString() } }]);
}

/** The creates whose outcome is known now (answered, refused or found); the file goes once none is pending. */
export function settlePending(root: string, paths: readonly string[]): void {
  if (!paths.length) return;
  append(root, paths.map((settled) => ({ settled })));
  if (!pendingCreates(root).size) rmSync(cachePath(root, fileName), { force: true });
}

function append(root: string, lines: Line[]): void {
  const fd = openSync(cachePath(root, fileName), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    writeSync(fd, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
