/** Reading people for the batch add, checking them, and writing what failed. Plain TypeScript. */
import type { TypeNaming } from '../model/typeName';
import { readPeopleCsv } from './csv';
import { readPeopleJson } from './json';
import { PeopleFile, PeopleFileError } from './rows';

export * from './rows';
export { serializeFailed, writeFailedFile } from './failedFile';

export type PeopleFormat = 'csv' | 'json';

/** The format from the file name; undefined when it is neither `.csv` nor `.json`. */
function formatOf(fileName: string): PeopleFormat | undefined {
  const m = /\.(csv|json)$/i.exec(fileName);
  return m ? (m[1].toLowerCase() as PeopleFormat) : undefined;
}

/** Reads a people file of either format (by name; content sniffed when the name says nothing). */
export function readPeople(fileName: string, content: string | Uint8Array, naming?: TypeNaming): PeopleFile {
  let format = formatOf(fileName);
  if (!format) {
    const text = typeof content === 'string' ? content : new TextDecoder().decode(content.subarray(0, 64));
    format = /^\uFEFF?\s*\[/.test(text) ? 'json' : 'csv';
  }
  if (format === 'json') return readPeopleJson(content);
  return readPeopleCsv(content, naming);
}

export { PeopleFileError };
