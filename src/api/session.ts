/**
 * Requests on behalf of a signed-in user: the token is renewed before it
 * expires, and once after a 401 when a refresh token is held.
 *
 * After that renewal a request is sent again only when the service cannot
 * have applied it: a read (or a call its caller marks idempotent), or a write
 * whose 401 said the token itself was refused (RFC 6750 `invalid_token`, given
 * before the request is handled). Any other write refused with 401 is reported,
 * not repeated: a gateway may answer 401 after the service acted.
 */
import { needsRefresh, refresh, TokenSet } from './auth';
import { ApiError } from './errors';
import type { Http, RequestOptions } from './http';
import { l10n } from '../l10n';

export interface SessionStore {
  /** The base URL and its tokens, read together; undefined tokens when not signed in there. */
  read(): Promise<{ baseUrl: string; label: string; tokens?: TokenSet }>;
  /** Keeps renewed tokens, bound to the origin that issued them. */
  store(baseUrl: string, tokens: TokenSet): Promise<void>;
}

export function sessionHttp(store: SessionStore, httpFor: (baseUrl: string, token?: string) => Http): Http {
  /** The last renewal, by the access token it replaces; kept once it succeeded, dropped when it failed. */
  let renewal: { from: string; done: Promise<boolean> } | undefined;

  /**
   * Renews the tokens a request used, once for all the requests that used them; false when there is
   * nothing to renew with or it failed. A refresh token is good once, and a second use may revoke the
   * whole grant: so a 401 that arrives after its tokens were renewed takes the new ones. Tokens the
   * user has signed out of, or those of a URL the connection has left, are not renewed.
   */
  const renew = async (baseUrl: string, used: TokenSet): Promise<boolean> => {
    const now = await store.read();
    if (now.baseUrl !== baseUrl || !now.tokens) return false;
    if (now.tokens.accessToken !== used.accessToken) return true;
    if (renewal?.from === used.accessToken) return renewal.done;
    const refreshToken = used.refreshToken;
    if (!refreshToken) return false;
    const done = refresh(httpFor(baseUrl), refreshToken)
      .then(async (fresh) => {
        await store.store(baseUrl, { ...fresh, refreshToken: fresh.refreshToken ?? refreshToken });
        return true;
      })
      .catch(() => {
        if (renewal?.done === done) renewal = undefined;
        return false;
      });
    renewal = { from: used.accessToken, done };
    return done;
  };

  const signedIn = async (req: RequestOptions) => {
    const { baseUrl, label, tokens } = await store.read();
    if (!tokens) throw Object.assign(new ApiError('auth', l10n.t('Not signed in to {0}', label), 401, req.method, req.path), { notSignedIn: true });
    return { baseUrl, tokens };
  };

  return async <T>(req: RequestOptions): Promise<T> => {
    if (req.anonymous) return httpFor((await store.read()).baseUrl)<T>(req);
    let { baseUrl, tokens } = await signedIn(req);
    if (needsRefresh(tokens) && (await renew(baseUrl, tokens))) ({ baseUrl, tokens } = await signedIn(req));
    try {
      return await httpFor(baseUrl, tokens.accessToken)<T>(req);
    } catch (e) {
      if (!(e instanceof ApiError) || e.kind !== 'auth' || !(await renew(baseUrl, tokens))) throw e;
      if (!(req.idempotent ?? req.method === 'GET') && !e.tokenRefused) {
        throw new ApiError('auth', `${e.message} Signed in again, but the ${req.method} was not sent again: the service may have applied it. Check, then try again.`, e.status, req.method, req.path);
      }
      const fresh = await signedIn(req);
      return httpFor(fresh.baseUrl, fresh.tokens.accessToken)<T>(req);
    }
  };
}
