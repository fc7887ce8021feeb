/**
 * People from JSON: an array of PersonInfo (a `*.people.json` file, e.g. one
 * written by a previous batch for its failed items). Each item is checked
 * against the person schema and keeps its index and the line it starts on.
 * `$type` may be left out, as a CSV row has none: the person's (and each
 * address's, by its fields) is filled in; one that is there is checked. A
 * CommonName left out is made of the given name and surname, as for CSV.
 * Plain TypeScript.
 */
// The ES module build: the package's main entry is a UMD wrapper whose requires esbuild cannot follow.
import { visit } from 'jsonc-parser';
import { makeType, TypeNaming } from '../model/typeName';
import type { PersonInfo } from '../model/types';
import { decodePeople } from './encoding';
import { PeopleFile, PeopleFileError, personErrors, PersonRow } from './rows';
import { l10n } from '../l10n';

/** Reads JSON text (or bytes) into rows. */
export function readPeopleJson(input: string | Uint8Array, naming?: TypeNaming): PeopleFile {
  const text = typeof input === 'string' ? input.replace(/^\uFEFF/, '') : decodePeople(input);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const position = /position (\d+)/.exec(message)?.[1];
    throw new PeopleFileError(l10n.t('not valid JSON ({0})', message), position === undefined ? undefined : lineAt(text, Number(position)));
  }
  if (!Array.isArray(value)) {
    throw new PeopleFileError(l10n.t('expected a JSON array of PersonInfo objects, found {0}', value === null ? 'null' : typeof value));
  }
  const starts = itemOffsets(text);
  const lines = lineIndex(text);
  const itemLines = value.map((_item, index) => (starts[index] === undefined ? 0 : lineOf(lines, starts[index])));
  const shared = new Set(itemLines.filter((l, i) => itemLines.indexOf(l) !== i));
  const rows: PersonRow[] = value.map((item, index) => {
    const person = withTypes(item, naming);
    const line = itemLines[index];
    // Items on a line of their own are found by line; several on one line, by their number.
    const place = shared.has(line) || !line ? l10n.t('item {0}', index + 1) : l10n.t('item {0} (line {1})', index + 1, line);
    return { line, index, place, person: person as PersonInfo, errors: personErrors(person, (p) => p || '(item)') };
  });
  return { format: 'json', rows, notes: [], blankLines: [] };
}

/** The item with `$type` (the person's, each address's by its fields) and CommonName filled in where left out. */
function withTypes(item: unknown, naming?: TypeNaming): unknown {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return item;
  const person = item as Record<string, unknown>;
  const addresses = Array.isArray(person.Addresses)
    ? person.Addresses.map((a: unknown) => {
        if (!a || typeof a !== 'object' || Array.isArray(a) || '$type' in a) return a;
        const fields = a as Record<string, unknown>;
        const typeName = 'MailTo' in fields ? 'EmailAddressInfo' : 'Number' in fields ? 'PhoneInfo' : 'MailingAddressInfo';
        return { $type: makeType(typeName, naming), ...fields };
      })
    : person.Addresses;
  const names = [person.GivenName, person.Surname].filter((n): n is string => typeof n === 'string' && n.trim() !== '').map((n) => n.trim());
  const commonName = person.CommonName === undefined && names.length ? { CommonName: names.join(' ') } : {};
  return {
    ...('$type' in person ? {} : { $type: makeType('PersonInfo', naming) }),
    ...person,
    ...commonName,
    ...(addresses === undefined ? {} : { Addresses: addresses }),
  };
}

/**
 * Offsets where each element of the top-level array starts (jsonc-parser's scanner: strings and nesting aware).
 * @internal Exported for its unit test.
 */
export function itemOffsets(text: string): number[] {
  const starts: number[] = [];
  let depth = 0;
  const value = (offset: number) => {
    if (depth === 1) starts.push(offset);
  };
  visit(text, {
    onObjectBegin: (offset) => {
      value(offset);
      depth++;
    },
    onObjectEnd: () => {
      depth--;
    },
    onArrayBegin: (offset) => {
      value(offset);
      depth++;
    },
    onArrayEnd: () => {
      depth--;
    },
    onLiteralValue: (_literal, offset) => value(offset),
  });
  return starts;
}

function lineIndex(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** 1-based line of an offset (binary search over line starts). */
function lineOf(lineStarts: number[], offset: number): number {
  let lo = 0,
    hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

function lineAt(text: string, offset: number): number {
  return lineOf(lineIndex(text), offset);
}
