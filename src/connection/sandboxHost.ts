/**
 * The embedded local sandbox: started inside the extension host on first use,
 * with demo data in the extension's global storage.
 */
import vscode = require('vscode');
import * as path from 'path';
import { randomBytes } from 'crypto';
import type { Sandbox } from '../sandbox/server';
import { log } from '../log';
import type { Connection } from './connection';

export const sandboxConnectionId = 'local-sandbox';
const tokenSecret = 'oms.sandbox.staticToken';

export class SandboxHost implements vscode.Disposable {
  private running?: Promise<Sandbox>;
  /** Per connection: the server is up and the connection points at it with its token. */
  private readonly ready = new Map<string, Promise<void>>();

  constructor(private readonly context: vscode.ExtensionContext) {}

  /**
   * Starts the sandbox if needed and points the connection at it (`moveTo`
   * records its URL, which changes from one start to the next); concurrent
   * callers share one start.
   */
  ensureRunning(connection: Connection, moveTo: (baseUrl: string) => Promise<void>): Promise<void> {
    let ready = this.ready.get(connection.id);
    if (!ready) {
      this.running ??= this.start();
      ready = this.running.then(async (sandbox) => {
        if (connection.info.baseUrl !== sandbox.url) await moveTo(sandbox.url);
        await connection.setTokens({ accessToken: sandbox.token });
      });
      ready.catch(() => {
        this.running = undefined;
        this.ready.delete(connection.id);
      });
      this.ready.set(connection.id, ready);
    }
    return ready;
  }

  private async start(): Promise<Sandbox> {
    const storage = this.context.globalStorageUri.fsPath;
    await vscode.workspace.fs.createDirectory(this.context.globalStorageUri);
    let token = await this.context.secrets.get(tokenSecret);
    if (!token) {
      token = randomBytes(24).toString('hex');
      await this.context.secrets.store(tokenSecret, token);
    }
    // The sandbox is a bundle of its own, loaded when it is first started.
    const { startSandbox } = await import('../sandbox/server');
    // A random password nobody knows: no local process can get a token from POST /token with a default one.
    const password = randomBytes(24).toString('hex');
    const sandbox = await startSandbox({ port: 0, token, password, seed: 'demo', dataFile: path.join(storage, 'sandbox-data.json') });
    log().info(`Local sandbox listening on ${sandbox.url} (data in ${storage})`);
    return sandbox;
  }

  async dispose(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    this.ready.clear();
    await (await running?.catch(() => undefined))?.close();
  }
}
