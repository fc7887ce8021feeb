/** The connection a journalled run goes out on again (its undo, its retry): by id or URL, else an apply's pulled folder's. */
import vscode = require('vscode');
import type { RunHeader, RunJournal } from '../../changes/runJournal';
import type { Connection } from '../../connection/connection';
import { folderOfJournal } from '../../runs/core/journals';
import { connectionFor } from '../../runs/vscodeHost';
import { connectionOf } from '../objectsAsCode/codeFolder';
import type { Services } from '../framework/command';

export async function runConnection(s: Services, header: RunHeader, journal: RunJournal): Promise<Connection> {
  const found = connectionFor(s, header);
  if (found) return found;
  // A run of `oms apply` from before journals named their service: its folder's manifest does.
  if (header.recipe?.type === 'apply') return connectionOf(s, folderOfJournal(journal) ?? header.recipe.folder);
  throw new Error(
    header.url
      ? vscode.l10n.t('No connection to {0}, where “{1}” ran: add one (Add Connection…) and try again', header.url, header.title)
      : vscode.l10n.t('The connection “{0}” ran on was removed', header.title),
  );
}
