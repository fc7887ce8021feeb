/** A live connection: a client whose token is fetched, refreshed and bound to one origin. */
import * as vscode from 'vscode';
import { createHttp, Http } from '../api/http';
import { OmsClient } from '../api/client';
import { ApiError } from '../api/errors';
import { needsRefresh, refresh, signIn, PasswordGrant, TokenSet } from '../api/auth';
import { logRequest } from '../log';
import { ConnectionInfo } from './connectionInfo';
import { TokenStore } from './tokenStore';
import { gateWrites } from './writeGate';

export class Connection {
  readonly client: OmsClient;
  private rootKey?: Promise<string>;
  private refreshing?: Promise<boolean>;

  constructor(
    public info: ConnectionInfo,
    private readonly tokens: TokenStore,
    /** Runs before each request: the sandbox connection starts its server here. */
    private readonly prepare: (c: Connection) => Promise<void> = async () => {},
  ) {
    this.client = new OmsClient(gateWrites(this.sessionHttp(), () => this.info));
  }

  get id(): string {
    return this.info.id;
  }

  /** The root folder key: the configured one, else the current instance. */
  rootFolderKey(): Promise<string> {
    if (this.info.rootFolderKey) return Promise.resolve(this.info.rootFolderKey);
    this.rootKey ??= this.client.instance().then(
      (instance) => {
        if (!instance.Key) throw new ApiError('server', 'The service did not return the current instance key');
        return instance.Key;
      },
      (e) => {
        this.rootKey = undefined;
        throw e;
      },
    );
    return this.rootKey;
  }

  async hasToken(): Promise<boolean> {
    return (await this.tokens.get(this.id, this.info.baseUrl)) !== undefined;
  }

  async setTokens(tokens: TokenSet): Promise<void> {
    await this.tokens.set(this.id, this.info.baseUrl, tokens);
    this.rootKey = undefined;
  }

  async signInWithPassword(grant: PasswordGrant): Promise<void> {
    await this.prepare(this);
    const tokens = await signIn(this.rawHttp(), grant);
    await this.setTokens(tokens);
  }

  async signOut(): Promise<void> {
    await this.tokens.delete(this.id);
    this.rootKey = undefined;
  }

  /** Forget cached facts (root key) after the definition changed. */
  reset(info: ConnectionInfo): void {
    this.info = info;
    this.rootKey = undefined;
  }

  private rawHttp(): Http {
    const config = vscode.workspace.getConfiguration('oms');
    return createHttp({
      baseUrl: this.info.baseUrl,
      token: async () => (await this.tokens.get(this.id, this.info.baseUrl))?.accessToken,
      timeoutMs: config.get<number>('requestTimeoutSeconds', 30) * 1000,
      log: (entry) => logRequest(this.info.label, entry),
    });
  }

  /** Refreshes before expiry, and once more after a 401 when a refresh token is held. */
  private sessionHttp(): Http {
    return async <T>(req: Parameters<Http>[0]): Promise<T> => {
      await this.prepare(this);
      const http = this.rawHttp();
      if (req.anonymous) return http<T>(req);
      const tokens = await this.tokens.get(this.id, this.info.baseUrl);
      if (!tokens) throw new ApiError('auth', `Not signed in to ${this.info.label}`, 401, req.method, req.path);
      if (needsRefresh(tokens)) await this.refreshOnce(tokens);
      try {
        return await http<T>(req);
      } catch (e) {
        if (e instanceof ApiError && e.kind === 'auth' && (await this.refreshOnce(await this.tokens.get(this.id, this.info.baseUrl)))) {
          return http<T>(req);
        }
        throw e;
      }
    };
  }

  /** One refresh at a time; false when there is nothing to refresh with or it failed. */
  private refreshOnce(tokens: TokenSet | undefined): Promise<boolean> {
    if (!tokens?.refreshToken) return Promise.resolve(false);
    this.refreshing ??= refresh(this.rawHttp(), tokens.refreshToken)
      .then(async (fresh) => {
        await this.setTokens({ ...fresh, refreshToken: fresh.refreshToken ?? tokens.refreshToken });
        return true;
      })
      .catch(() => false)
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }
}
