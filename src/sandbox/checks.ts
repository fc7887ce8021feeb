/** Request body checks: JSON Schema (shared schemas/ via the validator) and `$type`. */
import type { Kind } from '../model/kinds';
import { typeNameOf } from '../model/typeName';
import { validate } from '../validation/validator';
import { ErrorDetail, HttpError } from './http';

/** Most errors listed in one response body. */
const maxListed = 50;

/** Schema errors of `value`, plus a `$type` check when `typeName` is given; [] when valid. */
export function bodyErrors(schemaFile: string, value: unknown, typeName?: string, prefix = ''): ErrorDetail[] {
  const errors: ErrorDetail[] = validate(schemaFile, value).map((e) => ({ pointer: prefix + e.pointer, message: e.message }));
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

/** Throws 400 naming every failing field when `value` does not fit the kind's schema. */
export function checkObject(kind: Kind, value: unknown): void {
  const errors = bodyErrors(kind.schema, value, kind.typeName);
  if (errors.length) {
    throw new HttpError(400, `The ${kind.label.toLowerCase()} is invalid: ${describeErrors(errors)}`, errors.slice(0, maxListed));
  }
}
