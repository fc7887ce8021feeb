/** `oms plan <folder>`: the editor's Plan Changes, printed (text, Markdown or JSON) and optionally saved. */
import { writeFile } from 'node:fs/promises';
import { makePlan, Plan } from '../changes/code/plan';
import { planFileText, withSecretsMasked } from '../changes/code/planFile';
import type { OmsClient } from '../api/client';
import type { ConnectionBinding } from '../changes/code/manifest';
import { Parsed, text } from './args';
import { CliError, exitCodes } from './exit';
import { pulledFolder, serviceOf } from './folder';
import { actionCounts } from '../changes/code/planCounts';
import { hasChanges } from './planValues';
import { planMarkdown } from './planMarkdown';
import { planText } from './planText';
import { l10n } from '../l10n';

const formats = ['text', 'markdown', 'json'] as const;

export async function planCommand({ positionals: [folder], values }: Parsed): Promise<number> {
  const format = text(values.format) ?? 'text';
  if (!(formats as readonly string[]).includes(format)) throw new CliError(l10n.t('--format takes text, markdown or json (got "{0}")', format));
  const { root, manifest } = await pulledFolder(folder, []);
  const { connection, binding } = await serviceOf({ root, manifest }, values);
  const plan = withSecretsMasked(await cliPlan(connection.client, root, binding));
  const out = text(values.out);
  if (out) await writeFile(out, planFileText(plan));
  process.stdout.write(
    format === 'json' ? JSON.stringify(plan, null, 2) + '\n' : format === 'markdown' ? planMarkdown(plan, { fullPlan: out }) : planText(plan),
  );
  if (actionCounts(plan.entries).invalid) return exitCodes.error;
  return values['detailed-exitcode'] && hasChanges(plan) ? exitCodes.changes : exitCodes.ok;
}

/**
 * The plan as the command line makes it: deletes included and ticked, as all creates and updates
 * are (apply sends them only when --deletes names their count; the editor ticks them one by one).
 */
export async function cliPlan(client: OmsClient, root: string, binding: ConnectionBinding): Promise<Plan> {
  const { plan } = await makePlan(client, root, binding, { includeDeletes: true });
  for (const e of plan.entries) if (e.action === 'delete') e.selected = true;
  return plan;
}
