/**
 * Files only their user may read, written so that no one else can redirect
 * them: never through a symbolic link (O_NOFOLLOW), new content in a temp file
 * with a random name created exclusively (O_EXCL, mode 0600) then renamed
 * over the target (a rename replaces a link, it never writes through it),
 * folders created 0700. For the sandbox's data and journal and the save
 * history; the temp files of a pulled folder's manifest and cache too (a
 * link planted there by a pulled folder is never written through). No
 * `vscode` import: the sandbox and tests use it too.
 */
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import { dirname } from 'node:path';

/** 0 where the platform has no such flag (Windows: links need privileges to create there). */
const noFollow = constants.O_NOFOLLOW ?? 0;
const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL } = constants;

/** Flags to create a new file, failing when anything (a link included) is already at that path. */
const exclusiveFlags = O_WRONLY | O_CREAT | O_EXCL | noFollow;

/** Creates `dir` (and missing parents) readable by the user only; an existing folder is left as it is. */
export async function makePrivateDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
}

/** A path beside `file` that nothing holds yet: `<file>.<random>.tmp`. */
export function tempPathFor(file: string): string {
  return `${file}.${randomBytes(6).toString('hex')}.tmp`;
}

/** A new file beside `file` (random name, exclusive, 0600 unless `mode` says) opened with `extraFlags`; rename it into place when written. */
export async function createTemp(file: string, extraFlags = 0, mode = 0o600): Promise<{ path: string; handle: fs.FileHandle }> {
  const path = tempPathFor(file);
  return { path, handle: await fs.open(path, exclusiveFlags | extraFlags, mode) };
}

/** Writes `data` to `file` whole or not at all: private folder, exclusive temp file, fsync, rename. */
export async function writePrivateFile(file: string, data: string | Uint8Array): Promise<void> {
  await makePrivateDir(dirname(file));
  const temp = await createTemp(file);
  try {
    try {
      await temp.handle.writeFile(data);
      await temp.handle.sync();
    } finally {
      await temp.handle.close();
    }
    await fs.rename(temp.path, file);
  } catch (e) {
    await fs.rm(temp.path, { force: true });
    throw e;
  }
}

/** Reads `file` as text; refuses (ELOOP) when it is a symbolic link. */
export async function readPrivateFile(file: string): Promise<string> {
  const handle = await openNoFollow(file);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** `file` opened to read; refuses (ELOOP) when it is a symbolic link. */
export function openNoFollow(file: string): Promise<fs.FileHandle> {
  return fs.open(file, O_RDONLY | noFollow);
}

/** True when `error` is the refusal to follow a link (ELOOP; some systems say EMLINK). */
export function isLinkRefusal(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code;
  return code === 'ELOOP' || code === 'EMLINK';
}
