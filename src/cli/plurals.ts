/** Counted words of the command line: one message for one, another for many (never "1 objects"); objects are counted by the run core's `objectsText`. */
import { l10n } from '../l10n';

export const filesWritten = (n: number): string => (n === 1 ? l10n.t('1 file written') : l10n.t('{0} files written', n));
export const filesRemoved = (n: number): string => (n === 1 ? l10n.t('1 file removed') : l10n.t('{0} files removed', n));
export const editedFilesKept = (n: number): string =>
  n === 1
    ? l10n.t('Kept 1 file edited since the last pull (--overwrite-edits replaces it):')
    : l10n.t('Kept {0} files edited since the last pull (--overwrite-edits replaces them):', n);
export const invalidCount = (n: number): string => (n === 1 ? l10n.t('1 invalid entry') : l10n.t('{0} invalid entries', n));
export const writesCount = (n: number): string => (n === 1 ? l10n.t('1 write') : l10n.t('{0} writes', n));
export const refusedCount = (n: number): string => (n === 1 ? l10n.t('1 entry was refused:') : l10n.t('{0} entries were refused:', n));
