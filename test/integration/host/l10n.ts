// The extension's languages in the host: the manifest's %key% strings resolved (the runner reads
// titles from it), and the pseudo-localized run (OMS_IT_LOCALE=qps-ploc): l10n-dev's generated
// pseudo bundles put into the unpacked extension, the window in that display language.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getL10nPseudoLocalized } from '@vscode/l10n-dev';

/** The pseudo language's id (VS Code's own), when this run is pseudo-localized. */
export const pseudoLocale = process.env.OMS_IT_LOCALE === 'qps-ploc' ? 'qps-ploc' : undefined;

/** package.json of an unpacked extension with its `%key%` strings as the window shows them (package.nls[.<locale>].json). */
export function readManifest<T>(extensionPath: string): T {
  const text = fs.readFileSync(path.join(extensionPath, 'package.json'), 'utf8');
  const nlsFile = path.join(extensionPath, pseudoLocale ? `package.nls.${pseudoLocale}.json` : 'package.nls.json');
  const nls = fs.existsSync(nlsFile) ? (JSON.parse(fs.readFileSync(nlsFile, 'utf8')) as Record<string, string>) : {};
  return JSON.parse(text, (_key, value: unknown) => (typeof value === 'string' && /^%[\w.-]+%$/.test(value) ? (nls[value.slice(1, -1)] ?? value) : value)) as T;
}

/**
 * Writes package.nls.qps-ploc.json and l10n/bundle.l10n.qps-ploc.json into the unpacked extension,
 * from its package.nls.json and the repository's l10n/bundle.l10n.json (English needs no bundle, so
 * the .vsix holds none).
 */
export function addPseudoBundles(repo: string, extensionPath: string): void {
  const pseudo = (from: string, to: string) => {
    const english = JSON.parse(fs.readFileSync(from, 'utf8')) as Record<string, string>;
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, JSON.stringify(getL10nPseudoLocalized(english)));
  };
  pseudo(path.join(extensionPath, 'package.nls.json'), path.join(extensionPath, `package.nls.${pseudoLocale}.json`));
  pseudo(path.join(repo, 'l10n', 'bundle.l10n.json'), path.join(extensionPath, 'l10n', `bundle.l10n.${pseudoLocale}.json`));
}

/**
 * The window's display language, offline. The VS Code server picks the window's messages by
 * `--locale` among the language packs it knows (`languagepacks.json` in its user data, which VS Code
 * writes when a language pack extension is installed: src/vs/platform/languagePacks/node/languagePacks.ts);
 * the generated messages declare the language, the extension host gets it as `vscode.env.language`
 * and loads our `bundle.l10n.qps-ploc.json`. The pack written here translates none of VS Code's own
 * strings: they stay English (the shared UI helpers find VS Code's commands and buttons by them), and
 * the pseudo check leaves out the few of them it meets.
 */
export function addPseudoLanguagePack(userDataDir: string, packDir: string): void {
  const translations = path.join(packDir, 'translations', 'main.i18n.json');
  fs.mkdirSync(path.dirname(translations), { recursive: true });
  fs.writeFileSync(translations, JSON.stringify({ version: '1.0.0', contents: {} }));
  const id = 'oms-test.pseudo-language-pack';
  const version = '0.0.1';
  const hash = createHash('md5').update(id).update(version).digest('hex');
  const packs = { [pseudoLocale!]: { hash, extensions: [{ extensionIdentifier: { id }, version }], translations: { vscode: translations }, label: 'Pseudo' } };
  fs.mkdirSync(userDataDir, { recursive: true });
  fs.writeFileSync(path.join(userDataDir, 'languagepacks.json'), JSON.stringify(packs));
}
