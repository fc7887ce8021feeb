/**
 * The service a command talks to: a connection (src/connection/connection.ts, the extension's one
 * way out) for a pulled folder's URL and the command line's token. A folder's manifest is a file a
 * pull request may change, so the token's destination is settled before the token is read:
 *
 * - In CI (no terminal, or the `CI` variable set) the URL comes from `OMS_URL` or `--url`, never
 *   from the folder alone, and the manifest must name the same one.
 * - On a terminal the manifest's URL may be used; when it is not the one this user pulled the
 *   folder from (pulledFrom.ts), that is said and asked before anything is sent.
 *
 * An `OMS_URL` that is set but empty (what `${{ vars.OMS_URL }}` gives for a missing variable) is an
 * error, not "unset". Plain http leaves this machine only with --allow-http. A redirect is never
 * followed (src/api/http.ts): the token stays with the URL settled here.
 */
import { Connection } from '../connection/connection';
import { checkBaseUrl, isLoopback, normalizeBaseUrl } from '../connection/connectionInfo';
import { ApiError } from '../api/errors';
import type { ConnectionBinding } from '../changes/code/manifest';
import { manifestName } from '../changes/code/manifest';
import { CliError } from './exit';
import { pulledFrom, rememberPulledFrom } from './pulledFrom';
import { askYes, interactive } from './terminal';
import { visible } from './visible';
import { cliToken } from './token';
import { l10n } from '../l10n';

export interface ServiceOptions {
  tokenFile?: string;
  allowHttp?: boolean;
  /** Given --yes-production: the writes of a production connection may go out. */
  yesProduction?: boolean;
  /** Given --url: the service the token goes to. */
  url?: string;
}

/** A URL given by the user (`what`: where it was given), as the manifest writes it; a clear error when it is none. */
function givenUrl(text: string | undefined, what: string): string | undefined {
  if (text === undefined) return undefined;
  if (!text.trim()) {
    throw new CliError(
      what === 'OMS_URL'
        ? l10n.t(
            "OMS_URL is set but empty: set it to the service's URL (a pipeline variable that is not defined gives an empty one), or unset it. Nothing was sent.",
          )
        : l10n.t("{0} is empty: give the service's URL. Nothing was sent.", what),
    );
  }
  const problem = checkBaseUrl(text);
  if (problem) throw new CliError(`${what}: ${problem}`);
  return normalizeBaseUrl(text);
}

/** The URL the user gave, in `--url` or `OMS_URL` (the same one when both), normalized; undefined when neither. */
export function pinnedUrl(flag: string | undefined, env = process.env): string | undefined {
  const fromEnv = givenUrl(env.OMS_URL, 'OMS_URL');
  const fromFlag = givenUrl(flag, '--url');
  if (fromEnv && fromFlag && fromEnv !== fromFlag) {
    throw new CliError(l10n.t('--url names {0} but OMS_URL names {1}: give one. Nothing was sent.', fromFlag, fromEnv));
  }
  return fromEnv ?? fromFlag;
}

function inCi(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return !interactive() || (!!ci && ci !== 'false' && ci !== '0');
}

/**
 * The URL the token of `root` may go to, settled before it is read: `named` is the one its manifest
 * names (none before a first pull). Undefined when nothing names one.
 */
export async function serviceUrl(root: string, named: string | undefined, options: ServiceOptions, env = process.env): Promise<string | undefined> {
  const pinned = pinnedUrl(options.url, env);
  const fromEnv = !!env.OMS_URL?.trim();
  // The manifest's URL is the folder's word: shown inert, and used only when it is a URL.
  if (named !== undefined && checkBaseUrl(named)) {
    throw new CliError(
      l10n.t(
        '{0} names {1}, which is not a base URL: restore the file from git, or pull again into a new folder. Nothing was sent.',
        manifestName,
        JSON.stringify(printable(named)),
      ),
    );
  }
  named &&= normalizeBaseUrl(named);
  if (pinned) {
    if (named !== undefined && named !== pinned) {
      throw new CliError(
        l10n.t(
          '{0} names {1}, but {2} names {3}: refused before anything was sent (the token goes only to the URL given there). If the service moved, pull again into a new folder.',
          manifestName,
          named,
          fromEnv ? 'OMS_URL' : '--url',
          pinned,
        ),
      );
    }
    if (!fromEnv) await rememberPulledFrom(root, pinned, env);
    return pinned;
  }
  if (named === undefined) return undefined;
  if (inCi(env)) {
    throw new CliError(
      l10n.t(
        "No terminal: give the service's URL in OMS_URL or --url. The URL in {0} ({1}) comes from the folder's files, which a pull request can change, so the token is not sent to it alone. Nothing was sent.",
        manifestName,
        named,
      ),
    );
  }
  const known = await pulledFrom(root, env);
  if (known === named) return named;
  process.stderr.write(
    `${
      known
        ? l10n.t('{0} names {1}, but you pulled this folder from {2}: its files may have been changed to send the token elsewhere.', manifestName, named, known)
        : l10n.t('You have not pulled this folder on this machine: the URL {0} comes from its {1}.', named, manifestName)
    }\n`,
  );
  if (!(await askYes(l10n.t('Send the access token to {0}?', named)))) {
    throw new CliError(l10n.t("The token was not sent to {0}. Give the service's URL with --url, or pull the folder from it again. Nothing was sent.", named));
  }
  await rememberPulledFrom(root, named, env);
  return named;
}

/** Refuses plain http to another machine, before the token is read. */
function checkDestination(url: string, options: ServiceOptions): void {
  const parsed = new URL(url);
  if (parsed.protocol === 'http:' && !isLoopback(parsed) && !options.allowHttp) {
    throw new CliError(l10n.t('{0} is plain http to another machine: the token would cross the network readable. Use https, or add --allow-http', url));
  }
}

/** `binding.url` must be the one `serviceUrl` settled. */
export function connect(binding: Pick<ConnectionBinding, 'label' | 'url' | 'production'>, options: ServiceOptions): Connection {
  checkDestination(binding.url, options);
  const { token, from } = cliToken(options.tokenFile);
  const tokens = { accessToken: token };
  return new Connection(
    { id: 'cli', label: binding.label, baseUrl: binding.url, production: binding.production },
    {
      tokens: { get: () => Promise.resolve(tokens), set: () => Promise.resolve(), delete: () => Promise.resolve() },
      limits: () => ({}),
      // Checked before anything is planned (apply refuses a production folder without --yes-production); this is the last gate.
      askBeforeWrite: () => (options.yesProduction ? Promise.resolve() : Promise.reject(new CliError(productionRefusal(binding.label)))),
      explain: (e) => explained(e, from, token),
    },
  );
}

/**
 * A failure as the command line says it: the service's words made inert (they are untrusted), and a
 * 401 said to be the token's refusal, with where the token came from. The token never shows.
 */
function explained(e: ApiError, from: string, token: string): ApiError {
  const words = printable(e.message).split(token).join('***');
  const message = e.status === 401 ? l10n.t('The service refused the access token from {0} (401: {1})', from, words) : words;
  if (message === e.message) return e;
  const out = new ApiError(
    e.kind,
    message,
    e.status,
    e.method,
    e.path,
    e.details.map((d) => ({ ...d, message: printable(d.message).split(token).join('***') })),
  );
  return Object.assign(out, { tokenRefused: e.tokenRefused, notSignedIn: e.notSignedIn, retryAfterMs: e.retryAfterMs });
}

/** At most 300 characters on one line, every control, line-breaking or direction-changing character shown as `<U+XXXX>`. */
function printable(text: string): string {
  const flat = visible(
    text
      .replace(/\r\n|[\r\n]/g, ' ')
      .replace(/ {2,}/g, ' ')
      .trim(),
  );
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

export function productionRefusal(label: string): string {
  return l10n.t('{0} is a production connection (recorded in oms.manifest.json): add --yes-production to write to it. Nothing was sent.', label);
}
