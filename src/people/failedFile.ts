/**
 * The failed-items file: the people of the batches the server refused (or that
 * were never sent), plus invalid rows the user chose to skip, as a JSON array
 * of PersonInfo next to the input. Its name ends in `.people.json`, so the
 * editor validates it and the same command reads it back. Plain TypeScript.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { PersonInfo } from '../model/types';

/** `20240131T154502Z` (UTC, sortable, safe in file names). */
export function fileTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
}

/**
 * `people.csv` -> `people.failed-<ts>.people.json`; a failed file fed back in
 * (`people.failed-<old>.people.json`) gives `people.failed-<ts>.people.json`,
 * not a growing chain of suffixes.
 */
export function failedFileName(inputName: string, date: Date): string {
  const base = path.basename(inputName)
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
 * Writes the failed items next to `inputPath` and returns the path. Never
 * overwrites: when the name is taken (same second), `-2`, `-3`... is added.
 */
export async function writeFailedFile(inputPath: string, people: readonly PersonInfo[], date = new Date()): Promise<string> {
  const dir = path.dirname(inputPath);
  const name = failedFileName(inputPath, date);
  const text = serializeFailed(people);
  for (let n = 1; ; n++) {
    const file = path.join(dir, n === 1 ? name : name.replace(/\.people\.json$/, `-${n}.people.json`));
    try {
      await fsp.writeFile(file, text, { flag: 'wx' });
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || n > 1000) throw e;
    }
  }
}
