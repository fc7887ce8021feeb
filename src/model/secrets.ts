/**
 * A kind's secret fields (`sensitiveFields` of the kinds registry) kept out of what the extension
 * writes or shows: journals, dry runs, request listings.
 */
import type { Kind } from './kinds';
import type { BaseInfo } from './types';

/** Stands for a secret in a request listing or a dry run: the real value is never printed. */
export const secretShown = '(secret left out: the service keeps its value)';

/** The secret fields that hold a value in `object`. */
export function secretsIn(kind: Kind, object: BaseInfo | undefined): string[] {
  return (kind.sensitiveFields ?? []).filter((f) => object?.[f] !== null && object?.[f] !== undefined);
}

/** `object` with each secret that holds a value replaced by `placeholder`, or left out when there is none. */
export function hideSecrets<T extends BaseInfo | undefined>(kind: Kind, object: T, placeholder?: string): T {
  const secrets = secretsIn(kind, object);
  if (!object || !secrets.length) return object;
  const out: BaseInfo = { ...object };
  for (const f of secrets) {
    if (placeholder === undefined) delete out[f];
    else out[f] = placeholder;
  }
  return out as T;
}
