/** A live connection: a client whose token is fetched, refreshed and bound to one origin. */
import * as vscode from 'vscode';
import { createHttp, Http, RequestOptions } from '../api/http';
import { OmsClient } from '../api/client';
import { ApiError } from '../api/errors';
import { needsRefresh, refresh, signIn, PasswordGrant, TokenSet } from '../api/auth';
import { logRequest } from '../log';
import { ConnectionInfo } from './connectionInfo';
import { TokenStore } from './tokenStore';

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
    this.client = new OmsClient(this.sessionHttp());
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

  /** An HTTP function bound to one origin and the token that goes with it (read together by the caller). */
  private rawHttp(baseUrl = this.info.baseUrl, token?: string): Http {
    const config = vscode.workspace.getConfiguration('oms');
    return createHttp({
      endpoint: () => ({ baseUrl, token }),
      timeoutMs: config.get<number>('requestTimeoutSeconds', 30) * 1000,
      maxResponseBytes: config.get<number>('maxResponseMegabytes', 64) * 1024 * 1024,
      log: (entry) => logRequest(this.info.label, entry),
    });
  }

  /** The base URL and its token, read together: a URL change cannot send one origin's token to another. */
  private async endpoint(req: RequestOptions): Promise<{ baseUrl: string; tokens?: TokenSet }> {
    const baseUrl = this.info.baseUrl;
    const tokens = await this.tokens.get(this.id, baseUrl);
    if (!tokens) throw new ApiError('auth', `Not signed in to ${this.info.label}`, 401, req.method, req.path);
    return { baseUrl, tokens };
  }

  /**
   * Refreshes before expiry, and once after a 401 when a refresh token is held.
   * After that refresh a request is sent again only when the service cannot
   * have applied it: a read, or a write whose 401 said the token itself was
   * refused (RFC 6750 `invalid_token`). README states the rule.
   */
  private sessionHttp(): Http {
    return async <T>(req: RequestOptions): Promise<T> => {
      await this.prepare(this);
      if (req.anonymous) return this.rawHttp()<T>(req);
      let { baseUrl, tokens } = await this.endpoint(req);
      if (tokens && needsRefresh(tokens) && (await this.refreshOnce(tokens, baseUrl))) ({ baseUrl, tokens } = await this.endpoint(req));
      try {
        return await this.rawHttp(baseUrl, tokens?.accessToken)<T>(req);
      } catch (e) {
        if (!(e instanceof ApiError) || e.kind !== 'auth' || !(await this.refreshOnce(tokens, baseUrl))) throw e;
        if (!(req.idempotent ?? req.method === 'GET') && !e.tokenRefused) {
          throw new ApiError('auth', `${e.message}. Signed in again, but the ${req.method} was not sent again: the service may have applied it. Check, then try again.`, e.status, req.method, req.path);
        }
        const fresh = await this.endpoint(req);
        return this.rawHttp(fresh.baseUrl, fresh.tokens?.accessToken)<T>(req);
      }
    };
  }

  /** One refresh at a time; false when there is nothing to refresh with or it failed. */
  private refreshOnce(tokens: TokenSet | undefined, baseUrl: string): Promise<boolean> {
    if (!tokens?.refreshToken) return Promise.resolve(false);
    this.refreshing ??= refresh(this.rawHttp(baseUrl), tokens.refreshToken)
      .then(async (fresh) => {
        // Bound to the origin that issued them, even if the definition changed meanwhile.
        await this.tokens.set(this.id, baseUrl, { ...fresh, refreshToken: fresh.refreshToken ?? tokens.refreshToken });
        this.rootKey = undefined;
        return true;
      })
      .catch(() => false)
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }
}
