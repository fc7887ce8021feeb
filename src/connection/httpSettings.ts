/**
 * The client's settings (time-out, answer size cap, the proxy settings VS Code leaves to
 * extensions: src/api/proxyFetch.ts), read once and again after they change: every request needs
 * them, and a read of VS Code's configuration cost the extension host about as much as the rest of
 * building the request.
 */
import vscode = require('vscode');
import { loopbackFetch } from '../api/loopbackFetch';
import { proxyFetchFor } from '../api/proxyFetch';
import { wholeNumberSetting } from '../settings';
import type { HttpLimits } from './connection';

export class HttpSettings implements vscode.Disposable {
  private current?: HttpLimits;
  private readonly watching = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('oms.requestTimeoutSeconds') || e.affectsConfiguration('oms.maxResponseMegabytes') || e.affectsConfiguration('http'))
      this.current = undefined;
  });

  get(): HttpLimits {
    if (!this.current) {
      const http = vscode.workspace.getConfiguration('http');
      this.current = {
        timeoutMs: wholeNumberSetting('requestTimeoutSeconds') * 1000,
        maxResponseBytes: wholeNumberSetting('maxResponseMegabytes') * 1024 * 1024,
        fetchFor: orElse(
          loopbackFetch,
          proxyFetchFor({
            proxy: http.get<string>('proxy') || undefined,
            authorization: http.get<string | null>('proxyAuthorization') || undefined,
            strictSSL: http.get<boolean>('proxyStrictSSL', true),
            noProxy: http.get<string[]>('noProxy', []),
            support: http.get<string>('proxySupport', 'override'),
          }),
        ),
      };
    }
    return this.current;
  }

  dispose(): void {
    this.watching.dispose();
  }
}

/** The first of two fetch choosers that picks one for a URL (undefined: VS Code's fetch). */
const orElse =
  (first: HttpLimits['fetchFor'], second: HttpLimits['fetchFor']): HttpLimits['fetchFor'] =>
  (url) =>
    first(url) ?? second(url);
