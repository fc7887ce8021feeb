/**
 * Fields named as the outline names them, for every message that names one (a merge's question and
 * result, the Object Changes rows): `Reporting priority 5 (Supervisory fault, open circuit) › Priority`,
 * not `/InputScannerReportingPriorities/4/Priority`. The outline (editor/documentModel.ts) names
 * array items with `itemName` too.
 */
import { l10n } from '../l10n';
import { statusLabel } from './statusCodes';

const longest = 40;

/** What names an item of the array `field` in the outline (its number aside); undefined when nothing does. */
export function itemName(field: string, item: unknown): string | undefined {
  if (!item || typeof item !== 'object') return undefined;
  const o = item as Record<string, unknown>;
  const text = (k: string) => {
    const v = o[k];
    return typeof v === 'string' && v ? v : undefined;
  };
  if (field === 'InputScannerReportingPriorities') return text('CommonName') ?? (typeof o.StatusCode === 'number' ? statusLabel(o.StatusCode) : undefined);
  return text('CommonName') ?? text('Relation') ?? text('Application') ?? text('Nickname') ?? text('NoteText');
}

/** What one item of the array `field` is called: "Reporting priority" for the priorities, else the field's own name. */
function itemTitle(field: string): string {
  return field === 'InputScannerReportingPriorities' ? l10n.t('Reporting priority') : field;
}

/**
 * A JSON pointer as the user knows the field: array items by their number from 1 and, when `object` (the
 * object the pointer is into) names them, their name; parts joined by ›. The whole object for "".
 */
export function fieldLabel(pointer: string, object?: unknown): string {
  const segments = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (!segments.length) return l10n.t('the whole object');
  const parts: string[] = [];
  let at: unknown = object;
  let field = '';
  for (const segment of segments) {
    if (Array.isArray(at) && /^\d+$/.test(segment)) {
      const item: unknown = at[Number(segment)];
      const name = itemName(field, item);
      const shown = name && name.length > longest ? `${name.slice(0, longest - 1)}…` : name;
      // The array's own name gives way to its item's: "Reporting priority 5", not "InputScannerReportingPriorities › 5".
      if (parts.length && parts[parts.length - 1] === field) parts.pop();
      parts.push(`${itemTitle(field)} ${Number(segment) + 1}${shown ? ` (${shown})` : ''}`);
      at = item;
    } else if (/^\d+$/.test(segment) && at === undefined && field) {
      // No object to look into (a plan's change): still the item's number from 1.
      if (parts.length && parts[parts.length - 1] === field) parts.pop();
      parts.push(`${itemTitle(field)} ${Number(segment) + 1}`);
    } else {
      parts.push(segment);
      at = at && typeof at === 'object' ? (at as Record<string, unknown>)[segment] : undefined;
    }
    field = segment;
  }
  return parts.join(' › ');
}

/** Several fields, each as `fieldLabel` says it, joined by commas. */
export function fieldLabels(pointers: readonly string[], object?: unknown): string {
  return pointers.map((p) => fieldLabel(p, object)).join(', ');
}
