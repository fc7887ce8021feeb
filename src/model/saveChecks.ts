/** Checks a save runs before anything is sent (pure, so Node tests cover them). */
import type { BaseInfo } from './types';

/** Fields that identify an object and its place; editing them would move or retype it. */
const immutableFields = ['$type', 'Key', 'Href', 'InFolderKey', 'InFolderHref'] as const;

export function changedImmutableFields(current: BaseInfo, edited: BaseInfo): string[] {
  return immutableFields.filter((f) => (current[f] ?? null) !== (edited[f] ?? null));
}

/** Deep equality of JSON values, for the "no changes" short-cut. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || !a || !b) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a),
    kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => sameJson((a as never)[k], (b as never)[k]));
}

export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}
