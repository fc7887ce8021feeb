/**
 * The service a command talks to: a connection (src/connection/connection.ts, the extension's one
 * way out) for a pulled folder's URL and the command line's token. In CI the URL comes from files a
 * pull request may change, so the token's destination is checked first: `OMS_URL`, when set, is the
 * only URL the token goes to, and plain http leaves this machine only with --allow-http.
 */
import { Connection } from '../connection/connection';
import { isLoopback } from '../connection/connectionInfo';
import type { ConnectionBinding } from '../changes/code/manifest';
import { CliError } from './exit';
import { cliToken } from './token';
import { l10n } from '../l10n';

export interface ServiceOptions {
  tokenFile?: string;
  allowHttp?: boolean;
  /** Given --yes-production: the writes of a production connection may go out. */
  yesProduction?: boolean;
}

/** Refuses a URL the token must not go to, before the token is read. */
function checkDestination(url: string, options: ServiceOptions, env: NodeJS.ProcessEnv = process.env): void {
  const pinned = env.OMS_URL?.trim().replace(/\/+$/, '');
  if (pinned && pinned !== url) {
    throw new CliError(l10n.t('This folder names {0}, but OMS_URL allows only {1}: nothing was sent', url, pinned));
  }
  const parsed = new URL(url);
  if (parsed.protocol === 'http:' && !isLoopback(parsed) && !options.allowHttp) {
    throw new CliError(l10n.t('{0} is plain http to another machine: the token would cross the network readable. Use https, or add --allow-http', url));
  }
}

export function connect(binding: Pick<ConnectionBinding, 'label' | 'url' | 'production'>, options: ServiceOptions): Connection {
  checkDestination(binding.url, options);
  const token = { accessToken: cliToken(options.tokenFile) };
  return new Connection({ id: 'cli', label: binding.label, baseUrl: binding.url, production: binding.production }, {
    tokens: { get: () => Promise.resolve(token), set: () => Promise.resolve(), delete: () => Promise.resolve() },
    limits: () => ({}),
    // Checked before anything is planned (apply refuses a production folder without --yes-production); this is the last gate.
    askBeforeWrite: () => (options.yesProduction ? Promise.resolve() : Promise.reject(new CliError(productionRefusal(binding.label)))),
  });
}

export function productionRefusal(label: string): string {
  return l10n.t('{0} is a production connection (recorded in oms.manifest.json): add --yes-production to write to it. Nothing was sent.', label);
}
