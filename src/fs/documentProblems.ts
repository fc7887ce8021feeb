/**
 * Edits an object document holds that a save would refuse (see
 * documentDiagnostics.ts, which shows them): with their place in the text.
 * A chunk of its own, loaded with the first object document.
 */
import type { BaseInfo } from '../model/types';
import { unsendable } from '../save/saveObject';
import { locate } from '../validation/locate';

export interface Problem {
  pointer: string;
  message: string;
  offset: number;
  length: number;
}

/** Undefined when the text is not a JSON object (syntax errors are the JSON language's to show). */
export function documentProblems(original: BaseInfo, text: string): Problem[] | undefined {
  let edited: unknown;
  try {
    edited = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof edited !== 'object' || !edited || Array.isArray(edited)) return undefined;
  const problem = unsendable(original, edited as BaseInfo);
  return (problem?.pointers ?? []).map((pointer) => ({ pointer, message: problem!.message, ...(locate(text, pointer) ?? { offset: 0, length: 1 }) }));
}
