/** The text of a new query file (New Query File): how the file works in comments, the folder's scope, one example query. */
import { kindsLabel, l10n } from '../l10n';
import type { Kind } from '../model/kinds';

export interface NewQueryFilePlace {
  /** The folder as `# folder:` names it (names from the instance down, or a key); empty for the instance. */
  folder: string;
  /** A group's kind, when New Query File ran on one. */
  kind?: Kind;
  /** Written only when it is not the active connection. */
  connection?: string;
}

export function newQueryFileText(place: NewQueryFilePlace): string {
  // The first line names an untitled file's tab.
  const lines = [
    `# ${l10n.t('OMS queries')}`,
    `# ${l10n.t('"Run Query" above a query runs it (Ctrl+Enter runs the one at the cursor).')}`,
    `# ${l10n.t('A query is JMESPath (jmespath.site) on one or more lines; a blank line or a comment ends it.')}`,
    `# ${l10n.t('Scope lines: kinds (ids), folder (names from the instance down, or a key), subfolders (yes or no), connection (a name).')}`,
    `# ${l10n.t('Each holds for the queries below it, up to the next ### heading; those above the first heading hold for the whole file.')}`,
  ];
  if (place.connection) lines.push(`# connection: ${place.connection}`);
  lines.push(`# folder: ${place.folder || '/'}`, '# subfolders: yes', '');
  const k = place.kind;
  if (!k || k.id === 'inputScanner') {
    lines.push(
      `### ${l10n.t('Input scanners with an open circuit (status 4) at priority 1')}`,
      '# kinds: inputScanner',
      'InputScannerReportingPriorities[?Priority == `1` && StatusCode == `4`]',
    );
  } else {
    lines.push(`### ${l10n.t('{0} whose name contains "Main"', kindsLabel(k))}`, `# kinds: ${k.id}`, "contains(CommonName, 'Main')");
  }
  return `${lines.join('\n')}\n`;
}
