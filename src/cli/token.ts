/**
 * The access token of the command line: from the environment (`OMS_TOKEN`) or a file named by
 * `--token-file`, never an argument (every local user sees a process's arguments). It is only ever
 * sent as the bearer token; messages built from answers mask it (src/api/http.ts).
 */
import { readFileSync } from 'node:fs';
import { readToken } from '../api/auth';
import { CliError } from './exit';
import { l10n } from '../l10n';

export function cliToken(tokenFile: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  let text: string;
  let from: string;
  if (tokenFile !== undefined) {
    from = tokenFile;
    try {
      text = readFileSync(tokenFile, 'utf8');
    } catch (e) {
      throw new CliError(l10n.t('Cannot read the token file {0} ({1})', tokenFile, (e as NodeJS.ErrnoException).code ?? 'error'));
    }
  } else if (env.OMS_TOKEN !== undefined) {
    from = 'OMS_TOKEN';
    text = env.OMS_TOKEN;
  } else {
    throw new CliError(l10n.t('No access token: set the environment variable OMS_TOKEN, or name a file holding it with --token-file'));
  }
  const read = readToken(text);
  if ('token' in read) return read.token;
  // The reason and where, never the token itself.
  const why = read.problem === 'empty' ? l10n.t('it is empty') : read.problem === 'space'
    ? l10n.t('it has white space at character {0}', read.at ?? 0) : l10n.t('it has a character a header cannot carry at character {0}', read.at ?? 0);
  throw new CliError(l10n.t('The access token in {0} cannot be sent: {1}', from, why));
}
