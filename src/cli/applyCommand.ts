/**
 * `oms apply <folder> [plan.json]`: the editor's Apply, from a terminal or a pipeline. Every refusal
 * (no terminal to ask and no --auto-approve, production without --yes-production, deletes not
 * counted) comes before anything is sent; then the core applies the plan, one write per object
 * through the executor, the manifest moving forward per object (src/changes/code/apply.ts).
 */
import * as path from 'node:path';
import { actionCounts, isTicked, ticked } from '../changes/code/planCounts';
import { sendPlan } from '../runs/core/applyRun';
import { RunStopped } from '../runs/core/run';
import { readPlanFile, withSecretsMasked } from '../changes/code/planFile';
import { Parsed, wholeNumber } from './args';
import { invalidLines, leftOut, reportApply } from './applyReport';
import { CliError, exitCodes, partlyApplied } from './exit';
import { pulledFolder, serviceOf } from './folder';
import { cliPlan } from './planCommand';
import { planText } from './planText';
import { productionRefusal } from './service';
import { invalidCount, writesCount } from './plurals';
import { objectsText } from '../runs/core/words';
import { askYes, interactive } from './terminal';
import { terminalHost } from './terminalHost';
import { visible } from './visible';
import { l10n } from '../l10n';

export async function applyCommand({ positionals: [folder, planFile], values }: Parsed): Promise<number> {
  const deletes = wholeNumber(values.deletes, 'deletes') ?? 0;
  const autoApprove = !!values['auto-approve'];
  if (!autoApprove && !interactive()) {
    throw new CliError(l10n.t('No terminal to ask for a yes: run with --auto-approve to apply without asking. Nothing was sent.'));
  }
  const { root, manifest } = await pulledFolder(folder, []);
  if (manifest.connection.production && !values['yes-production']) throw new CliError(productionRefusal(manifest.connection.label));
  const saved = planFile
    ? await readPlanFile(path.resolve(planFile)).catch((e: Error) => {
        throw new CliError(e.message);
      })
    : undefined;
  const { connection, binding } = await serviceOf({ root, manifest }, values);
  const plan = saved ?? (await cliPlan(connection.client, root, binding));
  // An invalid file is a change that cannot go: the rest goes only when asked (the plan, too, fails on it).
  const invalid = invalidLines(plan);
  if (invalid.length && !values['skip-invalid']) {
    process.stdout.write(planText(withSecretsMasked(plan)));
    const heading = l10n.t('{0} of the plan cannot be sent:', invalidCount(invalid.length));
    const advice = l10n.t('Nothing was sent: fix them, or give --skip-invalid to apply the rest.');
    throw new CliError([heading, ...invalid, advice].join('\n'));
  }

  const sends = ticked(plan);
  const n = actionCounts(sends);
  if (n.delete !== deletes) {
    const planned = objectsText(n.delete);
    throw new CliError(l10n.t('The plan deletes {0} and --deletes says {1}: give --deletes {2} to apply it. Nothing was sent.', planned, deletes, n.delete));
  }
  if (!sends.length) {
    process.stdout.write(planText(withSecretsMasked({ ...plan, entries: plan.entries.filter((e) => !isTicked(e)) })));
    process.stdout.write(`${l10n.t('Nothing to apply.')}\n`);
    return plan.entries.length ? reportApply(leftOut(plan), line) : exitCodes.ok;
  }
  const what = l10n.t('{0} to create, {1} to update, {2} to delete', n.create, n.update, n.delete);
  process.stdout.write(planText(withSecretsMasked(plan)));
  const target = `${binding.label} (${binding.url})`;
  if (!autoApprove && !(await askYes(l10n.t('Apply {0} to {1}?', what, target)))) {
    throw new CliError(l10n.t('Not applied: the answer was not "yes". Nothing was sent.'));
  }

  // Through the run core, as the editor's Apply (src/runs/core/applyRun.ts): one approval, the journal in the
  // folder's .oms/runs/ (each write's intent on disk before it goes out, so a run killed part way leaves a record
  // of every object it may have written), progress lines, Ctrl+C; the report below is apply's own.
  const stopOnError = !!values['stop-on-error'];
  const host = terminalHost({
    autoApprove,
    stopOnError,
    ownReport: true,
    progressWords: (done, total) => l10n.t('Applied {0} of {1}', done, objectsText(total)),
  });
  let record: Awaited<ReturnType<typeof sendPlan>>;
  try {
    record = await sendPlan(host, { connection, binding, root, plan, stopOnError, title: l10n.t('Apply {0}: {1}', folder, what) });
  } catch (e) {
    // Stopped by an error after writes went out: not "nothing was sent". The journal names each write.
    if (!(e instanceof RunStopped)) throw e;
    throw new CliError(
      l10n.t(
        "{0} The apply stopped after sending {1}: the run's journal in .oms/runs/ names each, plan again to see where the service stands.",
        visible(e.message),
        writesCount(e.writes),
      ),
      partlyApplied,
    );
  }
  const { results, reportFile: report } = record;
  const code = reportApply([...results, ...leftOut(plan)], line);
  line(l10n.t('Report: {0}', path.relative(process.cwd(), report) || report));
  return code;
}

const line = (text: string) => process.stdout.write(`${text}\n`);
