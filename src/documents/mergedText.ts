/** The message of a save merged with the server's changes, loaded with the merge (not at activation). */
import vscode = require('vscode');
import { fieldLabels } from '../model/fieldNames';
import type { BaseInfo } from '../model/types';

/** A save merged with the server's changes: which fields it took in. */
export function mergedText(name: string, object: BaseInfo, tookTheirs: readonly string[]): string {
  const saved = object.CommonName ?? name;
  if (!tookTheirs.length)
    return vscode.l10n.t('Saved "{0}" (version {1}); the server\'s newer version held no change your edit lacked', saved, String(object.ConcurrencyVersion));
  return vscode.l10n.t(
    'Saved "{0}" (version {1}), merged with the server\'s changes to: {2}',
    saved,
    String(object.ConcurrencyVersion),
    fieldLabels(tookTheirs, object),
  );
}
