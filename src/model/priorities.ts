/**
 * An input scanner's reporting priorities as rows of a table (label,
 * resistance range, priority, status), and edits of those rows applied back
 * to the scanner. Plain TypeScript: the table view and tests use it.
 */
import type { InputScannerInfo } from './types';
import { l10n } from '../l10n';
import { statusCodeLabels, statusLabel } from './statusCodes';

export interface PriorityRow {
  label: string;
  min: number;
  max: number;
  range: string;
  priority: number;
  statusCode: number;
  statusLabel: string;
}

/** What the user can change in a row. */
export interface RowEdit {
  label: string;
  priority: number;
  statusCode: number;
}

const int32 = { min: -2147483648, max: 2147483647 };

/**
 * A resistance range as a reader wants it: `850 – 1150`, `25000 – open circuit (-1)`,
 * negative codes called special codes (`special codes -4 – -3`).
 */
export function rangeText(min: number | undefined, max: number | undefined): string {
  const end = (v: number | undefined) => (v === undefined ? '?' : v === -1 ? l10n.t('open circuit (-1)') : String(v));
  if (min !== undefined && max !== undefined && min < 0 && max < -1) return l10n.t('special codes {0} – {1}', min, max);
  const start = min === undefined ? '?' : min < 0 ? l10n.t('{0} (special)', min) : String(min);
  return `${start} – ${end(max)}`;
}

export function rowsOf(scanner: InputScannerInfo): PriorityRow[] {
  return (scanner.InputScannerReportingPriorities ?? []).map((p) => ({
    label: p.CommonName ?? '',
    min: p.MinResistanceCode,
    max: p.MaxResistanceCode,
    range: rangeText(p.MinResistanceCode, p.MaxResistanceCode),
    priority: p.Priority,
    statusCode: p.StatusCode,
    statusLabel: statusLabel(p.StatusCode),
  }));
}

/** The status codes offered: the known ones, plus any code the scanner uses. */
export function statusOptions(scanner: InputScannerInfo): Array<{ code: number; label: string }> {
  const codes = new Set(Object.keys(statusCodeLabels).map(Number));
  for (const p of scanner.InputScannerReportingPriorities ?? []) codes.add(p.StatusCode);
  return [...codes].sort((a, b) => a - b).map((code) => ({ code, label: statusLabel(code) }));
}

/** Why a value cannot be a priority or status code (a 32-bit whole number), or nothing. */
export function wholeNumberProblem(value: number): string | undefined {
  if (!Number.isInteger(value)) return l10n.t('must be a whole number');
  if (value < int32.min || value > int32.max) return l10n.t('must be a 32-bit whole number');
  return undefined;
}

/** Why an edit cannot be saved (row numbers from 1), or nothing. */
export function checkEdits(edits: readonly RowEdit[], count: number): string | undefined {
  if (edits.length !== count) return count === 1 ? l10n.t('expected 1 row, got {0}', edits.length) : l10n.t('expected {0} rows, got {1}', count, edits.length);
  for (const [i, e] of edits.entries()) {
    const priority = wholeNumberProblem(e.priority);
    if (priority) return l10n.t('row {0}: the priority {1}', i + 1, priority);
    const status = wholeNumberProblem(e.statusCode);
    if (status) return l10n.t('row {0}: the status {1}', i + 1, status);
    if (typeof e.label !== 'string') return l10n.t('row {0}: the label must be text', i + 1);
  }
  return undefined;
}

/** The scanner with one row's priority and status changed. */
export function withRow(scanner: InputScannerInfo, index: number, change: { priority?: number; statusCode?: number }): InputScannerInfo {
  return applyEdits(
    scanner,
    rowsOf(scanner).map((r, i) => ({
      label: r.label,
      priority: i === index ? (change.priority ?? r.priority) : r.priority,
      statusCode: i === index ? (change.statusCode ?? r.statusCode) : r.statusCode,
    })),
  );
}

/** The scanner with the rows' edits; every other field exactly as it was. */
export function applyEdits(scanner: InputScannerInfo, edits: readonly RowEdit[]): InputScannerInfo {
  return {
    ...scanner,
    InputScannerReportingPriorities: scanner.InputScannerReportingPriorities.map((p, i) => {
      const e = edits[i];
      if (!e || (e.label === (p.CommonName ?? '') && e.priority === p.Priority && e.statusCode === p.StatusCode)) return p;
      return { ...p, CommonName: e.label === '' && p.CommonName === null ? null : e.label, Priority: e.priority, StatusCode: e.statusCode };
    }),
  };
}
