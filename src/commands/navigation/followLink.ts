/**
 * Follows a reference of an object document (the target of its links):
 * `{ connectionId, href?, key? }`. Objects open, folders and notes are
 * revealed in the tree, an object known only by its key is looked up.
 */
import vscode = require('vscode');
import { follow, targetOf } from '../../editor/targets';
import { leavesBase } from '../../model/routes';
import type { Command } from '../framework/command';

export interface FollowLinkArgs {
  connectionId: string;
  href?: string;
  key?: string;
}

export const followLink: Command = {
  id: 'oms.followLink',
  async run(s, args: FollowLinkArgs) {
    if (args.href && leavesBase(args.href)) {
      throw new Error(vscode.l10n.t('The link {0} would leave this connection, so it was not followed', JSON.stringify(args.href.slice(0, 200))));
    }
    const target = targetOf(args.connectionId, args);
    if (!target) throw new Error(vscode.l10n.t('This reference leads nowhere the extension can show'));
    await follow(s, target);
  },
};
