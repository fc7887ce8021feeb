/** The columns of a query's results: the object's name, kind and Key, then the fields the query names (or those chosen). */
import { l10n } from '../l10n';
import { columnValue, Query } from './compile';
import type { Match } from './run';

export interface Column {
  /** What the header says. */
  title: string;
  value(m: Match): unknown;
}

/** `chosen`: JMESPath expressions of their own (`InputScannerReportingPriorities[?Priority == \`1\`].StatusCode`). */
export function resultColumns(query: Query, chosen?: readonly string[]): Column[] {
  const fields = chosen?.length ? chosen : query.columns.filter((c) => c !== 'CommonName' && c !== 'Key');
  return [
    { title: l10n.t('Name'), value: (m) => m.object.CommonName },
    { title: l10n.t('Kind'), value: (m) => l10n.t(m.kind.label) },
    { title: 'Key', value: (m) => m.key },
    { title: 'InFolderKey', value: (m) => m.folderKey },
    ...fields.map((f) => ({ title: f, value: (m: Match) => columnValue(f, m.object) })),
  ];
}

/** A cell as one line of text: strings as they are, anything else as compact JSON without the service's `$type` names. */
export function cellText(value: unknown, most = 60): string {
  const text = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value, withoutTypeNames);
  const line = text.replace(/[\r\n\t]+/g, ' ');
  return line.length > most ? `${line.slice(0, most - 1)}…` : line;
}

/** `$type` ("Feenics.Keep.WebApi.Model.…") says nothing a reader of a cell needs, and would fill it. */
const withoutTypeNames = (key: string, value: unknown): unknown => (key === '$type' ? undefined : value);
