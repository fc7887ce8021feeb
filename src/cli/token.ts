/**
 * The access token of the command line: from the environment (`OMS_TOKEN`) or a file named by
 * `--token-file`, never an argument (every local user sees a process's arguments). It is only ever
 * sent as the bearer token; messages built from answers mask it (src/api/http.ts).
 *
 * A token file may be a symbolic link: it is the user's own file, named on the command line (a
 * Kubernetes secret volume or a CI runner's secret mount is a link). Its mode is the file's it
 * leads to; readable by group or others, it gets a warning, as ssh gives for a key.
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { readToken } from '../api/auth';
import { CliError } from './exit';
import { l10n } from '../l10n';

export interface CliToken {
  token: string;
  /** Where it came from, as the user named it: `OMS_TOKEN` or the file's path. */
  from: string;
}

export function cliToken(
  tokenFile: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  warn = (line: string) => process.stderr.write(`${line}\n`),
): CliToken {
  let text: string;
  let from: string;
  if (tokenFile !== undefined) {
    from = tokenFile;
    try {
      const fd = openSync(tokenFile, 'r');
      try {
        const mode = fstatSync(fd).mode & 0o777;
        if (mode & 0o077 && process.platform !== 'win32') {
          warn(
            l10n.t(
              'oms: warning: the token file {0} can be read by others (mode {1}): make it yours alone with chmod 600 {0}',
              tokenFile,
              `0${mode.toString(8)}`,
            ),
          );
        }
        text = readFileSync(fd, 'utf8');
      } finally {
        closeSync(fd);
      }
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
  if ('token' in read) return { token: read.token, from };
  // The reason and where, never the token itself.
  const why =
    read.problem === 'empty'
      ? l10n.t('it is empty')
      : read.problem === 'space'
        ? l10n.t('it has white space at character {0}', read.at ?? 0)
        : l10n.t('it has a character a header cannot carry at character {0}', read.at ?? 0);
  throw new CliError(l10n.t('The access token in {0} cannot be sent: {1}', from, why));
}
