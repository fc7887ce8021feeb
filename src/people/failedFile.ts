/**
 * The failed-items file: the people of the batches the server refused (or that
 * were never sent), plus invalid rows the user chose to skip, as a JSON array
 * of PersonInfo next to the input. Its name ends in `.people.json`, so the
 * editor validates it and the same command reads it back. Plain TypeScript.
 */
import { constants, promises as fsp } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import type { PersonInfo } from '../model/types';
import { l10n } from '../l10n';

/**
 * `20240131T154502Z` (UTC, sortable, safe in file names).
 * @internal Exported for its unit test.
 */
export function fileTimestamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/**
 * `people.csv` -> `people.failed-<ts>.people.json`; a failed file fed back in
 * (`people.failed-<old>.people.json`) gives `people.failed-<ts>.people.json`,
 * not a growing chain of suffixes.
 * @internal Exported for its unit test.
 */
export function failedFileName(inputName: string, date: Date): string {
  const base = path
    .basename(inputName)
    .replace(/\.(csv|json|txt)$/i, '')
    .replace(/\.people$/i, '')
    .replace(/\.failed-\d{8}T\d{6}Z(-\d+)?$/, '');
  return `${base || 'people'}.failed-${fileTimestamp(date)}.people.json`;
}

/** The file's text: the people as the batch would send them, pretty-printed. */
export function serializeFailed(people: readonly PersonInfo[]): string {
  return JSON.stringify(people, null, 2) + '\n';
}

/**
 * Writes the failed items next to `inputPath` and returns the path. Atomic and
 * never overwrites: the text is written whole under a temporary name, then
 * linked under the final one (`link` refuses a taken name, so when the name is
 * taken in the same second `-2`, `-3`... is added); a reader never sees half a
 * file. Where hard links are not supported, an exclusive copy does the same.
 */
export async function writeFailedFile(inputPath: string, people: readonly PersonInfo[], date = new Date()): Promise<string> {
  const dir = path.dirname(inputPath);
  const name = failedFileName(inputPath, date);
  const temp = path.join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  // The user's only (0600): it holds people's names and e-mail addresses.
  await fsp.writeFile(temp, serializeFailed(people), { flag: 'wx', mode: 0o600 });
  try {
    for (let n = 1; n <= 1000; n++) {
      const file = path.join(dir, n === 1 ? name : name.replace(/\.people\.json$/, `-${n}.people.json`));
      if (await claim(temp, file)) return file;
    }
    throw new Error(l10n.t('No free file name for {0}', name));
  } finally {
    await fsp.rm(temp, { force: true });
  }
}

/** Puts `temp`'s content under `file` unless `file` exists; false when it does. */
async function claim(temp: string, file: string): Promise<boolean> {
  try {
    await fsp.link(temp, file);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw e;
  }
  try {
    await fsp.copyFile(temp, file, constants.COPYFILE_EXCL);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}
