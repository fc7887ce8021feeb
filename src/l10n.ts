/**
 * The words the extension shows, in the user's language, for every layer: `l10n.t` works in the
 * modules that also run without VS Code (the plain TypeScript that unit tests load: failure reports,
 * save refusals, network errors, ...) as in the UI layers. It reads the bundle VS Code loaded for the
 * extension (`vscode.l10n.bundle`, handed over by `extension.ts` on activation) and, like
 * `vscode.l10n.t`, fills in `{0}`, `{1}`; without a bundle (unit tests, English) the message is its own
 * text. `npm run l10n` exports these calls with the others (scripts/l10nBundle.ts), and adds the kinds
 * registry's labels, which `kindLabel` and `kindsLabel` look up: `l10n-dev export` finds only literal calls.
 */
import type { Kind } from './model/kinds';

type Arg = string | number | boolean;

let bundle: Readonly<Record<string, string>> | undefined;

export function useBundle(contents: Readonly<Record<string, string>> | undefined): void {
  bundle = contents;
}

export const l10n = {
  t(message: string, ...args: Arg[]): string {
    return (bundle?.[message] ?? message).replace(/\{(\d+)\}/g, (whole, i: string) => (args[Number(i)] === undefined ? whole : String(args[Number(i)])));
  },
};

/** "Input scanner", translated. */
export const kindLabel = (kind: Kind): string => l10n.t(kind.label);

/** "Input scanners", translated. */
export const kindsLabel = (kind: Kind): string => l10n.t(kind.pluralLabel);
