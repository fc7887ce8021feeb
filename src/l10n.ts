/**
 * `l10n.t` for the modules that also run without VS Code (the plain TypeScript that unit tests load:
 * failure reports, save refusals, network errors, ...). It reads the bundle VS Code loaded for the
 * extension (`vscode.l10n.bundle`, handed over by `extension.ts` on activation) and, like
 * `vscode.l10n.t`, fills in `{0}`, `{1}`; without a bundle (unit tests, English) the message is its own
 * text. `npm run l10n` exports these calls with the others (scripts/l10nBundle.ts).
 */
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
