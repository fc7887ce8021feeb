/**
 * The client's settings (time-out, answer size cap), read once and again after
 * they change: every request needs them, and a read of VS Code's configuration
 * cost the extension host about as much as the rest of building the request.
 */
import * as vscode from 'vscode';
import { wholeNumberSetting } from '../settings';

export interface HttpLimits {
  timeoutMs: number;
  maxResponseBytes: number;
}

export class HttpSettings implements vscode.Disposable {
  private current?: HttpLimits;
  private readonly watching = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('oms.requestTimeoutSeconds') || e.affectsConfiguration('oms.maxResponseMegabytes')) this.current = undefined;
  });

  get(): HttpLimits {
    if (!this.current) {
      this.current = {
        timeoutMs: wholeNumberSetting('requestTimeoutSeconds') * 1000,
        maxResponseBytes: wholeNumberSetting('maxResponseMegabytes') * 1024 * 1024,
      };
    }
    return this.current;
  }

  dispose(): void {
    this.watching.dispose();
  }
}
