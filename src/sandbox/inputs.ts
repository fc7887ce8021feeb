/**
 * JSON Schemas of the inputs the sandbox reads besides stored objects (those
 * use the shared `schemas/` through `checks.ts`): the invite address, a note,
 * a fault rule, the paging query. Checked by ajv, e-mail addresses with
 * ajv-formats' `email` format, the rule the extension uses too.
 */
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ErrorDetail, HttpError } from './http';

// allErrors: these inputs are small and a person fixes them at once; the list sent back is bounded anyway.
const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv, ['email']);

export const inviteSchema = { type: 'string', format: 'email' } as const;

export const noteSchema = {
  anyOf: [
    { type: 'string', pattern: '\\S' },
    { type: 'object', required: ['NoteText'], properties: { NoteText: { type: 'string', pattern: '\\S' } } },
  ],
} as const;

export const faultRuleSchema = {
  type: 'object',
  required: ['path', 'status', 'count'],
  properties: {
    path: { type: 'string', pattern: '^/' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    count: { type: 'integer', minimum: 1 },
    retryAfter: { type: 'number', minimum: 0 },
  },
} as const;

/** Query parameters arrive as strings: whole numbers only. */
export const pagingSchema = {
  type: 'object',
  properties: {
    page: { type: 'string', pattern: '^\\d{1,9}$' },
    pageSize: { type: 'string', pattern: '^0*[1-9]\\d{0,8}$' },
  },
} as const;

const compiled = new Map<object, ValidateFunction>();

/** Most errors listed in one answer. */
const maxListed = 50;

/** The errors of `value` against `schema` (at most `maxListed`), [] when it fits. */
export function inputErrors(schema: object, value: unknown): ErrorDetail[] {
  let fn = compiled.get(schema);
  if (!fn) compiled.set(schema, (fn = ajv.compile(schema)));
  if (fn(value)) return [];
  return (fn.errors ?? []).slice(0, maxListed).map((e) => ({ pointer: e.instancePath, message: e.message ?? 'is not valid' }));
}

/** Throws 400 with `message` and the errors when `value` does not fit `schema`. */
export function checkInput(schema: object, value: unknown, message: string): void {
  const errors = inputErrors(schema, value);
  if (errors.length) throw new HttpError(400, message, errors);
}
