/**
 * Words of the kinds registry (src/model/kinds.ts) in the user's language, for what the UI shows.
 * `npm run l10n` adds the registry's labels to the bundle (scripts/l10nBundle.ts): `l10n-dev export`
 * finds only literal `vscode.l10n.t` calls.
 */
import * as vscode from 'vscode';
import type { Kind } from './model/kinds';

/** "Input scanner", translated. */
export const kindLabel = (kind: Kind): string => vscode.l10n.t(kind.label);

/** "Input scanners", translated. */
export const kindsLabel = (kind: Kind): string => vscode.l10n.t(kind.pluralLabel);
