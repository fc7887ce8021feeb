/**
 * A live connection, and the way its requests go out. Every request of
 * the extension (a save, a run of many, a read of the tree) passes
 * `requests` here, in this order:
 *
 * 1. A write to a production connection asks first (the question itself is
 *    in productionQuestion.ts); Cancel sends nothing. An operation of many
 *    writes asks once (`approveWrites`) and its requests carry the approval.
 * 2. The sandbox connection starts its server.
 * 3. The token stored for the connection's URL is read, renewed before it
 *    expires, and renewed once after a 401 when a refresh token is held.
 *    After that renewal a request is sent again only when the service cannot
 *    have applied it: a read (or a call its caller marks idempotent), or a
 *    write whose 401 said the token itself was refused (RFC 6750
 *    `invalid_token`, given before the request is handled). Any other write
 *    refused with 401 is reported, not repeated: a gateway may answer 401
 *    after the service acted.
 * 4. api/http.ts sends it, to that URL's origin only.
 *
 * Nothing here needs VS Code: its parts (the question, the log, the
 * settings) are handed in by connectionManager.ts, so unit tests run the
 * whole way against a real sandbox.
 */
import { createHttp, Http, RequestLog, RequestOptions, WriteApproval } from '../api/http';
import { OmsClient } from '../api/client';
import { ApiError } from '../api/errors';
import { needsRefresh, refresh, signIn, PasswordGrant, TokenSet } from '../api/auth';
import type { ConnectionInfo } from './connectionInfo';
import type { Fetch } from '../api/proxyFetch';
import { l10n } from '../l10n';

/**
 * Asks before a write (`many`: a single question for an operation of many writes): resolves to send,
 * throws (VS Code's CancellationError) to send nothing.
 */
export type WriteQuestion = (info: ConnectionInfo, request: RequestOptions | { what: string }, many?: boolean) => Promise<void>;

/** The client's limits, read for each request (httpSettings.ts reads them from VS Code's settings). */
export interface HttpLimits {
  timeoutMs: number;
  maxResponseBytes: number;
  fetchFor: (url: URL) => Promise<Fetch> | undefined;
}

/** Where the tokens are kept (tokenStore.ts: VS Code's SecretStorage, each token bound to its origin). */
interface Tokens {
  get(connectionId: string, baseUrl: string): Promise<TokenSet | undefined>;
  set(connectionId: string, baseUrl: string, tokens: TokenSet): Promise<void>;
  delete(connectionId: string): Promise<void>;
}

/** What a connection is built from (connectionManager.ts gives VS Code's). */
export interface ConnectionParts {
  tokens: Tokens;
  /** Time-out, answer size cap and proxy, read for each request. */
  limits: () => Partial<HttpLimits>;
  /** Asked before a write to a production connection. */
  askBeforeWrite: WriteQuestion;
  log?: (connection: string, entry: RequestLog) => void;
  /** Runs before each request: the sandbox connection starts its server here. */
  prepare?: (c: Connection) => Promise<void>;
  /** The error a failed request reports (the command line says where a refused token came from). */
  explain?: (e: ApiError) => ApiError;
}

export class Connection {
  readonly client: OmsClient;
  private rootKey?: Promise<string>;
  /** Approvals given by `approveWrites`: the writes that carry one ask nothing more. */
  private readonly approved = new WeakSet<WriteApproval>();
  /** The last token renewal, by the access token it replaces; kept once it succeeded, dropped when it failed. */
  private renewal?: { from: string; done: Promise<boolean> };

  constructor(
    public info: ConnectionInfo,
    private readonly parts: ConnectionParts,
  ) {
    this.client = new OmsClient((req) => this.request(req));
  }

  get id(): string {
    return this.info.id;
  }

  /** The root folder key: the configured one, else the current instance. */
  rootFolderKey(): Promise<string> {
    if (this.info.rootFolderKey) return Promise.resolve(this.info.rootFolderKey);
    this.rootKey ??= this.client.instance().then(
      (instance) => {
        if (!instance.Key) throw new ApiError('server', l10n.t('The service did not return the current instance key'));
        return instance.Key;
      },
      (e) => {
        this.rootKey = undefined;
        throw e;
      },
    );
    return this.rootKey;
  }

  /**
   * Asks once for an operation of many writes (a batch add, a run) and returns
   * the approval its requests carry; throws when the user says no. Without
   * production, approves at once.
   */
  async approveWrites(what: string): Promise<WriteApproval> {
    const approval: WriteApproval = { what };
    if (this.info.production) await this.parts.askBeforeWrite(this.info, { what }, true);
    this.approved.add(approval);
    return approval;
  }

  async hasToken(): Promise<boolean> {
    return (await this.parts.tokens.get(this.id, this.info.baseUrl)) !== undefined;
  }

  async setTokens(tokens: TokenSet): Promise<void> {
    await this.parts.tokens.set(this.id, this.info.baseUrl, tokens);
    this.rootKey = undefined;
  }

  async signInWithPassword(grant: PasswordGrant): Promise<void> {
    await this.parts.prepare?.(this);
    await this.setTokens(await signIn(this.httpFor(this.info.baseUrl), grant));
  }

  async signOut(): Promise<void> {
    await this.parts.tokens.delete(this.id);
    this.rootKey = undefined;
  }

  /** Forget cached facts (root key) after the definition changed. */
  reset(info: ConnectionInfo): void {
    this.info = info;
    this.rootKey = undefined;
  }

  /** Every request of this connection: the steps in this file's comment. */
  private request<T>(req: RequestOptions): Promise<T> {
    const { explain } = this.parts;
    const sent = this.send<T>(req);
    return explain
      ? sent.catch((e: unknown) => {
          throw e instanceof ApiError ? explain(e) : e;
        })
      : sent;
  }

  private async send<T>(req: RequestOptions): Promise<T> {
    const covered = req.approval !== undefined && this.approved.has(req.approval);
    if (req.method !== 'GET' && this.info.production && !covered) await this.parts.askBeforeWrite(this.info, req);
    await this.parts.prepare?.(this);
    if (req.anonymous) return this.httpFor(this.info.baseUrl)<T>(req);
    let { baseUrl, tokens } = await this.signedIn(req);
    if (needsRefresh(tokens) && (await this.renew(baseUrl, tokens))) ({ baseUrl, tokens } = await this.signedIn(req));
    try {
      return await this.httpFor(baseUrl, tokens.accessToken)<T>(req);
    } catch (e) {
      if (!(e instanceof ApiError) || e.kind !== 'auth' || !(await this.renew(baseUrl, tokens))) throw e;
      if (!(req.idempotent ?? req.method === 'GET') && !e.tokenRefused) {
        throw new ApiError(
          'auth',
          l10n.t('{0} Signed in again, but the {1} was not sent again: the service may have applied it. Check, then try again.', e.message, req.method),
          e.status,
          req.method,
          req.path,
        );
      }
      const fresh = await this.signedIn(req);
      return this.httpFor(fresh.baseUrl, fresh.tokens.accessToken)<T>(req);
    }
  }

  /** The URL and the token stored for it, read together (one read of the definition). */
  private async signedIn(req: RequestOptions): Promise<{ baseUrl: string; tokens: TokenSet }> {
    const { baseUrl, label } = this.info;
    const tokens = await this.parts.tokens.get(this.id, baseUrl);
    if (!tokens) throw Object.assign(new ApiError('auth', l10n.t('Not signed in to {0}', label), 401, req.method, req.path), { notSignedIn: true });
    return { baseUrl, tokens };
  }

  /**
   * Renews the tokens a request used, once for all the requests that used them; false when there is
   * nothing to renew with or it failed. A refresh token is good once, and a second use may revoke the
   * whole grant: so a 401 that arrives after its tokens were renewed takes the new ones. Tokens the
   * user has signed out of, or those of a URL the connection has left, are not renewed.
   */
  private async renew(baseUrl: string, used: TokenSet): Promise<boolean> {
    const now = this.info.baseUrl === baseUrl ? await this.parts.tokens.get(this.id, baseUrl) : undefined;
    if (!now) return false;
    if (now.accessToken !== used.accessToken) return true;
    if (this.renewal?.from === used.accessToken) return this.renewal.done;
    const refreshToken = used.refreshToken;
    if (!refreshToken) return false;
    const done = refresh(this.httpFor(baseUrl), refreshToken)
      .then(async (fresh) => {
        await this.parts.tokens.set(this.id, baseUrl, { ...fresh, refreshToken: fresh.refreshToken ?? refreshToken });
        this.rootKey = undefined;
        return true;
      })
      .catch(() => {
        if (this.renewal?.done === done) this.renewal = undefined;
        return false;
      });
    this.renewal = { from: used.accessToken, done };
    return done;
  }

  /** An HTTP function bound to one origin and the token that goes with it. */
  private httpFor(baseUrl: string, token?: string): Http {
    const label = this.info.label;
    return createHttp({
      endpoint: () => ({ baseUrl, token }),
      ...this.parts.limits(),
      log: this.parts.log && ((entry) => this.parts.log!(label, entry)),
    });
  }
}
