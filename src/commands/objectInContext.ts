/** The object a command acts on: a tree node, a document URI, `{ connectionId, folderKey, kind, key }`, or the active editor. */
import * as vscode from 'vscode';
import type { ObjectAddress } from '../fs/objectUri';
import { kind as kindOf, KindId } from '../model/kinds';
import type { Services } from './services';

export interface ObjectArgs {
  connectionId: string;
  folderKey: string;
  kind: KindId;
  key: string;
}

/** An object from a tree node (`address`), a document URI, args, or the active editor. */
export function objectInContext(s: Services, target: unknown): { address: ObjectAddress; name: string } {
  const t = target as { address?: ObjectAddress; name?: string } | ObjectArgs | vscode.Uri | undefined;
  if (t && 'address' in t && t.address) return { address: t.address, name: t.name ?? t.address.key };
  if (t && 'kind' in t && typeof t.kind === 'string') return { address: { ...t, kind: kindOf(t.kind) }, name: t.key };
  const uri = t instanceof vscode.Uri ? t : vscode.window.activeTextEditor?.document.uri;
  const address = uri && s.fs.addressOf(uri);
  if (!address) throw new Error('Choose an object in the tree, or open one, first');
  return { address, name: s.fs.baseOf(uri)?.CommonName ?? address.key };
}

