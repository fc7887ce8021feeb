/**
 * Creates whose outcome is not known yet. Before a create of a pulled folder's
 * new file is sent, it is recorded here (`oms.pending.jsonl` beside the manifest,
 * appended and fsynced); its answer's Key is recorded before anything else is done
 * with it; once the file and the manifest hold the object, or the service refused
 * it, it is settled. A create still pending after a crash, a kill or a lost answer
 * may exist on the server: the next plan adopts it by the Key answered, or looks
 * for it (resolvePending.ts) rather than offering to create it again, and names the
 * pending create it looked for; apply sends such a create only for a plan that
 * names it (a plan made before the send, or in a clone without this file, did not
 * look). A file of the folder, not of its cache: a pipeline commits the folder a
 * killed apply leaves, and the next job, on a fresh runner, knows what is in flight.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { KindId, kinds } from '../../model/kinds';
import { appendNoFollow, cachePath, pendingName } from './manifest';
import { readNoFollow } from './safePaths';

/** Where an earlier version kept them: still read, and removed with the other once none is pending. */
const cachedName = 'pending.jsonl';

export interface PendingCreate {
  /** This send of it, named by the plan that looked for it on the server since (a clock is not compared: clones and clocks differ). */
  id: string;
  /** The new file, relative to the pulled folder. */
  path: string;
  kind: KindId;
  folderKey: string;
  /** When it was sent. */
  at: string;
  /** The Key the service answered, once it did. */
  key?: string;
}

type Line = { create: PendingCreate } | { answered: string; key: string } | { settled: string };

/** The folder's pending creates, read once; each change is on disk (fsynced) before the call returns. */
export class PendingCreates {
  private readonly byPath = new Map<string, PendingCreate>();

  constructor(private readonly root: string) {
    this.read();
  }

  get size(): number {
    return this.byPath.size;
  }

  get(path: string): PendingCreate | undefined {
    return this.byPath.get(path);
  }

  all(): PendingCreate[] {
    return [...this.byPath.values()];
  }

  /** A create about to be sent: before the request goes out. */
  record(create: Omit<PendingCreate, 'at' | 'id'>): void {
    const line = { ...create, id: randomUUID(), at: new Date().toISOString() };
    this.append([{ create: line }]);
    this.byPath.set(line.path, line);
  }

  /** Its answer's Key, before the file or the manifest is touched: a crash in between is adopted by that Key. */
  answered(path: string, key: string): void {
    this.append([{ answered: path, key }]);
    const create = this.byPath.get(path);
    if (create) create.key = key;
  }

  /** The creates whose outcome is known now (recorded, refused or found); the file goes once none is pending. */
  settle(paths: readonly string[]): void {
    if (!paths.length) return;
    this.append(paths.map((settled) => ({ settled })));
    for (const p of paths) this.byPath.delete(p);
    // Read again before it goes: another apply of the folder may have recorded a create since.
    if (this.byPath.size || this.read().size) return;
    for (const file of [this.file, cachePath(this.root, cachedName)]) rmSync(file, { force: true });
  }

  private get file(): string {
    return path.join(this.root, pendingName);
  }

  private read(): Map<string, PendingCreate> {
    this.byPath.clear();
    const text = `${readNoFollow(cachePath(this.root, cachedName), `.oms/${cachedName}`) ?? ''}\n${readNoFollow(this.file, pendingName) ?? ''}`;
    for (const line of text.split('\n')) {
      let step: Partial<{ create: PendingCreate; answered: string; key: string; settled: string }> | null;
      try {
        step = JSON.parse(line) as typeof step;
      } catch {
        continue; // cut short by a crash (written before the create was sent: it was not sent)
      }
      const create = step?.create;
      const answered = typeof step?.answered === 'string' ? this.byPath.get(step.answered) : undefined;
      // Lines of the version before ids are named by their time.
      if (typeof create?.path === 'string' && kinds.has(create.kind)) this.byPath.set(create.path, { ...create, id: String(create.id ?? create.at) });
      else if (answered && typeof step?.key === 'string') answered.key = step.key;
      else if (typeof step?.settled === 'string') this.byPath.delete(step.settled);
    }
    return this.byPath;
  }

  private append(lines: Line[]): void {
    appendNoFollow(this.file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n', true);
  }
}
