/**
 * The inputs the sandbox reads besides stored objects (those are checked in
 * `checks.ts`): the invite address, a note, a fault rule, the paging query.
 * Their schemas are in `schemas/inputs/`, checked by the same generated
 * validators as everything else (`src/validation/validator.ts`, built by
 * scripts/validators.ts): one pipeline, nothing compiled at run time.
 */
import { validate } from '../../validation/validator';
import { ErrorDetail, HttpError } from '../http/replies';

export const inviteSchema = 'inviteAddress.schema.json';
export const noteSchema = 'noteInput.schema.json';
export const faultRuleSchema = 'faultRule.schema.json';
export const pagingSchema = 'pagingQuery.schema.json';

/** Most errors listed in one answer. */
const maxListed = 50;

/** The errors of `value` against a schema of schemas/inputs/ (at most `maxListed`), [] when it fits. */
export function inputErrors(schema: string, value: unknown): ErrorDetail[] {
  // Every error: these inputs are small and a person fixes them at once; the list sent back is bounded anyway.
  return validate(schema, value)
    .slice(0, maxListed)
    .map((e) => ({ pointer: e.pointer, message: e.message }));
}

/** Throws 400 with `message` and the errors when `value` does not fit `schema`. */
export function checkInput(schema: string, value: unknown, message: string): void {
  const errors = inputErrors(schema, value);
  if (errors.length) throw new HttpError(400, message, errors);
}
