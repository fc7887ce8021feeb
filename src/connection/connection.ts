/** A live connection: a client whose token is fetched, refreshed and bound to one origin. */
import { createHttp, Http, RequestOptions, WriteApproval } from '../api/http';
import { OmsClient } from '../api/client';
import { ApiError } from '../api/errors';
import { signIn, PasswordGrant, TokenSet } from '../api/auth';
import { sessionHttp } from '../api/session';
import { logRequest } from '../log';
import { ConnectionInfo } from './connectionInfo';
import type { HttpSettings } from './httpSettings';
import { TokenStore } from './tokenStore';
import { gateWrites } from './writeGate';
import { l10n } from '../l10n';

export class Connection {
  readonly client: OmsClient;
  /** One confirmation for an operation of many writes (production connections); see writeGate.ts. */
  readonly approveWrites: (what: string) => Promise<WriteApproval>;
  private rootKey?: Promise<string>;

  constructor(
    public info: ConnectionInfo,
    private readonly tokens: TokenStore,
    private readonly settings: HttpSettings,
    /** Runs before each request: the sandbox connection starts its server here. */
    private readonly prepare: (c: Connection) => Promise<void> = async () => {},
  ) {
    const gate = gateWrites(this.preparedSession(), () => this.info);
    this.client = new OmsClient(gate.http);
    this.approveWrites = gate.approve;
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

  /** An HTTP function bound to one origin and the token that goes with it. */
  private rawHttp(baseUrl = this.info.baseUrl, token?: string): Http {
    return createHttp({
      endpoint: () => ({ baseUrl, token }),
      ...this.settings.get(),
      log: (entry) => logRequest(this.info.label, entry),
    });
  }

  /** Starts the sandbox first when this is the sandbox connection; see api/session.ts for the rest. */
  private preparedSession(): Http {
    const session = sessionHttp({
      read: async () => {
        // One read of the definition: the URL and the token stored for it belong together.
        const { baseUrl, label } = this.info;
        return { baseUrl, label, tokens: await this.tokens.get(this.id, baseUrl) };
      },
      store: async (baseUrl, tokens) => {
        await this.tokens.set(this.id, baseUrl, tokens);
        this.rootKey = undefined;
      },
    }, (baseUrl, token) => this.rawHttp(baseUrl, token));
    return async <T>(req: RequestOptions): Promise<T> => {
      await this.prepare(this);
      return session<T>(req);
    };
  }
}
