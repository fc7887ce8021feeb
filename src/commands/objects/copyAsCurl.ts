/**
 * Copy as cURL: the request that reads an object (from the tree or an open
 * document), a group (its first page) or a folder, as a shell command with
 * `$TOKEN` in place of the token. Returns the command.
 */
import vscode = require('vscode');
import type { OmsClient } from '../../api/client';
import { curlOf } from '../../api/curl';
import { CollectionNode } from '../../tree/nodes/collectionNode';
import { FolderNode } from '../../tree/nodes/folderNode';
import { pageSize } from '../../tree/nodes/context';
import type { Connection } from '../../connection/connection';
import { notify } from '../../ui/notify';
import { targeted, thisObject } from '../framework/commandTargets';
import type { Services } from '../framework/command';
import { kindsLabel } from '../../l10n';

/** What Copy as cURL copies: the request that reads the target, and how the message names it. */
interface RequestTarget {
  connectionId: string;
  call: (c: OmsClient) => Promise<unknown>;
  what: string;
}

export const copyAsCurl = targeted({
  id: 'oms.copyAsCurl',
  target: requestOf,
  run: (s, { connectionId, call, what }: RequestTarget): Promise<string> => copyCurl(s.connections.require(connectionId), call, what),
});

/** Copies the cURL form of a client call and says how to use it. */
export async function copyCurl(connection: Connection, call: (c: OmsClient) => Promise<unknown>, what: string): Promise<string> {
  const text = await curlOf(connection.info.baseUrl, call);
  await vscode.env.clipboard.writeText(text);
  notify('info', vscode.l10n.t('Copied the cURL command for {0}. Set TOKEN to your access token before running it.', what));
  return text;
}

/** A Copy as cURL button for confirmations. */
export const curlButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('terminal'), tooltip: vscode.l10n.t('Copy as cURL') };

async function requestOf(s: Services, target: unknown): Promise<RequestTarget> {
  if (target instanceof CollectionNode) {
    return {
      connectionId: target.connectionId,
      call: (c) => c.list(target.kind, target.folderKey, 0, pageSize()),
      what: vscode.l10n.t('the first page of {0}', kindsLabel(target.kind).toLowerCase()),
    };
  }
  if (target instanceof FolderNode) {
    return {
      connectionId: target.connectionId,
      call: (c) => c.folder(target.folderKey),
      what: vscode.l10n.t('folder "{0}"', target.folder.CommonName ?? target.folderKey),
    };
  }
  const { address, name } = await thisObject(s, target);
  return { connectionId: address.connectionId, call: (c) => c.get(address.kind, address.folderKey, address.key), what: `"${name}"` };
}
