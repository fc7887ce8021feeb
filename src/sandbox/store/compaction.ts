/**
 * Compaction: the state written as a new snapshot, in slices (yielding to
 * requests), while changes go on into a fresh journal. Also writes the
 * snapshot at start-up.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createTemp } from '../../util/privateFile';
import { journalFile, oldJournalFile, openJournal, syncDirectory } from './dataFiles';
import { headerLine, Snapshot } from './logFormat';

/**
 * Journal bigger than this and than the snapshot: compact. Compaction rewrites
 * every object while changes keep coming, so a small store is left to grow a
 * journal of this size first (a batch add of 10,000 people writes 12 MB;
 * compacting at 4 MiB cost it 10% of its time). Start-up replays at most
 * this, or the snapshot's size.
 */
export const defaultCompactAtBytes = 32 * 1024 * 1024;
/** Entries serialised between two turns of the event loop while compacting. */
const slice = 500;

/** Writes a snapshot durably: new temp file (random name, exclusive) in slices, fsync, rename, directory fsync. Returns its size. */
export async function writeSnapshot(file: string, seq: number, snapshot: Snapshot): Promise<number> {
  const { path: temp, handle } = await createTemp(file);
  let bytes = 0;
  try {
    let text = headerLine(snapshot.instanceKey, seq);
    let n = 0;
    for (const entry of snapshot.entries()) {
      text += `${entry}\n`;
      if (++n % slice === 0) {
        bytes += (await handle.write(text)).bytesWritten;
        text = '';
        await nextTurn();
      }
    }
    bytes += (await handle.write(text)).bytesWritten;
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temp, file);
  await syncDirectory(path.dirname(file));
  return bytes;
}

/** Moves the journal aside (`.journal.old`, replayed until the new snapshot is written) and returns a fresh one. */
export async function rotateJournal(file: string, current: fs.FileHandle): Promise<fs.FileHandle> {
  await current.close();
  await fs.rename(journalFile(file), oldJournalFile(file));
  const handle = await openJournal(journalFile(file));
  await syncDirectory(path.dirname(file));
  return handle;
}

/** Writes the compacted snapshot, then drops the old journal it holds; returns the snapshot's size. */
export async function writeCompacted(file: string, seq: number, state: Snapshot): Promise<number> {
  const bytes = await writeSnapshot(file, seq, state);
  await fs.rm(oldJournalFile(file), { force: true });
  return bytes;
}
