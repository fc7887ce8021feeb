/**
 * `oms undo <run>` and `oms retry <run>`: Undo Run… and Retry Failed… of the editor on the same
 * journals, through the same run core: a run of `oms apply` (the pulled folder's `.oms/runs/`), a
 * CI job's artifact, or a run of the editor. `<run>` is a journal file (`<run id>.jsonl`), or a
 * run id in the current folder's `.oms/runs/`. The undo or retry is journalled beside the run.
 * Exit codes as apply's: 0 all done, 1 nothing sent, 2 sent in part.
 */
import * as path from 'node:path';
import { lstat } from 'node:fs/promises';
import { bulkChanges } from '../changes/bulk';
import { makePlan } from '../changes/code/plan';
import type { RunHeader, RunJournal } from '../changes/runJournal';
import { kind as kindOf } from '../model/kinds';
import { applyTitle, sendPlan } from '../runs/core/applyRun';
import { previewAndRun } from '../runs/core/changesRun';
import { folderJournal, folderOfJournal, journalFile } from '../runs/core/journals';
import { outstandingRuns, retrySelection, tickOutstanding } from '../runs/core/retry';
import { peopleOf, peopleText, sendPeopleRun } from '../runs/core/peopleRun';
import { undoSelection } from '../runs/core/undo';
import { retryCountsText } from '../runs/core/words';
import type { Connection } from '../connection/connection';
import { Parsed, text } from './args';
import { CliError, exitCodes } from './exit';
import { pulledFolder, serviceOf, type PulledFolder } from './folder';
import { connect, productionRefusal, type ServiceOptions } from './service';
import { normalizeBaseUrl } from '../connection/connectionInfo';
import { bindingOf } from '../changes/code/pull';
import { approved, checkCanAsk, runExitCode, terminalHost, type TerminalOptions } from './terminalHost';
import { l10n } from '../l10n';

interface RunArgs {
  journal: RunJournal;
  runId: string;
  terminal: TerminalOptions;
  values: Parsed['values'];
}

async function runArgs({ positionals: [run], values }: Parsed): Promise<RunArgs> {
  const terminal = { autoApprove: !!values['auto-approve'], stopOnError: !!values['stop-on-error'] };
  checkCanAsk(terminal);
  const isFile = run.endsWith('.jsonl') || !!(await lstat(path.resolve(run)).catch(() => undefined))?.isFile();
  const found = isFile
    ? await journalFile(run).catch((e: Error) => {
        throw new CliError(e.message);
      })
    : { journal: folderJournal(process.cwd()), runId: run };
  if (!isFile && !(await found.journal.has(run).catch(() => false))) {
    throw new CliError(l10n.t('No run {0} in {1}: name a journal file (<run id>.jsonl) or a run id of this folder', run, found.journal.dir));
  }
  return { ...found, terminal, values };
}

/** The pulled folder a run belongs to: its journal's (`<folder>/.oms/runs/`), else an apply's recorded folder, if it holds a manifest. */
async function folderOfRun(header: RunHeader, journal: RunJournal): Promise<PulledFolder | undefined> {
  const root = folderOfJournal(journal) ?? (header.recipe?.type === 'apply' ? header.recipe.folder : undefined);
  return root ? pulledFolder(root, []).catch(() => undefined) : undefined;
}

/**
 * The service a run wrote to. A journal is a file others may hand over (a CI artifact), as a manifest is: its
 * URL is trusted as a pulled folder's is (service.ts: OMS_URL or --url, else the folder this machine pulled),
 * and a journal outside a pulled folder needs the URL given in OMS_URL or --url, which it must name.
 */
async function serviceOfRun(header: RunHeader, journal: RunJournal, values: Parsed['values']): Promise<{ connection: Connection; folder?: PulledFolder }> {
  const folder = await folderOfRun(header, journal);
  const production = header.production || folder?.manifest.connection.production;
  if (production && !values['yes-production']) throw new CliError(productionRefusal(folder?.manifest.connection.label ?? header.url ?? header.title));
  if (folder) {
    const { connection } = await serviceOf(folder, values);
    if (header.url && normalizeBaseUrl(header.url) !== normalizeBaseUrl(connection.info.baseUrl)) {
      throw new CliError(l10n.t('The run wrote to {0}, but its folder is bound to {1}: nothing was sent.', header.url, connection.info.baseUrl));
    }
    return { connection, folder };
  }
  if (!header.url) throw new CliError(l10n.t('“{0}” was recorded before runs named their service: undo or retry it in the editor', header.title));
  const given = process.env.OMS_URL?.trim() || text(values.url);
  if (!given) {
    throw new CliError(
      l10n.t(
        'The run wrote to {0}: give that URL in OMS_URL or --url (a journal file comes from others, so the token is not sent to the URL it names alone). Nothing was sent.',
        header.url,
      ),
    );
  }
  if (normalizeBaseUrl(given) !== normalizeBaseUrl(header.url)) {
    throw new CliError(l10n.t('The run wrote to {0}, not to {1}: nothing was sent.', header.url, given));
  }
  const options: ServiceOptions = { tokenFile: text(values['token-file']), allowHttp: !!values['allow-http'], yesProduction: !!values['yes-production'] };
  return { connection: connect({ label: new URL(header.url).host, url: normalizeBaseUrl(header.url), production: !!header.production }, options) };
}

const read = async <T>(work: Promise<T>): Promise<T> =>
  work.catch((e: Error) => {
    throw e instanceof CliError ? e : new CliError(e.message);
  });

export async function undoCommand(parsed: Parsed): Promise<number> {
  const { journal, runId, terminal, values } = await runArgs(parsed);
  const undo = await read(undoSelection(journal, runId));
  const { connection } = await serviceOfRun(undo.header, journal, values);
  if (!undo.changes.length) {
    for (const n of undo.notes) process.stdout.write(`  ${n.label}: ${n.note}\n`);
    process.stdout.write(`${l10n.t('{0}: nothing can be put back.', undo.title)}\n`);
    return exitCodes.ok;
  }
  const host = terminalHost(terminal);
  const record = await previewAndRun(host, {
    connection,
    journal,
    title: undo.title,
    changes: undo.changes,
    header: { of: runId, recipe: { type: 'undo' } },
    words: { runLabel: l10n.t('Put back'), notes: undo.notes, lines: undo.lines },
  });
  if (!record) return nothingSent();
  const stale = record.results.filter((r) => r.outcome === 'stale').length;
  if (stale)
    process.stderr.write(
      `${l10n.t('{0} changed by someone since the run were left as they are: Undo Run… in the editor offers to merge them.', String(stale))}\n`,
    );
  return runExitCode(record);
}

export async function retryCommand(parsed: Parsed): Promise<number> {
  const { journal, runId, terminal, values } = await runArgs(parsed);
  const [run] = await read(outstandingRuns(journal, undefined, runId));
  if (!run) {
    process.stdout.write(`${l10n.t('Run {0} has no failed or unsent objects left to send.', runId)}\n`);
    return exitCodes.ok;
  }
  const recipe = run.header.recipe;
  if (!recipe) throw new CliError(l10n.t('“{0}” was recorded before runs could be retried: run it again', run.header.title));
  const { entries, lostCreates, lines } = retrySelection(run.entries);
  if (lostCreates.length) process.stderr.write(`${lines[lines.length - 1]}\n`);
  if (!entries.length) return exitCodes.error;
  const host = terminalHost(terminal);
  const header = { recipe, retryOf: run.header.runId, ...(run.header.of ? { of: run.header.of } : {}) };
  const title = l10n.t('Retry of “{0}”', run.header.title);
  const never = new Set(entries.filter((e) => e.outcome === 'notSent').map((e) => e.id));
  const words = {
    runLabel: l10n.t('Send'),
    objects: (changed: ReadonlyArray<{ change: { id: string } }>) => {
      const unsent = changed.filter((e) => never.has(e.change.id)).length;
      return retryCountsText(changed.length - unsent, unsent);
    },
  };
  const { connection, folder } = await serviceOfRun(run.header, journal, values);
  if (recipe.type === 'apply') {
    if (!folder) throw new CliError(l10n.t('The folder of “{0}” is not here ({1}): retry it in the pulled folder', run.header.title, recipe.folder));
    return retryApply(connection, folder, run.header, entries, terminal);
  }
  if (recipe.type === 'people') {
    // A batch add's failed people, sent again from the journal's copies.
    const people = peopleOf(entries);
    if (!(await approved(terminal, l10n.t('{0}: send {1}?', title, peopleText(people.length))))) return nothingSent();
    const { folderKey, batchSize } = recipe;
    const peopleRun = { connection, journal, title, folderKey, people, batchSize, concurrency: 4, source: run.header.title, retryOf: run.header.runId };
    return runExitCode(await sendPeopleRun(host, { ...peopleRun, stopOnError: terminal.stopOnError }));
  }
  const changes =
    recipe.type === 'bulk'
      ? bulkChanges(
          entries.filter((e) => e.key).map((e) => ({ kind: kindOf(e.kind), folderKey: e.folderKey, key: e.key!, name: e.label })),
          recipe.operation,
        )
      : (await read(undoSelection(journal, run.header.of ?? ''))).changes.filter((c) => entries.some((e) => e.id === c.id));
  const record = await previewAndRun(host, { connection, journal, title, changes, header, words });
  return record ? runExitCode(record) : nothingSent();
}

/** A fresh plan of the pulled folder with the run's outstanding entries ticked. */
async function retryApply(
  connection: Connection,
  { root, manifest }: PulledFolder,
  header: RunHeader,
  entries: Parameters<typeof tickOutstanding>[1],
  terminal: TerminalOptions,
): Promise<number> {
  const { label, url, production } = manifest.connection;
  const binding = await bindingOf(connection.client, label, url, production);
  const { plan } = await makePlan(connection.client, root, binding, { includeDeletes: entries.some((e) => e.op === 'delete') });
  const ticked = tickOutstanding(plan, entries);
  if (!ticked) {
    process.stdout.write(`${l10n.t('“{0}”: none of its failed objects has anything to send now (plan again to see why).', header.title)}\n`);
    return exitCodes.ok;
  }
  const unsent = new Set(entries.filter((e) => e.outcome === 'notSent').flatMap((e) => [e.id, ...(e.key ? [e.key] : [])]));
  const never = plan.entries.filter((e) => e.selected && (unsent.has(e.id) || (!!e.key && unsent.has(e.key)))).length;
  const question = l10n.t('Retry of “{0}”: send {1}?', header.title, retryCountsText(ticked - never, never));
  if (!(await approved(terminal, question))) return nothingSent();
  const title = applyTitle(path.relative(process.cwd(), root) || '.', plan);
  const record = await sendPlan(terminalHost(terminal), { connection, binding, root, plan, stopOnError: terminal.stopOnError, retryOf: header.runId, title });
  process.stdout.write(`${l10n.t('Report: {0}', path.relative(process.cwd(), record.reportFile) || record.reportFile)}\n`);
  return runExitCode(record);
}

function nothingSent(): number {
  process.stderr.write(`${l10n.t('Nothing was sent.')}\n`);
  return exitCodes.error;
}
