/** Reading people for the batch add, checking them, and writing what failed. Plain TypeScript. */
import type { TypeNaming } from '../model/typeName';
import { readPeopleCsv } from './csv';
import { decodePeople } from './encoding';
import { readPeopleJson } from './json';
import { flagDuplicates, PeopleFile, PeopleFileError } from './rows';

export * from './rows';
export { serializeFailed, writeFailedFile } from './failedFile';
export { NotUtf8Error, notUtf8, otherEncodings } from './encoding';

export type PeopleFormat = 'csv' | 'json';

/** The format from the file name; undefined when it is neither `.csv` nor `.json`. */
function formatOf(fileName: string): PeopleFormat | undefined {
  const m = /\.(csv|json)$/i.exec(fileName);
  return m ? (m[1].toLowerCase() as PeopleFormat) : undefined;
}

/**
 * Reads a people file of either format (by name; content sniffed when the name says nothing). Bytes
 * that are not UTF-8 are read in `encoding` when the user chose one (else NotUtf8Error); a person
 * whose e-mail address an earlier row has is flagged.
 */
export function readPeople(fileName: string, content: string | Uint8Array, options: { naming?: TypeNaming; encoding?: string } = {}): PeopleFile {
  const text = typeof content === 'string' ? content : decodePeople(content, options.encoding);
  const format = formatOf(fileName) ?? (/^\uFEFF?\s*\[/.test(text.slice(0, 64)) ? 'json' : 'csv');
  const file = format === 'json' ? readPeopleJson(text, options.naming) : readPeopleCsv(text, options.naming);
  flagDuplicates(file.rows);
  return file;
}

export { PeopleFileError };
