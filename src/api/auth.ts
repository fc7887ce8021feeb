/** Sign-in with `POST /token`: the password grant and the refresh grant. */
import { Http } from './http';

export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  /** Epoch milliseconds. */
  expiresAt?: number;
  instance?: string;
  userName?: string;
}

interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  expires_in?: number | string;
  instance?: string;
  userName?: string;
}

export interface PasswordGrant {
  instance: string;
  user: string;
  password: string;
  clientId?: string;
  clientSecret?: string;
}

export async function signIn(http: Http, grant: PasswordGrant): Promise<TokenSet> {
  const body = await http<TokenResponse>({
    method: 'POST',
    path: '/token',
    anonymous: true,
    form: {
      grant_type: 'password',
      client_id: grant.clientId ?? 'consoleApp',
      client_secret: grant.clientSecret ?? 'consoleSecret',
      // The service expects INSTANCE\USER.
      username: grant.user.includes('\\') ? grant.user : `${grant.instance}\\${grant.user}`,
      password: grant.password,
      instance: grant.instance,
    },
  });
  return toTokenSet(body);
}

export async function refresh(http: Http, refreshToken: string): Promise<TokenSet> {
  const body = await http<TokenResponse>({
    method: 'POST',
    path: '/token',
    anonymous: true,
    form: { grant_type: 'refresh_token', refresh_token: refreshToken },
  });
  return toTokenSet(body);
}

function toTokenSet(body: TokenResponse): TokenSet {
  const seconds = Number(body.expires_in);
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresAt: Number.isFinite(seconds) && seconds > 0 ? Date.now() + seconds * 1000 : undefined,
    instance: body.instance,
    userName: body.userName,
  };
}

/** Refresh this long before expiry, so no call goes out with a token about to lapse. */
const refreshMarginMs = 5 * 60 * 1000;

export function needsRefresh(tokens: TokenSet, now = Date.now()): boolean {
  return tokens.expiresAt !== undefined && tokens.expiresAt - now < refreshMarginMs;
}

/** Why a pasted access token cannot be sent, if it cannot. */
export type TokenProblem = 'empty' | 'space' | 'character';

/**
 * A pasted access token as it will be sent: trimmed, a leading `Bearer ` dropped. The service takes
 * any token of one or more characters without white space (spec part 5: `Bearer <ACCESS_TOKEN>`);
 * an HTTP header carries visible ASCII only. Nothing else is refused: a short token is a token.
 */
export function readToken(pasted: string): { token: string } | { problem: TokenProblem; at?: number } {
  const token = pasted.trim().replace(/^Bearer\s+/i, '');
  if (!token) return { problem: 'empty' };
  const space = token.search(/\s/);
  if (space >= 0) return { problem: 'space', at: space + 1 };
  const odd = token.search(/[^\x21-\x7e]/);
  if (odd >= 0) return { problem: 'character', at: odd + 1 };
  return { token };
}
