/**
 * `oms pull <folder> --url <base> --folder <key>`: the editor's Pull as Files (and Pull Again in a pulled folder).
 * Exits 0 when everything was pulled, 2 when something was refused (each named, with its reason), 1 on an error.
 */
import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { PullScope, readManifest } from '../changes/code/manifest';
import { bindingOf, pull } from '../changes/code/pull';
import { startPullThreads, useThreadCode } from '../changes/code/pullWriter';
import { KindId, objectKinds, supports } from '../model/kinds';
import { Parsed, text } from './args';
import { CliError, exitCodes } from './exit';
import { connect, serviceUrl } from './service';
import { editedFilesKept, filesRemoved, filesWritten, refusedCount } from './plurals';
import { objectsText } from '../runs/core/words';
import { progressLines } from './terminal';
import { visible } from './visible';
import { l10n } from '../l10n';

/** The pull threads' code, put in by esbuild.js (the command line is one file); run from source, pullWriter.ts finds it. */
declare const OMS_PULL_THREAD: string | undefined;

export async function pullCommand({ positionals: [folder], values }: Parsed): Promise<number> {
  const root = path.resolve(folder);
  let existing;
  try {
    existing = await readManifest(root, []); // its connection and scope: the pull reads the objects itself
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  const url = await serviceUrl(root, existing?.connection.url, { url: text(values.url) });
  if (!url) throw new CliError(l10n.t('--url is required: the base URL of the service to pull from'));
  const folderKey = text(values.folder) ?? existing?.scope.folderKey;
  if (!folderKey) throw new CliError(l10n.t('--folder is required: the Key of the service folder to pull'));
  const kindList = text(values.kinds);
  const kinds = kindList !== undefined ? kindsOf(kindList) : (existing?.scope.kinds ?? objectKinds.filter((k) => supports(k, 'list')).map((k) => k.id));
  const scope: PullScope = { folderKey, recursive: values.subfolders === undefined ? (existing?.scope.recursive ?? false) : true, kinds };
  const label = text(values.label) ?? existing?.connection.label ?? new URL(url).host;
  const production = !!values.production || !!existing?.connection.production;

  await mkdir(root, { recursive: true });
  const connection = connect({ label, url, production }, { tokenFile: text(values['token-file']), allowHttp: !!values['allow-http'] });
  if (typeof OMS_PULL_THREAD === 'string') useThreadCode(OMS_PULL_THREAD);
  startPullThreads(); // they start while the instance is read
  const binding = await bindingOf(connection.client, label, url, production);
  const stop = new AbortController();
  const cancel = () => stop.abort();
  process.once('SIGINT', cancel);
  const progress = progressLines((objects) => l10n.t('Pulled {0}', objectsText(objects)));
  let report;
  try {
    report = await pull(connection.client, root, binding, {
      scope,
      overwriteEdits: !!values['overwrite-edits'],
      signal: stop.signal,
      onProgress: (p) => progress(p.objects),
    });
  } finally {
    process.off('SIGINT', cancel);
  }
  const where = folder;
  if (report.cancelled) {
    process.stderr.write(`${l10n.t('Pull cancelled after {0} ({1}): pull again to finish it.', objectsText(report.objects), filesWritten(report.written))}\n`);
    return exitCodes.error;
  }
  const pulled = l10n.t('Pulled {0} into {1}: {2}, {3}.', objectsText(report.objects), where, filesWritten(report.written), filesRemoved(report.removed));
  process.stdout.write(`${pulled}\n`);
  if (report.keptEdits.length) {
    process.stdout.write(`${editedFilesKept(report.keptEdits.length)}\n`);
    for (const p of report.keptEdits) process.stdout.write(`  ${p}\n`);
  }
  // What was not pulled, each with its reason (a manifest entry refused, an object that cannot be a file here): pulled in part.
  if (!report.refused.length) return exitCodes.ok;
  process.stderr.write(`${refusedCount(report.refused.length)}\n${report.refused.map((r) => `  ${visible(r)}\n`).join('')}`);
  return exitCodes.changes;
}

/** Kinds by id or collection name (inputScanner or inputscanners), any case. */
export function kindsOf(list: string): KindId[] {
  const listable = objectKinds.filter((k) => supports(k, 'list'));
  return list
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean)
    .map((w) => {
      const found = listable.find((k) => k.id.toLowerCase() === w.toLowerCase() || k.collection === w.toLowerCase());
      if (!found) throw new CliError(l10n.t('--kinds: {0} is not a kind that can be pulled. The kinds: {1}', w, listable.map((k) => k.id).join(', ')));
      return found.id;
    });
}
