/**
 * The sandbox's data files on disk: their names, reading them line by line,
 * the journal file (append-only, durable writes), directory syncs and the
 * removal of what an interrupted run left. Nothing is read or written through
 * a symbolic link, and new files are made exclusively under random names
 * (`src/util/privateFile.ts`).
 */
import { constants as fsConstants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { createTemp, isLinkRefusal, openNoFollow } from '../../util/privateFile';

export const journalFile = (file: string) => `${file}.journal`;
export const oldJournalFile = (file: string) => `${file}.journal.old`;

/** Calls `fn` for each non-empty line; false when the file does not exist. Never follows a symbolic link. */
export async function eachLine(file: string, fn: (line: string, n: number) => void): Promise<boolean> {
  let handle: fs.FileHandle;
  try {
    handle = await openNoFollow(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    if (isLinkRefusal(e)) throw new Error(`${file} is a symbolic link: the sandbox does not follow links to its data files (give the real path)`, { cause: e });
    throw e;
  }
  const stream = handle.createReadStream({ encoding: 'utf8' });
  let n = 0;
  try {
    for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
      if (line.trim()) fn(line.replace(/^\uFEFF/, ''), n++);
    }
  } finally {
    stream.destroy(); // closes the file, also when `fn` threw
  }
  return true;
}

/** True when something (a dangling link included) is at `file`. */
export async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(
    () => true,
    () => false,
  );
}

export async function syncDirectory(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Directories cannot be opened or fsynced on some platforms (Windows); renames are still atomic there.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** What the journal needs from the files; tests swap in one that fails. */
export interface JournalIo {
  append(handle: fs.FileHandle, bytes: Buffer): Promise<void>;
}

/**
 * A new, empty journal file, appended to only: created under a random name
 * (exclusive, 0600) and renamed into place. Where the platform has O_DSYNC
 * each write returns once its data is on disk: one call per batch instead of
 * a write and an fdatasync.
 */
const { O_APPEND, O_DSYNC } = fsConstants;

export async function openJournal(file: string): Promise<fs.FileHandle> {
  const { path: temp, handle } = await createTemp(file, O_APPEND | (O_DSYNC ?? 0));
  try {
    await fs.rename(temp, file);
  } catch (e) {
    await handle.close();
    await fs.rm(temp, { force: true });
    throw e;
  }
  return handle;
}

export const defaultIo: JournalIo = {
  async append(handle, bytes) {
    await handle.write(bytes);
    if (O_DSYNC === undefined) await handle.datasync();
  },
};

/**
 * Temp files of an interrupted snapshot or journal start (`{name}.{random}.tmp`,
 * `{name}.journal.{random}.tmp`), and those of earlier versions (`{name}.tmp`, `.{name}.{pid}.tmp`).
 */
export async function removeLeftovers(file: string): Promise<void> {
  const dir = path.dirname(file);
  const base = path.basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const leftover = new RegExp(`^(${base}(\\.journal)?(\\.[0-9a-f]+)?|\\.${base}\\.\\d+)\\.tmp$`);
  for (const name of await fs.readdir(dir)) {
    if (leftover.test(name)) await fs.rm(path.join(dir, name), { force: true });
  }
}
