/**
 * People from JSON: an array of PersonInfo (a `*.people.json` file, e.g. one
 * written by a previous batch for its failed items). Each item is checked
 * against the person schema and keeps the line it starts on. Plain TypeScript.
 */
// The ES module build: the package's main entry is a UMD wrapper whose requires esbuild cannot follow.
import { visit } from 'jsonc-parser';
import type { PersonInfo } from '../model/types';
import { PeopleFile, PeopleFileError, personErrors, PersonRow } from './rows';

/** Reads JSON text (or bytes) into rows. */
export function readPeopleJson(input: string | Uint8Array): PeopleFile {
  const text = (typeof input === 'string' ? input : new TextDecoder('utf-8').decode(input)).replace(/^\uFEFF/, '');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const position = /position (\d+)/.exec(message)?.[1];
    throw new PeopleFileError(`not valid JSON (${message})`, position === undefined ? undefined : lineAt(text, Number(position)));
  }
  if (!Array.isArray(value)) {
    throw new PeopleFileError(`expected a JSON array of PersonInfo objects, found ${value === null ? 'null' : typeof value}`);
  }
  const starts = itemOffsets(text);
  const lines = lineIndex(text);
  const rows: PersonRow[] = value.map((item, index) => ({
    line: starts[index] === undefined ? 0 : lineOf(lines, starts[index]),
    index,
    person: item as PersonInfo,
    errors: personErrors(item, (p) => p || '(item)'),
  }));
  return { format: 'json', rows, notes: [] };
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
    onObjectBegin: (offset) => { value(offset); depth++; },
    onObjectEnd: () => { depth--; },
    onArrayBegin: (offset) => { value(offset); depth++; },
    onArrayEnd: () => { depth--; },
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
  let lo = 0, hi = lineStarts.length - 1;
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
