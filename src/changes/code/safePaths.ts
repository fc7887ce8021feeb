/**
 * Every path of a pulled folder goes through here. A pulled folder arrives
 * through git from other people, and keys and names come from the server:
 * a relative path from either must name a place inside the folder, and
 * nothing is followed through a symbolic link (each component below the
 * folder is checked with lstat, files are opened with O_NOFOLLOW). Names made
 * from the server's keys and names are one path component each, short
 * enough for any file system, and two keys never share one.
 */
import {
  BigIntStats,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  promises as fs,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import * as path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { l10n } from '../../l10n';

/** A path (or a file at it) that may not be used, with the reason in words. */
export class PathRefused extends Error {
  constructor(
    readonly entry: string,
    readonly reason: string,
  ) {
    super(l10n.t('{0} was refused: {1}', entry, reason));
  }
}

/** 0 where the platform has no such flag. */
const noFollow = constants.O_NOFOLLOW ?? 0;

/** Why `rel` (relative to the pulled folder, with `/`) is not a path inside it, or undefined when it is. */
function relProblem(rel: unknown): string | undefined {
  if (typeof rel !== 'string' || !rel) return l10n.t('it is not a path');
  if (rel.includes('\0') || rel.includes('\\')) return l10n.t('it holds a character paths here may not hold');
  if (path.posix.isAbsolute(rel) || /^[A-Za-z]:/.test(rel)) return l10n.t('it is an absolute path; paths here are relative to the pulled folder');
  const parts = rel.split('/');
  if (parts.includes('..')) return l10n.t('it leads out of the pulled folder');
  if (parts.includes('') || parts.includes('.')) return l10n.t('it is not a plain relative path');
  // A UTF-16 unit is 3 bytes of UTF-8 at most: only a long part is measured (a manifest holds 100,000 paths).
  if (parts.some((p) => p.length > 85 && Buffer.byteLength(p) > 255)) return l10n.t('a part of it is longer than a file name may be');
  return undefined;
}

/** `rel` inside `root`, absolute: refused when it leads out, or passes through a symbolic link (lstat of every component below `root`). */
export function resolveInside(root: string, rel: unknown, entry = String(rel)): string {
  const problem = relProblem(rel);
  if (problem) throw new PathRefused(entry, problem);
  const base = path.resolve(root);
  let at = base;
  for (const part of (rel as string).split('/')) {
    at = path.join(at, part);
    const stat = lstatSync(at, { throwIfNoEntry: false });
    if (!stat) break; // nothing further down exists either
    if (stat.isSymbolicLink())
      throw new PathRefused(entry, l10n.t('{0} is a symbolic link; a pulled folder holds none', path.relative(base, at).split(path.sep).join('/')));
  }
  return path.join(base, rel as string);
}

/** Whether `rel` is a path inside the folder (by its text only: nothing on disk is looked at). */
export function isPlainRelative(rel: unknown): rel is string {
  return relProblem(rel) === undefined;
}

/** The reason `rel` may not be used as a path of the folder, or undefined. */
export function pathProblem(root: string, rel: unknown): string | undefined {
  try {
    resolveInside(root, rel);
    return undefined;
  } catch (e) {
    if (e instanceof PathRefused) return e.reason;
    throw e;
  }
}

/** A file's text, or undefined when it is not there; never through a symbolic link (ELOOP is refused with its name). */
export function readNoFollow(file: string, entry = file): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | noFollow);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw refusal(entry, e);
  }
  try {
    return readFileSync(fd, 'utf8');
  } catch (e) {
    throw refusal(entry, e);
  } finally {
    closeSync(fd);
  }
}

/** As `readNoFollow`, the bytes, read by the thread pool: a file of 30 MB read at once held this thread up 80 ms. */
export async function readBytesNoFollow(file: string, entry = file): Promise<Buffer | undefined> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | noFollow);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw refusal(entry, e);
  }
  try {
    return await handle.readFile();
  } catch (e) {
    throw refusal(entry, e);
  } finally {
    await handle.close();
  }
}

/** Writes `bytes` to `file` (never through a link); the file's stat as written, for the record of files a pull wrote. */
export function writeNoFollow(file: string, bytes: string | Uint8Array, entry = file): BigIntStats {
  return writeWhole(file, bytes, entry, constants.O_TRUNC);
}

/**
 * Puts `bytes` in `file` whole or not at all: written beside it under a hidden name no plan reads (not `.json`),
 * then renamed over it, which replaces a link there rather than writing through it. A process killed meanwhile
 * leaves the file as it was (and at most that hidden file), never a file cut short that the next plan calls invalid.
 */
export function replaceNoFollow(file: string, bytes: string | Uint8Array, entry = file): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.oms-tmp`);
  try {
    writeWhole(temp, bytes, entry, constants.O_EXCL);
    try {
      renameSync(temp, file);
    } catch (e) {
      throw refusal(entry, e);
    }
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}

/** `bytes` written to `file`, opened with `flags` besides writing and creating (never through a link). */
function writeWhole(file: string, bytes: string | Uint8Array, entry: string, flags: number): BigIntStats {
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | flags | noFollow, 0o666);
  } catch (e) {
    throw refusal(entry, e);
  }
  try {
    const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    for (let at = 0; at < buffer.byteLength;) at += writeSync(fd, buffer, at);
    return fstatSync(fd, { bigint: true });
  } finally {
    closeSync(fd);
  }
}

/** Creates `rel`'s directories inside `root` (none of them a link); the absolute path. */
export function makeDirInside(root: string, rel: string): string {
  const abs = resolveInside(root, rel);
  mkdirSync(abs, { recursive: true });
  return resolveInside(root, rel); // a link created meanwhile is refused
}

/** Whether `file` is a regular file (not a link, not a folder). */
export function isRegularFile(file: string): boolean {
  return lstatSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
}

function refusal(entry: string, e: unknown): Error {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return new PathRefused(entry, l10n.t('it is a symbolic link; a pulled folder holds none'));
  if (code === 'EISDIR') return new PathRefused(entry, l10n.t('it is a folder, not a file'));
  if (code === 'ENAMETOOLONG') return new PathRefused(entry, l10n.t('its name is longer than this file system allows'));
  return e as Error;
}

/**
 * One path component from a server's key: letters, digits and `-` kept, every other character as `_` and its
 * code in hex (so `a.b` and `a_b` stay two names), a long one cut and told apart by a hash of the whole key.
 */
export function keyPart(key: string): string {
  const encoded = key.replace(/[^A-Za-z0-9-]/g, (c) => `_${c.codePointAt(0)!.toString(16)}`);
  if (encoded.length <= 80) return encoded;
  return `${encoded.slice(0, 60)}~${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}
