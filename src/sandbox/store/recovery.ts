/**
 * Recovery at start-up: the newest snapshot, then the journal lines after it
 * (`.journal.old` first, left by a compaction that did not finish). A line
 * that does not parse is a torn write that was never confirmed: skipped.
 */
import { eachLine, exists, journalFile, oldJournalFile } from './dataFiles';
import { Change, currentVersion, format, parseLine, StoredEntry } from './logFormat';

interface Loaded {
  instanceKey: string;
  entries: StoredEntry[];
  changes: Change[];
  /** Sequence number of the last change held. */
  seq: number;
  /** A current snapshot and nothing to replay: no need to write it again. */
  clean: boolean;
}

/**
 * Reads the snapshot and the journals of `file` as they are on disk, without
 * changing anything; undefined when there is no snapshot. Throws when the file
 * is not sandbox data.
 */
export async function readStoreFiles(file: string): Promise<Loaded | undefined> {
  const snapshot = await readSnapshot(file);
  if (!snapshot) {
    if (await exists(journalFile(file))) throw new Error(`${journalFile(file)} exists but ${file} does not: restore ${file} or remove the journal`);
    return undefined;
  }
  const changes: Change[] = [];
  for (const journal of [oldJournalFile(file), journalFile(file)]) {
    await eachLine(journal, (line) => {
      const entry = parseLine(line) as { s?: unknown; c?: Change } | undefined;
      // A line that does not parse is a torn write, never confirmed.
      if (entry && typeof entry.s === 'number' && entry.s > snapshot.seq && entry.c) {
        changes.push(entry.c);
        snapshot.seq = entry.s;
      }
    });
  }
  return {
    instanceKey: snapshot.instanceKey,
    entries: snapshot.entries,
    changes,
    seq: snapshot.seq,
    clean: snapshot.version === currentVersion && changes.length === 0,
  };
}

async function readSnapshot(file: string): Promise<{ instanceKey: string; seq: number; version: unknown; entries: StoredEntry[] } | undefined> {
  let header: { format?: unknown; version?: unknown; instanceKey?: unknown; seq?: unknown; objects?: unknown; outbox?: unknown } | undefined;
  const entries: StoredEntry[] = [];
  const found = await eachLine(file, (line, n) => {
    if (n === 0) {
      try {
        header = JSON.parse(line) as typeof header;
      } catch (e) {
        throw new Error(`The sandbox data file ${file} is not valid JSON (${(e as Error).message}); fix or remove it`, { cause: e });
      }
      if (!header || header.format !== format || typeof header.instanceKey !== 'string') {
        throw new Error(`${file} is not an OMS sandbox data file (expected "format": "${format}")`);
      }
      return;
    }
    const entry = parseLine(line);
    if (!entry) throw new Error(`The sandbox data file ${file} has a damaged line ${n + 1}; fix or remove it`);
    entries.push(entry as StoredEntry);
  });
  if (!found) return undefined;
  if (!header) throw new Error(`The sandbox data file ${file} is empty; remove it to start afresh`);
  if (header.version === 1) {
    if (!Array.isArray(header.objects)) throw new Error(`${file} is not an OMS sandbox data file (no "objects")`);
    entries.push(...(header.objects as StoredEntry[]));
    if (Array.isArray(header.outbox)) entries.push(...header.outbox.map((outbox: unknown) => ({ outbox })));
  }
  return { instanceKey: header.instanceKey as string, seq: typeof header.seq === 'number' ? header.seq : 0, version: header.version, entries };
}
