/**
 * Inlay hints with the label of each status code in open input scanner
 * documents: `"StatusCode": 4 ⟵ Supervisory fault, open circuit`, also for
 * `NonSettlingErrorStatus`. Controlled by the setting `oms.statusCodeHints`.
 */
import vscode = require('vscode');
import { statusCodeLabels, statusLabel } from '../model/statusCodes';
import { parseObjectUri, scheme, serverScheme } from '../fs/objectUri';

const pattern = /"(StatusCode|NonSettlingErrorStatus)"(\s*:\s*)(-?\d+)/g;

export interface StatusCodeMention {
  field: string;
  code: number;
  /** Offset just after the number. */
  end: number;
}

/** Every `"StatusCode": n` and `"NonSettlingErrorStatus": n` in the text. */
function findStatusCodes(text: string): StatusCodeMention[] {
  const found: StatusCodeMention[] = [];
  for (const m of text.matchAll(pattern)) {
    found.push({ field: m[1], code: Number(m[3]), end: (m.index ?? 0) + m[0].length });
  }
  return found;
}

function hintLabel(code: number): string {
  return `⟵ ${statusCodeLabels[code] === undefined ? vscode.l10n.t('not a known status code') : statusLabel(code)}`;
}

function isScannerDocument(doc: vscode.TextDocument): boolean {
  if (doc.uri.scheme !== scheme && doc.uri.scheme !== serverScheme) return false;
  return parseObjectUri(doc.uri)?.kind.id === 'inputScanner';
}

function enabled(): boolean {
  return vscode.workspace.getConfiguration('oms').get<boolean>('statusCodeHints', true);
}

export function registerStatusCodeHints(): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const provider: vscode.InlayHintsProvider = {
    onDidChangeInlayHints: changed.event,
    provideInlayHints(doc, range) {
      if (!enabled() || !isScannerDocument(doc)) return [];
      const start = doc.offsetAt(range.start),
        end = doc.offsetAt(range.end);
      return findStatusCodes(doc.getText())
        .filter((m) => m.end >= start && m.end <= end)
        .map((m) => {
          const hint = new vscode.InlayHint(doc.positionAt(m.end), hintLabel(m.code));
          hint.paddingLeft = true;
          hint.tooltip =
            statusCodeLabels[m.code] === undefined
              ? vscode.l10n.t('{0} is not one of the status codes the service documents (0-6)', m.code)
              : vscode.l10n.t('InputScannerStatusCodes {0}: {1}', m.code, statusLabel(m.code));
          return hint;
        });
    },
  };
  return vscode.Disposable.from(
    changed,
    vscode.languages.registerInlayHintsProvider([{ scheme }, { scheme: serverScheme }], provider),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('oms.statusCodeHints')) changed.fire();
    }),
  );
}
