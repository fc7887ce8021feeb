// The extension's languages in the host: the manifest's %key% strings resolved (the runner reads
// titles from it), and the pseudo-localized run (OMS_IT_LOCALE=qps-ploc): l10n-dev's generated
// pseudo bundles put into the unpacked extension, the window in that display language.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BrowserContext } from 'playwright-core';

/** The pseudo language's id (VS Code's own), when this run is pseudo-localized. */
export const pseudoLocale = process.env.OMS_IT_LOCALE === 'qps-ploc' ? 'qps-ploc' : undefined;

/** package.json of an unpacked extension with its `%key%` strings as the window shows them (package.nls[.<locale>].json). */
export function readManifest<T>(extensionPath: string): T {
  const text = fs.readFileSync(path.join(extensionPath, 'package.json'), 'utf8');
  const nlsFile = path.join(extensionPath, pseudoLocale ? `package.nls.${pseudoLocale}.json` : 'package.nls.json');
  const nls = fs.existsSync(nlsFile) ? (JSON.parse(fs.readFileSync(nlsFile, 'utf8')) as Record<string, string>) : {};
  return JSON.parse(text, (_key, value: unknown) => (typeof value === 'string' && /^%[\w.-]+%$/.test(value) ? nls[value.slice(1, -1)] ?? value : value)) as T;
}

/** Writes package.nls.qps-ploc.json and l10n/bundle.l10n.qps-ploc.json beside the English ones. */
export function addPseudoBundles(repo: string, extensionPath: string): void {
  const tool = path.join(repo, 'node_modules', '.bin', 'vscode-l10n-dev');
  // Each file's pseudo twin is written beside it.
  execFileSync(tool, ['generate-pseudo', 'package.nls.json', 'l10n/bundle.l10n.json'], { cwd: extensionPath, stdio: 'ignore' });
}

/**
 * The window's display language is what a language pack's messages script declares
 * (`_VSCODE_NLS_LANGUAGE`); VS Code then asks for the extension's qps-ploc bundles. No pseudo
 * language pack is installed (offline), so the script VS Code falls back to (its English
 * messages) declares it: VS Code's own words stay English, the extension's are pseudo.
 */
export async function inPseudoLanguage(context: BrowserContext): Promise<void> {
  await context.route('**/out/nls.messages.js', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: `${await response.text()}\nglobalThis._VSCODE_NLS_LANGUAGE = ${JSON.stringify(pseudoLocale)};\n` });
  });
}
