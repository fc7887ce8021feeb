/**
 * What the polls ask of VS Code (loaded with them): the connections' reads and labels, saves on their way,
 * what to say of a failure. Go to Object's index subscribes here, as the reads start: it takes every group
 * read (its own reads are then fewer).
 */
import vscode = require('vscode');
import { log } from '../log';
import type { Services } from '../services';
import { notify, showLogAction } from '../ui/notify';
import type { LiveFeed, LiveHost, PollHost } from './liveFeed';

export function pollHost(s: Pick<Services, 'connections' | 'saves' | 'search'>, live: LiveFeed): Omit<PollHost, keyof LiveHost> {
  live.onDidRead(({ connectionId, groups }) => {
    for (const read of groups) s.search.observed(connectionId, read.group.folderKey, read.group.kind.id, read.items, read.complete);
  });
  return {
    source: (id) => ({
      listAgain: (...a) => s.connections.require(id).client.listAgain(...a),
      getAgain: (...a) => s.connections.require(id).client.getAgain(...a),
    }),
    label: (id) => s.connections.get(id)?.info.label ?? id,
    signedIn: async (id) => !!(await s.connections.get(id)?.hasToken()),
    isSaving: (connectionId, o) => s.saves.isSaving({ ...o, connectionId }),
    failed: (name, e) =>
      notify(
        'warning',
        vscode.l10n.t('Live updates of {0} could not read the service ({1}); they go on, less often, and say nothing more until it answers.', name, e.message),
        showLogAction,
      ),
    recovered: (name) => log().info(`Live updates of ${name} read the service again`),
    error: (text) => log().error(text),
  };
}
