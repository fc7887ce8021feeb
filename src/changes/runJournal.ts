/**
 * The run journal: what each run of many changes (bulk edit, apply, undo, retry) did to each
 * object, so that Undo Run can put it back and Retry Failed can send the rest. One JSON-lines
 * file per run (a header line, then one line per object as it ends, so a 10,000-object run
 * is written as it goes and read line by line), on this machine only, readable by its owner
 * only (0600 files in a 0700 folder, as the save history src/save/history.ts). The newest
 * `keptRuns` runs are kept. Objects hold no token; nothing else is stored.
 */
import { randomBytes } from 'node:crypto';
import { chmod, FileHandle, mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { KindId } from '../model/kinds';
import type { BaseInfo } from '../model/types';
import type { Change, ChangeResult, Outcome } from './executor';

export interface RunHeader {
  format: 1;
  runId: string;
  /** What the user ran, in words: "Bulk edit: set NonSettlingErrorPriority = 2". */
  title: string;
  connectionId: string;
  startedAt: string;
  total: number;
  /** The run this one undoes or retries, if any. */
  of?: string;
}

export interface JournalEntry {
  id: string;
  label: string;
  kind: KindId;
  folderKey: string;
  key?: string;
  op: Change['op'];
  outcome: Outcome;
  reason?: string;
  /** The object as it was before the run wrote it (applied entries). */
  before?: BaseInfo;
  /** Its version right after the run wrote it: an undo is stale if the object moved past it. */
  afterVersion?: number | null;
  /** The object as the run left it: the base when an undo meets a later change and merges. */
  after?: BaseInfo;
}

export interface RunSummary { header: RunHeader; counts: Partial<Record<Outcome, number>> }

/** @internal Exported for its unit test. */
export const keptRuns = 50;

let lastStart = 0;

export class RunJournal {
  constructor(private readonly dir: string) {}

  /** Starts a run's file; entries follow as the run goes. */
  async begin(header: Omit<RunHeader, 'format' | 'runId' | 'startedAt'>): Promise<RunWriter> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700);
    await this.prune(keptRuns - 1);
    // Ids sort by start: a run started in the same millisecond as the last one takes the next.
    lastStart = Math.max(Date.now(), lastStart + 1);
    const startedAt = new Date(lastStart).toISOString();
    const full: RunHeader = { format: 1, runId: `${startedAt.replace(/[-:.]/g, '').toLowerCase()}-${randomBytes(3).toString('hex')}`, startedAt, ...header };
    const file = await open(this.file(full.runId), 'wx', 0o600);
    await file.chmod(0o600);
    const writer = new RunWriter(full, file);
    await writer.line(full);
    return writer;
  }

  /** Runs on this machine, newest first, optionally for one connection. */
  async runs(connectionId?: string): Promise<RunSummary[]> {
    const out: RunSummary[] = [];
    for (const runId of await this.runIds()) {
      const run = await this.read(runId).catch(() => undefined);
      if (!run || (connectionId && run.header.connectionId !== connectionId)) continue;
      const counts: RunSummary['counts'] = {};
      for (const e of run.entries) counts[e.outcome] = (counts[e.outcome] ?? 0) + 1;
      out.push({ header: run.header, counts });
    }
    return out;
  }

  async read(runId: string): Promise<{ header: RunHeader; entries: JournalEntry[] }> {
    const text = await readFile(this.file(runId), 'utf8');
    const lines = text.split('\n').filter((l) => l.trim());
    const header = JSON.parse(lines[0]) as RunHeader;
    // A line cut short (the window closed mid-write) ends the journal; what came before stands.
    const entries: JournalEntry[] = [];
    for (const line of lines.slice(1)) {
      try {
        entries.push(JSON.parse(line) as JournalEntry);
      } catch {
        break;
      }
    }
    return { header, entries };
  }

  private file(runId: string): string {
    if (!/^[0-9a-z]+-[0-9a-f]+$/.test(runId)) throw new Error(`Not a run id: ${runId}`);
    return join(this.dir, `${runId}.jsonl`);
  }

  /** Run ids, newest first (ids start with their time). */
  private async runIds(): Promise<string[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    return names.filter((n) => n.endsWith('.jsonl')).map((n) => n.slice(0, -'.jsonl'.length)).sort().reverse();
  }

  private async prune(keep: number): Promise<void> {
    for (const runId of (await this.runIds()).slice(keep)) await rm(this.file(runId), { force: true });
  }
}

/** Appends a run's entries in order, one write at a time. */
export class RunWriter {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly header: RunHeader, private readonly file: FileHandle) {}

  /** One object's end, as the executor reported it. */
  record(change: Change, result: ChangeResult): Promise<void> {
    const entry: JournalEntry = {
      id: change.id, label: change.label, kind: change.kind.id, folderKey: change.folderKey, op: change.op, outcome: result.outcome,
      ...(change.key ? { key: change.key } : {}),
      ...(result.reason ? { reason: result.reason } : {}),
      ...(result.outcome === 'applied' ? { before: result.before, afterVersion: result.after?.ConcurrencyVersion ?? null, after: result.after } : {}),
    };
    return this.line(entry);
  }

  /** Appends one JSON line after those already queued. */
  line(value: unknown): Promise<void> {
    const next = this.queue.then(() => this.file.appendFile(JSON.stringify(value) + '\n'));
    this.queue = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.file.close();
  }
}
