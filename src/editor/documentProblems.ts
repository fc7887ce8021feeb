/**
 * Edits an object document holds that a save would refuse (see
 * documentDiagnostics.ts, which shows them as errors): with their place in
 * the text. Schema problems too: the JSON language shows some of them (a
 * missing required property) only as warnings, yet the save refuses them.
 * A chunk of its own, loaded with the first object document.
 */
import type { BaseInfo } from '../model/types';
import { unsendable } from '../save/saveObject';
import { locate } from '../validation/locate';
import { validate } from '../validation/validator';

export interface Problem {
  pointer: string;
  message: string;
  offset: number;
  length: number;
}

/** Undefined when the text is not a JSON object (syntax errors are the JSON language's to show). */
export function documentProblems(original: BaseInfo, text: string, schema?: string): Problem[] | undefined {
  let edited: unknown;
  try {
    edited = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof edited !== 'object' || !edited || Array.isArray(edited)) return undefined;
  const problem = unsendable(original, edited as BaseInfo);
  const at = (pointer: string) => locate(text, pointer) ?? { offset: 0, length: 1 };
  const found: Problem[] = (problem?.pointers ?? []).map((pointer) => ({ pointer, message: problem!.message, ...at(pointer) }));
  for (const e of schema ? validate(schema, edited) : []) {
    // A property missing from an object: marked at the object's opening brace, not over all of it.
    const place = at(e.pointer);
    found.push({ pointer: e.pointer, message: e.message, ...(e.keyword === 'required' ? { offset: place.offset, length: 1 } : place) });
  }
  return found;
}
