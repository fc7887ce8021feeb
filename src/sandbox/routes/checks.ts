/** Request body checks: JSON Schema (shared schemas/ via the validator) and `$type`. */
import type { Kind } from '../../model/kinds';
import { makeType, namingOf, typeNameOf } from '../../model/typeName';
import { validate } from '../../validation/validator';
import { ErrorDetail, HttpError } from '../http/replies';

/** Most errors listed in one response body. */
export const maxListed = 50;
/** Bodies up to this size get every error listed; larger ones the first (linear time, bounded list). */
const detailedBytes = 256 * 1024;

/**
 * Schema errors of `value`, plus a `$type` check when `typeName` is given; [] when valid.
 * `firstOnly` stops at the first failing rule (see `validate`).
 */
export function bodyErrors(schemaFile: string, value: unknown, typeName?: string, prefix = '', firstOnly = false): ErrorDetail[] {
  const errors: ErrorDetail[] = validate(schemaFile, value, firstOnly).map((e) => ({ pointer: prefix + e.pointer, message: e.message }));
  if (typeName && value && typeof value === 'object' && !Array.isArray(value)) {
    const actual = typeNameOf((value as { $type?: unknown }).$type);
    if (actual !== typeName && !errors.some((e) => e.pointer === `${prefix}/$type`)) {
      errors.push({
        pointer: `${prefix}/$type`,
        message: actual ? `is ${actual}, expected ${typeName}` : `must be "<namespace>.${typeName}, <assembly>"`,
      });
    }
  }
  return errors;
}

export function describeErrors(errors: ErrorDetail[]): string {
  const shown = errors.slice(0, 3).map((e) => `${e.pointer || '/'} ${e.message}`);
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : '';
  return shown.join('; ') + more;
}

/**
 * As lenient as the real service: a new object without `$type` (or with null)
 * gets the collection's type, named like the instance's own `$type`.
 */
export function typeFromCollection(kind: Kind, value: unknown, instance: unknown): void {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const v = value as { $type?: unknown };
    if (v.$type === undefined || v.$type === null) v.$type = makeType(kind.typeName, namingOf(instance));
  }
}

/** Throws 400 naming the failing fields when `value` does not fit the schema; `bytes` is the body's size. */
export function checkBody(schemaFile: string, value: unknown, what: string, bytes: number, typeName?: string): void {
  // The fail-fast validator is the quicker one: a valid body never runs the detailed pass.
  let errors = bodyErrors(schemaFile, value, typeName, '', true);
  if (errors.length && bytes <= detailedBytes) errors = bodyErrors(schemaFile, value, typeName);
  if (errors.length) throw new HttpError(400, `The ${what} is invalid: ${describeErrors(errors)}`, errors.slice(0, maxListed));
}

export function checkObject(kind: Kind, value: unknown, bytes: number): void {
  checkBody(kind.schema, value, kind.label.toLowerCase(), bytes, kind.typeName);
}

/** Compiles every kind's validators now, so the first request that needs one is not the one that waits. */
export function compileSchemas(kinds: Iterable<Kind>): void {
  for (const kind of kinds) {
    validate(kind.schema, null, true);
    validate(kind.schema, null);
  }
}
