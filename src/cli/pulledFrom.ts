/**
 * Where this user pulled each folder from: the service a terminal's plan, diff and apply send the
 * token to without asking. Kept in the user's state folder (`$XDG_STATE_HOME/oms`, else
 * `~/.local/state/oms`; `%LOCALAPPDATA%\oms` on Windows), by the folder's real path, and never in
 * the pulled folder: a pull request can change any file of it, and git checks a committed
 * `.oms/` file out over the ignored one of the same name without a word. A `--url` the user typed,
 * or a yes on the terminal, records the URL too.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { readPrivateFile, writePrivateFile } from '../util/privateFile';

function recordFile(env: NodeJS.ProcessEnv): string {
  const state =
    process.platform === 'win32' ? env.LOCALAPPDATA || path.join(homedir(), 'AppData', 'Local') : env.XDG_STATE_HOME || path.join(homedir(), '.local', 'state');
  return path.join(state, 'oms', 'pulled-from.json');
}

/** The folder's real path (of its parent, before a first pull makes it). */
const folderId = (root: string): string => {
  const resolved = path.resolve(root);
  try {
    return realpathSync(resolved);
  } catch {
    const parent = path.dirname(resolved);
    return parent === resolved ? resolved : path.join(folderId(parent), path.basename(resolved));
  }
};

async function records(env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  try {
    const parsed = JSON.parse(await readPrivateFile(recordFile(env))) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {}; // none yet, unreadable or a link: nothing is known, so the terminal asks
  }
}

/** The URL this user pulled `root` from (or said yes to), if any. */
export async function pulledFrom(root: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const url = (await records(env))[folderId(root)];
  return typeof url === 'string' ? url : undefined;
}

/** Records `url` for `root`. Best effort: a home that cannot be written only means the next run on a terminal asks. */
export async function rememberPulledFrom(root: string, url: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const all = await records(env);
  const id = folderId(root);
  if (all[id] === url) return;
  all[id] = url;
  await writePrivateFile(recordFile(env), JSON.stringify(all, null, 2) + '\n').catch(() => undefined);
}
