/** What every webview page of the extension is made with: text made inert in HTML, one head, scripts by nonce only. */
import vscode = require('vscode');

export function html(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function newNonce(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Buffer.from(bytes)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}

/** A page of the extension's media: media/page.css and its own stylesheet, its body, its scripts (in order). */
export interface Page {
  /** Already made inert. */
  title: string;
  stylesheet: string;
  scripts: readonly string[];
  /** What its scripts say, in the user's language (read from the body's data-l10n). */
  strings: Record<string, string>;
  body: string;
}

/** The whole document: nothing loads but the extension's own stylesheets and the scripts carrying this page's nonce. */
export function webviewPage(webview: vscode.Webview, extensionUri: vscode.Uri, page: Page): string {
  const media = (file: string) => html(webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', file)).toString());
  const nonce = newNonce();
  return `<!DOCTYPE html>
<html lang="${html(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link href="${media('page.css')}" rel="stylesheet">
<link href="${media(page.stylesheet)}" rel="stylesheet">
<title>${page.title}</title>
</head>
<body data-l10n="${html(JSON.stringify(page.strings))}">
${page.body}
${page.scripts.map((file) => `<script nonce="${nonce}" src="${media(file)}"></script>`).join('\n')}
</body>
</html>`;
}
