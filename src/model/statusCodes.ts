import { l10n } from '../l10n';
import { makeType, TypeNaming } from './typeName';
import type { InputScannerReportingPriority } from './types';

/**
 * InputScannerStatusCodes as the spec pairs them with labels. The complete
 * enum is not shown; 0-6 are the values the samples use. Shown through
 * `statusLabel` (translated; `npm run l10n` adds them to the bundle).
 */
export const statusCodeLabels: Readonly<Record<number, string>> = {
  0: 'Inactive, normal state of circuit',
  1: 'Active',
  2: 'Supervisory fault, ground fault',
  3: 'Supervisory fault, shorted circuit',
  4: 'Supervisory fault, open circuit',
  5: 'Supervisory fault, foreign voltage',
  6: 'Non-settling error',
};

/** The code's label in the user's language (`Status 9` for a code the spec does not label). */
export function statusLabel(code: number): string {
  const label = statusCodeLabels[code];
  return label === undefined ? l10n.t('Status {0}', code) : l10n.t(label);
}

/**
 * The spec's eight sample ranges in entry order: [label, min, max, priority, status].
 * Ranges and priorities are the spec's; which status goes with which range is
 * not shown, so these follow a usual end-of-line supervised input (short at
 * low resistance, normal near 1 kOhm, active near 2 kOhm, open above 25 kOhm).
 * @internal Exported for its unit test.
 */
export const sampleRanges: ReadonlyArray<readonly [string, number, number, number, number]> = [
  ['Supervisory fault, shorted circuit', -2, 50, 1, 3],
  ['Supervisory fault, ground fault', 50, 850, 1, 2],
  ['Inactive, normal state of circuit', 850, 1150, 2, 0],
  ['Supervisory fault, ground fault', 1150, 1800, 1, 2],
  ['Active', 1800, 2200, 0, 1],
  ['Supervisory fault, ground fault', 2200, 25000, 1, 2],
  ['Supervisory fault, open circuit', 25000, -1, 1, 4],
  ['Supervisory fault, foreign voltage', -4, -3, 1, 5],
];

/** The sample ranges as a new input scanner's reporting priorities. */
export function samplePriorities(naming?: TypeNaming): InputScannerReportingPriority[] {
  return sampleRanges.map(([CommonName, MinResistanceCode, MaxResistanceCode, Priority, StatusCode]) => ({
    $type: makeType('InputScannerReportingPriority', naming),
    CommonName,
    Priority,
    StatusCode,
    MinResistanceCode,
    MaxResistanceCode,
  }));
}
