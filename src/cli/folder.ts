/** A pulled folder named on the command line, and the connection of its manifest. */
import * as path from 'node:path';
import { stat } from 'node:fs/promises';
import { Manifest, manifestName, readManifest } from '../changes/code/manifest';
import type { ConnectionBinding } from '../changes/code/manifest';
import { bindingOf } from '../changes/code/pull';
import type { Connection } from '../connection/connection';
import { CliError } from './exit';
import { Parsed, text } from './args';
import { connect, ServiceOptions, serviceUrl } from './service';
import { l10n } from '../l10n';

export interface PulledFolder {
  root: string;
  manifest: Manifest;
}

/** `only`: the objects of the manifest to read (all by default); `[]` reads its head alone, as plan and apply read the rest themselves. */
export async function pulledFolder(folder: string, only?: Iterable<string>): Promise<PulledFolder> {
  const root = path.resolve(folder);
  const info = await stat(root).catch(() => undefined);
  if (!info?.isDirectory()) throw new CliError(l10n.t('{0} is not a folder', folder));
  let manifest: Manifest | undefined;
  try {
    manifest = await readManifest(root, only);
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  if (!manifest) throw new CliError(l10n.t('{0} holds no {1}: pull into it first (oms pull {0} --url <base> --folder <key>)', folder, manifestName));
  return { root, manifest };
}

/**
 * The connection the manifest names, once its URL is settled (service.ts: in CI it must be the one OMS_URL
 * or --url gives), and its binding as the service tells it now (the instance read once).
 */
export async function serviceOf({ root, manifest }: PulledFolder, values: Parsed['values']): Promise<{ connection: Connection; binding: ConnectionBinding }> {
  const options: ServiceOptions = {
    tokenFile: text(values['token-file']),
    allowHttp: !!values['allow-http'],
    yesProduction: !!values['yes-production'],
    url: text(values.url),
  };
  const { label, url, production } = manifest.connection;
  await serviceUrl(root, url, options);
  const connection = connect(manifest.connection, options);
  return { connection, binding: await bindingOf(connection.client, label, url, production) };
}
