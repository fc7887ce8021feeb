/**
 * The run journal: what each run of many changes (bulk edit, apply, undo, retry) did to each
 * object, so that Undo Run can put it back and Retry Failed can send the rest. One JSON-lines
 * file per run: a header line, then per object the intent of each write (written to disk before
 * the request goes out) and its outcome as it ends, so a run that dies leaves a record of every
 * object it may have written ("unknown"), and a 10,000-object run is written as it goes. Nothing
 * is written twice: an intent keeps what was sent as the fields it changes in the object before
 * (`sentFields`), and an outcome does not repeat what its intent holds (`fromIntent`): the object
 * before, and what was sent when the server now holds just that. A run adding a tag to 10,000
 * scanners writes about 30 MB (57 MB with what was sent whole, 110 MB when outcomes repeated it),
 * which Undo Run and Retry Failed read back. A run that ends writes
 * its counts last: the list of runs reads a file's first and last lines, not all of it. On this
 * machine only, readable by its owner only (0600 files in a 0700 folder, as the save history
 * src/save/history.ts). The newest `keptRuns` runs are kept, beyond the newest few only within a
 * budget of bytes. No token, and no secret field of an
 * object (`sensitiveFields`): the copies leave them out and say which.
 */
import { randomBytes } from 'node:crypto';
import { chmod, FileHandle, mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { kind as kindOf, type Kind, type KindId } from '../model/kinds';
import type { BaseInfo } from '../model/types';
import { hideSecrets, secretsIn } from '../model/secrets';
import { sameJson } from '../model/saveChecks';
import type { Change, ChangeResult, Outcome } from './executor';
import type { BulkOperation } from './operations';
import { l10n } from '../l10n';

/**
 * How Retry Failed makes a run's changes again: the bulk operation, the pulled folder's plan, the undo of `of`,
 * or a batch add's people (each entry's `sent`) into a folder in batches of `batchSize`.
 */
export type RunRecipe =
  { type: 'bulk'; operation: BulkOperation } | { type: 'apply'; folder: string } | { type: 'undo' } | { type: 'people'; folderKey: string; batchSize: number };

export interface RunHeader {
  /**
   * 4: the header names the service (`url`, `production`), so a run opens wherever a connection to it
   * exists; 3: intents may keep what was sent as changed fields (`sentFields`); 2: outcomes may take their
   * objects from their intent (`fromIntent`); 1: none of these. Older runs are still read; a newer one is refused.
   */
  format: JournalFormat;
  runId: string;
  /** What the user ran, in words: "Bulk edit: set NonSettlingErrorPriority = 2". */
  title: string;
  connectionId: string;
  /** The service's base URL (format 4). */
  url?: string;
  /** Written to a production connection (format 4). */
  production?: true;
  startedAt: string;
  total: number;
  /** The run this one undoes, if any. */
  of?: string;
  /** The run whose failed and unknown objects this one sends again. */
  retryOf?: string;
  recipe?: RunRecipe;
}

/** The journal formats this version reads; it writes the newest. */
export type JournalFormat = 1 | 2 | 3 | 4;
const journalFormat: JournalFormat = 4;

/** Where a write's outcome never reached the journal: it may have landed. */
export type EntryOutcome = Outcome | 'unknown';

export interface JournalEntry {
  id: string;
  label: string;
  kind: KindId;
  folderKey: string;
  key?: string;
  op: Change['op'];
  outcome: EntryOutcome;
  reason?: string;
  /** The object as it was before the run wrote it (applied and unknown entries), without secrets. */
  before?: BaseInfo;
  /** Its version right after the run wrote it: an undo is stale if the object moved past it. */
  afterVersion?: number | null;
  /** The object as the run left it (the base when an undo meets a later change and merges), without secrets. */
  after?: BaseInfo;
  /** Unknown entries: what was sent; creates not applied, when their run keeps it (a batch add): what to send. Without secrets. */
  sent?: BaseInfo;
  /** Secret fields that held a value before and are left out of `before`. */
  secretsLeftOut?: string[];
  /** Secret fields the run changed: an undo cannot put them back. */
  secretsChanged?: string[];
}

/** An outcome's line: an entry, without the objects its last intent holds (named in `fromIntent`). */
type OutcomeLine = JournalEntry & { fromIntent?: Array<'before' | 'after'> };

/** A write about to go out: the line written (and flushed) before its request. */
interface Intent extends Pick<JournalEntry, 'id' | 'label' | 'kind' | 'folderKey' | 'key' | 'op' | 'before' | 'sent' | 'secretsLeftOut'> {
  intent: true;
  /** What was sent, as the fields whose values differ from `before`'s and those it left out: instead of `sent`. */
  sentFields?: Record<string, unknown>;
  sentWithout?: string[];
}

export interface RunSummary {
  header: RunHeader;
  counts: Partial<Record<EntryOutcome, number>>;
}

/** @internal Exported for its unit test. */
export const keptRuns = 50;
/** Of those, the newest always kept: what Undo Run… is mostly for. Older ones only while all come to `keptBytes`. */
const alwaysKept = 5;
/** A run of 10,000 objects keeps about 30 MB: 50 of them would be 1.5 GB of the user's disk. */
const keptBytes = 500 * 1024 * 1024;

let lastStart = 0;

export class RunJournal {
  /** `budget`: the bytes kept beyond the newest runs (a test's is small). */
  constructor(
    readonly dir: string,
    private readonly budget = keptBytes,
  ) {}

  /** Whether this journal holds run `runId`. */
  async has(runId: string): Promise<boolean> {
    return !!(await stat(this.file(runId)).catch(() => undefined))?.isFile();
  }

  /** Starts a run's file; entries follow as the run goes. */
  async begin(header: Omit<RunHeader, 'format' | 'runId' | 'startedAt'>): Promise<RunWriter> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700);
    await this.prune(keptRuns - 1);
    // Ids sort by start: a run started in the same millisecond as the last one takes the next.
    lastStart = Math.max(Date.now(), lastStart + 1);
    const startedAt = new Date(lastStart).toISOString();
    const full: RunHeader = {
      format: journalFormat,
      runId: `${startedAt.replace(/[-:.]/g, '').toLowerCase()}-${randomBytes(3).toString('hex')}`,
      startedAt,
      ...header,
    };
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
      const run = await this.summary(runId).catch(() => undefined);
      if (run && (!connectionId || run.header.connectionId === connectionId)) out.push(run);
    }
    return out;
  }

  /** A run's header and counts: from its first and last lines when it ended, else from all of it. */
  private async summary(runId: string): Promise<RunSummary> {
    const file = await open(this.file(runId), 'r');
    try {
      const { size } = await file.stat();
      const at = async (start: number, length: number) => {
        const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - start)));
        await file.read(buffer, 0, buffer.length, start);
        return buffer.toString('utf8');
      };
      const head = await at(0, 64 * 1024);
      const tail = (await at(Math.max(0, size - 4096), 4096)).trimEnd();
      const header = head.includes('\n') ? headerOf(head.slice(0, head.indexOf('\n'))) : undefined;
      const counts = summaryCounts(parseLine(tail.slice(tail.lastIndexOf('\n') + 1)));
      if (header && counts) return { header, counts };
    } finally {
      await file.close();
    }
    const run = await this.read(runId);
    const counts: RunSummary['counts'] = {};
    for (const e of run.entries) counts[e.outcome] = (counts[e.outcome] ?? 0) + 1;
    return { header: run.header, counts };
  }

  /**
   * A run's header and one entry per object, in the order they ended: an intent without an
   * outcome (the run died or lost the answer) is an "unknown" entry. A line cut short at the end
   * (the window closed mid-write) is dropped; any other line that is not an entry is an error
   * naming the run and the line.
   */
  async read(runId: string): Promise<{ header: RunHeader; entries: JournalEntry[] }> {
    const text = await readFile(this.file(runId), 'utf8');
    const lines = text.split('\n');
    const damaged = (n: number) => new Error(l10n.t('The journal of run {0} is damaged at line {1}: not a run entry', runId, n));
    const header = headerOf(lines[0], runId);
    if (!header) throw damaged(1);
    const ended = new Map<string, JournalEntry>();
    const pending = new Map<string, Intent>();
    let last = lines.length - 1;
    while (last > 0 && !lines[last].trim()) last--;
    for (let i = 1; i <= last; i++) {
      if (!lines[i].trim()) continue;
      const line = parseLine(lines[i]) as Partial<Intent & JournalEntry & Summary> | undefined;
      if (line?.summary) continue;
      if (!line || typeof line.id !== 'string' || typeof line.kind !== 'string') {
        if (i === last) break;
        throw damaged(i + 1);
      }
      if (line.intent) pending.set(line.id, withSent(line as Intent));
      else {
        const intent = pending.get(line.id);
        pending.delete(line.id);
        ended.delete(line.id);
        ended.set(line.id, withIntent(line as OutcomeLine, intent));
      }
    }
    const unknown = [...pending.values()].map(({ intent: _intent, ...rest }): JournalEntry => ({
      ...rest,
      outcome: 'unknown',
      reason: l10n.t('sent, and no answer was recorded: it may have been written'),
    }));
    return { header, entries: [...ended.values(), ...unknown] };
  }

  private file(runId: string): string {
    if (!/^[0-9a-z]+-[0-9a-f]+$/.test(runId)) throw new Error(l10n.t('Not a run id: {0}', runId));
    return join(this.dir, `${runId}.jsonl`);
  }

  /** Run ids, newest first (ids start with their time). */
  private async runIds(): Promise<string[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    return names
      .filter((n) => n.endsWith('.jsonl'))
      .map((n) => n.slice(0, -'.jsonl'.length))
      .sort()
      .reverse();
  }

  /** Leaves room for one more run: the newest `keep` at most, beyond the newest few only while within the budget. */
  private async prune(keep: number): Promise<void> {
    let bytes = 0;
    for (const [i, runId] of (await this.runIds()).entries()) {
      bytes += i < keep ? ((await stat(this.file(runId)).catch(() => undefined))?.size ?? 0) : 0;
      if (i >= keep || (i >= alwaysKept - 1 && bytes > this.budget)) await rm(this.file(runId), { force: true });
    }
  }
}

/** The last line of a run that ended: its counts, unknown writes included. */
interface Summary {
  summary: RunSummary['counts'];
}

const outcomes: ReadonlySet<string> = new Set<EntryOutcome>(['applied', 'unchanged', 'stale', 'failed', 'notSent', 'unknown']);

/** An outcome's entry whole: the objects it names in `fromIntent` from its last intent (what was sent: at the version after). */
function withIntent({ fromIntent, ...entry }: OutcomeLine, intent: Intent | undefined): JournalEntry {
  if (!fromIntent) return entry;
  if (fromIntent.includes('before') && intent?.before) entry.before = intent.before;
  if (fromIntent.includes('after') && intent?.sent) entry.after = { ...intent.sent, ConcurrencyVersion: entry.afterVersion ?? null };
  return entry;
}

/** An intent with what was sent whole, made from the fields it changed in the object before (`sentFields`). */
function withSent({ sentFields, sentWithout, ...intent }: Intent): Intent {
  if (!sentFields || typeof sentFields !== 'object' || !intent.before) return intent;
  const sent: BaseInfo = { ...intent.before, ...sentFields };
  if (Array.isArray(sentWithout)) for (const field of sentWithout) delete sent[field];
  return { ...intent, sent };
}

/** `sent` as the fields whose values differ from `before`'s and those `before` has and `sent` leaves out. */
function sentAgainst(before: BaseInfo, sent: BaseInfo): Pick<Intent, 'sentFields' | 'sentWithout'> {
  const sentFields: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(sent)) if (!sameJson(value, before[field])) sentFields[field] = value;
  const sentWithout = Object.keys(before).filter((field) => !Object.hasOwn(sent, field));
  return sentWithout.length ? { sentFields, sentWithout } : { sentFields };
}

/** A run's first line; a format newer than this version reads is an error that says so (`runId`: whose). */
function headerOf(line: string, runId?: string): RunHeader | undefined {
  const header = parseLine(line) as Partial<RunHeader> | undefined;
  const format = header?.format;
  if (typeof format === 'number' && Number.isSafeInteger(format) && format > journalFormat && runId) {
    throw new Error(
      l10n.t(
        'Run {0} was recorded by a newer version (journal format {1}; this version reads up to {2}): update OMS Explorer and oms to open it',
        runId,
        format,
        journalFormat,
      ),
    );
  }
  const known = format === 1 || format === 2 || format === 3 || format === 4;
  return header && known && typeof header.runId === 'string' && typeof header.title === 'string' && typeof header.connectionId === 'string'
    ? (header as RunHeader)
    : undefined;
}

/** A summary line's counts, if that is what the line holds. */
function summaryCounts(line: unknown): RunSummary['counts'] | undefined {
  const counts = (line as Partial<Summary> | undefined)?.summary;
  if (!counts || typeof counts !== 'object') return undefined;
  const fine = Object.entries(counts).every(([k, n]) => outcomes.has(k) && Number.isSafeInteger(n) && n >= 0);
  return fine ? counts : undefined;
}

function parseLine(line: string): unknown {
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An object as a journal keeps it: no secret, and none of what the server derives or keeps apart
 * (links, notes, addresses), which undo and merge take from the object as read then. About a third
 * of a scanner's text: a run of 10,000 wrote 184 MB, which Undo Run and Retry Failed read back.
 */
function journalCopy<T extends BaseInfo | undefined>(kind: Kind, object: T): T {
  const out = hideSecrets(kind, object);
  if (!out || !derivedFields.some((f) => Object.hasOwn(out, f))) return out;
  const copy: BaseInfo = { ...out };
  for (const f of derivedFields) delete copy[f];
  return copy as T;
}
const derivedFields = ['Href', 'InFolderHref', 'Notes', 'Links'];

/** Appends a run's lines in order; lines queued while a write is under way go out together in the next one. */
export class RunWriter {
  /** Each object's last outcome, and the writes sent without one yet: the counts written at the end. */
  private readonly ended = new Map<string, EntryOutcome>();
  /** Writes sent without an outcome yet: what their last intent holds, which the outcome need not repeat. */
  private readonly open = new Map<string, Pick<Intent, 'before' | 'sent'>>();
  private queue: string[] = [];
  private syncs = false;
  private writing: Promise<void> | undefined;

  constructor(
    readonly header: RunHeader,
    private readonly file: FileHandle,
  ) {}

  /**
   * Before a write request of `change` goes out (the executor's `beforeWrite`): what is about to be
   * sent and the object as read before it, flushed to disk before this returns.
   */
  intent(change: Change, body: unknown, live?: BaseInfo): Promise<void> {
    const kind = change.kind;
    const sent = body && typeof body === 'object' ? journalCopy(kind, body as BaseInfo) : undefined;
    const left = secretsIn(kind, live);
    const before = live && journalCopy(kind, live);
    const line: Intent = {
      intent: true,
      id: change.id,
      label: change.label,
      kind: kind.id,
      folderKey: change.folderKey,
      op: change.op,
      ...(change.key ? { key: change.key } : {}),
      ...(before ? { before } : {}),
      ...(sent && before ? sentAgainst(before, sent) : sent ? { sent } : {}),
      ...(left.length ? { secretsLeftOut: left } : {}),
    };
    this.open.set(change.id, { before, sent });
    return this.line(line, true);
  }

  /** One object's end, as the executor reported it. */
  record(change: Change, result: ChangeResult): Promise<void> {
    const kind = kindOf(change.kind.id);
    const applied = result.outcome === 'applied';
    const key = change.key ?? result.after?.Key;
    const left = applied ? secretsIn(kind, result.before) : [];
    const changed = applied ? (kind.sensitiveFields ?? []).filter((f) => result.after && !sameJson(result.before?.[f], result.after[f])) : [];
    const afterVersion = result.after?.ConcurrencyVersion ?? null;
    const before = applied ? journalCopy(kind, result.before) : undefined;
    const after = applied ? journalCopy(kind, result.after) : undefined;
    const intent = this.open.get(change.id);
    const fromIntent: OutcomeLine['fromIntent'] = [];
    if (before && intent?.before && sameJson(before, intent.before)) fromIntent.push('before');
    if (after && intent?.sent && sameJson(after, { ...intent.sent, ConcurrencyVersion: afterVersion })) fromIntent.push('after');
    const entry: OutcomeLine = {
      id: change.id,
      label: change.label,
      kind: kind.id,
      folderKey: change.folderKey,
      op: change.op,
      outcome: result.outcome,
      ...(key ? { key } : {}),
      ...(result.reason ? { reason: result.reason } : {}),
      ...(applied ? { afterVersion } : {}),
      ...(before && !fromIntent.includes('before') ? { before } : {}),
      ...(after && !fromIntent.includes('after') ? { after } : {}),
      ...(!applied && result.sent ? { sent: journalCopy(kind, result.sent) } : {}),
      ...(fromIntent.length ? { fromIntent } : {}),
      ...(left.length ? { secretsLeftOut: left } : {}),
      ...(changed.length ? { secretsChanged: changed } : {}),
    };
    this.open.delete(change.id);
    this.ended.delete(change.id);
    this.ended.set(change.id, result.outcome);
    return this.line(entry);
  }

  /** Appends one JSON line after those already queued; `sync`: on disk (not only handed to the system) when this returns. */
  line(value: unknown, sync = false): Promise<void> {
    this.queue.push(JSON.stringify(value) + '\n');
    this.syncs ||= sync;
    return (this.writing ??= this.flush());
  }

  private async flush(): Promise<void> {
    // A line queued during a write waits for that write, then goes with the others queued meanwhile.
    // The flush is forgotten in the same turn the queue is seen empty: a line queued after it starts
    // a flush of its own (a `.finally` a turn later let a line wait on a flush already done).
    await Promise.resolve();
    try {
      while (this.queue.length) {
        const text = this.queue.join('');
        const sync = this.syncs;
        this.queue = [];
        this.syncs = false;
        await this.file.appendFile(text);
        if (sync) await this.file.datasync();
      }
    } finally {
      this.writing = undefined;
    }
  }

  /** The run's counts as its last line, then the file closed. */
  async close(): Promise<void> {
    const summary: Summary = { summary: {} };
    const count = (o: EntryOutcome, n = 1) => (summary.summary[o] = (summary.summary[o] ?? 0) + n);
    for (const outcome of this.ended.values()) count(outcome);
    if (this.open.size) count('unknown', this.open.size);
    await this.line(summary);
    await this.file.close();
  }
}
