/**
 * Stand-in for the one executor (`src/changes/executor.ts`, interface agreed
 * in the bulk work) until it lands: same types, same rules, small. Every
 * update and delete reads the object first (that read is `before`) and sends
 * nothing unless it is still at the planned version; updates go through the
 * one save operation (`saveObject`, version-checked again); a write is never
 * resent.
 */
import type { OmsClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { Kind } from '../../model/kinds';
import type { BaseInfo } from '../../model/types';
import { saveObject } from '../../save/saveObject';

export interface Change {
  id: string;
  label: string;
  kind: Kind;
  folderKey: string;
  key?: string;
  op: 'create' | 'update' | 'delete';
  baseVersion?: number | null;
  build(live: BaseInfo | undefined): BaseInfo | { skip: string };
}

export type Outcome = 'applied' | 'unchanged' | 'stale' | 'failed' | 'notSent';

export interface ChangeResult {
  id: string;
  label: string;
  outcome: Outcome;
  reason?: string;
  before?: BaseInfo;
  after?: BaseInfo;
}

export interface RunProgress { done: number; total: number; failed: number }

export interface RunOptions {
  concurrency?: number;
  stopOnError: boolean;
  signal?: AbortSignal;
  onProgress?(p: RunProgress): void;
  onResult?(r: ChangeResult): void | Promise<void>;
}

export async function runChanges(client: OmsClient, changes: Change[], options: RunOptions): Promise<ChangeResult[]> {
  const results: ChangeResult[] = new Array<ChangeResult>(changes.length);
  let next = 0, done = 0, failed = 0, stopped = false;
  const worker = async () => {
    while (next < changes.length) {
      const i = next++;
      const c = changes[i];
      const result = options.signal?.aborted || stopped
        ? { id: c.id, label: c.label, outcome: 'notSent' as const, reason: options.signal?.aborted ? 'Cancelled before it was sent' : 'Not sent: the run stopped at an error' }
        : await runOne(client, c);
      if (result.outcome === 'failed') {
        failed++;
        if (options.stopOnError) stopped = true;
      }
      results[i] = result;
      await options.onResult?.(result);
      options.onProgress?.({ done: ++done, total: changes.length, failed });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, changes.length)) }, worker));
  return results;
}

async function runOne(client: OmsClient, c: Change): Promise<ChangeResult> {
  const r = { id: c.id, label: c.label };
  try {
    if (c.op === 'create') {
      const body = c.build(undefined);
      if ('skip' in body) return { ...r, outcome: 'unchanged', reason: String(body.skip) };
      const outcome = await saveObject(client, { kind: c.kind, folderKey: c.folderKey }, body, null);
      if (outcome.status === 'saved') return { ...r, outcome: 'applied', after: outcome.object };
      return { ...r, outcome: 'failed', reason: outcome.status === 'refused' ? outcome.refusal.message : outcome.status };
    }
    const key = c.key!;
    const before = await client.get(c.kind, c.folderKey, key);
    const version = before.ConcurrencyVersion ?? null;
    if (c.baseVersion !== undefined && version !== c.baseVersion) {
      return { ...r, outcome: 'stale', before, reason: `The server has v${version}, the change was planned against v${c.baseVersion}: nothing sent` };
    }
    if (c.op === 'delete') {
      await client.delete(c.kind, c.folderKey, key);
      return { ...r, outcome: 'applied', before };
    }
    const body = c.build(before);
    if ('skip' in body) return { ...r, outcome: 'unchanged', before, reason: String(body.skip) };
    const outcome = await saveObject(client, { kind: c.kind, folderKey: c.folderKey, key }, body, version);
    switch (outcome.status) {
      case 'saved': return { ...r, outcome: 'applied', before, after: outcome.object };
      case 'unchanged': return { ...r, outcome: 'unchanged', before, after: outcome.object };
      case 'conflict': return { ...r, outcome: 'stale', before, reason: `The server moved to v${outcome.server.ConcurrencyVersion ?? null} while sending: nothing sent` };
      default: return { ...r, outcome: 'failed', before, reason: outcome.refusal.message };
    }
  } catch (e) {
    if (e instanceof ApiError) return { ...r, outcome: 'failed', reason: e.message };
    if ((e as Error).name === 'Canceled') return { ...r, outcome: 'notSent', reason: 'Not sent: you cancelled the production question' };
    throw e;
  }
}
