/**
 * `oms query <expression> --folder <key>` with OMS_URL or --url (the service, with the token) or `oms query <expression>
 * <pulled folder>` (its files, no token): the objects the JMESPath expression matches, as JSON, CSV or a table.
 * Exit 0 with results, 3 with none, 1 on an invalid query (its column shown) or any error.
 */
import * as path from 'node:path';
import { Kind, kind as kindOf, objectKinds, supports } from '../model/kinds';
import { cellText, resultColumns } from '../query/columns';
import { compileQuery, Query, QueryProblem } from '../query/compile';
import { csvText } from '../query/csv';
import { pulledKinds, queryPulledFolder } from '../query/pulledFolder';
import { Match, QueryCancelled, QueryProgress, runQuery } from '../query/run';
import { Parsed, text } from './args';
import { CliError, exitCodes } from './exit';
import { kindsOf } from './pullCommand';
import { connect, pinnedUrl } from './service';
import { objectsText } from '../runs/core/words';
import { progressLines } from './terminal';
import { visible } from './visible';
import { l10n } from '../l10n';

const formats = ['json', 'csv', 'table'] as const;

export async function queryCommand({ positionals: [expression, folder], values }: Parsed): Promise<number> {
  const format = text(values.format) ?? 'table';
  if (!(formats as readonly string[]).includes(format)) throw new CliError(l10n.t('--format takes json, csv or table (got "{0}")', format));
  const asked = text(values.kinds);
  const chosen = text(values.columns)
    ?.split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  if (folder !== undefined) {
    if (values.url !== undefined || values.folder !== undefined)
      throw new CliError(l10n.t('A pulled folder is queried from its files: leave out --url and --folder'));
    const root = path.resolve(folder);
    const kinds =
      asked !== undefined
        ? kindsOf(asked).map(kindOf)
        : await pulledKinds(root).catch((e: Error) => {
            throw new CliError(e.message);
          });
    const query = compiled(expression, kinds, chosen);
    const answer = await queryPulledFolder(root, query, kinds);
    for (const u of answer.unreadable) process.stderr.write(`${l10n.t('{0}: not read ({1})', u.path, u.error)}\n`);
    return report(query, answer.matches, answer.progress, format, chosen);
  }
  const url = pinnedUrl(text(values.url));
  if (!url) throw new CliError(l10n.t('The service to query is given in OMS_URL or --url; or name a pulled folder after the expression'));
  const folderKey = text(values.folder);
  if (!folderKey) throw new CliError(l10n.t('--folder is required: the Key of the service folder to query'));
  const kinds: Kind[] = asked !== undefined ? kindsOf(asked).map(kindOf) : objectKinds.filter((k) => supports(k, 'list'));
  const query = compiled(expression, kinds, chosen);
  const connection = connect({ label: new URL(url).host, url }, { tokenFile: text(values['token-file']), allowHttp: !!values['allow-http'] });
  const stop = new AbortController();
  const cancel = () => stop.abort();
  process.once('SIGINT', cancel);
  const matches: Match[] = [];
  const progress = progressLines((n) => l10n.t('Read {0}', objectsText(n)));
  let done;
  try {
    done = await runQuery(
      connection.client,
      query,
      { folderKey, subfolders: !!values.subfolders, kinds },
      {
        signal: stop.signal,
        onMatches: (m) => matches.push(...m),
        onProgress: (p) => progress(p.scanned),
      },
    );
  } catch (e) {
    if (e instanceof QueryCancelled) throw new CliError(l10n.t('Query cancelled; matched so far: {0}', objectsText(matches.length)));
    throw e;
  } finally {
    process.off('SIGINT', cancel);
  }
  return report(query, matches, done, format, chosen);
}

/** The query compiled, its warnings on stderr; an invalid query (or column) is a CliError naming its column. */
function compiled(expression: string, kinds: readonly Kind[], columns: readonly string[] | undefined): Query {
  const c = compileQuery(expression, kinds);
  if ('error' in c) throw new CliError(problemText(expression, c.error, l10n.t('Invalid query')));
  for (const w of c.warnings) process.stderr.write(`${problemText(expression, w, l10n.t('Warning'))}\n`);
  for (const column of columns ?? []) {
    const col = compileQuery(column, kinds);
    if ('error' in col) throw new CliError(problemText(column, col.error, l10n.t('Invalid column')));
  }
  return c.query;
}

/** `Invalid query at column 49: expected ']'…`, then the text with a caret under the place. */
function problemText(source: string, p: QueryProblem, what: string): string {
  const oneLine = source.replace(/[\r\n\t]/g, ' ');
  const heading = l10n.t('{0} at column {1}: {2}', what, p.position + 1, p.message);
  const caret = ' '.repeat(p.position) + '^'.repeat(Math.max(1, Math.min(p.length, oneLine.length - p.position)));
  return `${heading}\n  ${oneLine}\n  ${caret}`;
}

function report(query: Query, matches: Match[], progress: QueryProgress, format: string, chosen: string[] | undefined): number {
  const columns = resultColumns(query, chosen);
  if (format === 'json') {
    // Chosen columns: rows of them; else the objects themselves, as the service (or the files) hold them.
    const rows = chosen?.length ? matches.map((m) => Object.fromEntries(columns.map((c) => [c.title, c.value(m) ?? null]))) : matches.map((m) => m.object);
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  } else if (format === 'csv') {
    process.stdout.write(
      csvText(
        columns.map((c) => c.title),
        matches.map((m) => columns.map((c) => c.value(m))),
      ),
    );
  } else if (matches.length) {
    // Names and values are others' text: a control character (an ESC sequence) is written out, not obeyed.
    const cells = [columns.map((c) => visible(c.title)), ...matches.map((m) => columns.map((c) => visible(cellText(c.value(m)))))];
    const widths = columns.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
    for (const row of cells)
      process.stdout.write(
        `${row
          .map((cell, i) => cell.padEnd(widths[i]))
          .join('  ')
          .trimEnd()}\n`,
      );
  }
  if (progress.failed) {
    process.stderr.write(`${l10n.t('Not evaluated, so not matched: {0} ({1})', objectsText(progress.failed), progress.firstFailure ?? '')}\n`);
  }
  process.stderr.write(`${l10n.t('Matched {0} of {1}', matches.length, objectsText(progress.scanned))}\n`);
  return matches.length ? exitCodes.ok : exitCodes.noResults;
}
