/**
 * Bearer tokens of the sandbox: one static token that never expires, and
 * tokens issued by `POST /token` (password and refresh grants) that do.
 * Issued tokens live in memory only: they end with the process.
 */
import { randomBytes } from 'node:crypto';
import { HttpError, Reply } from './http';

interface AuthSettings {
  staticToken: string;
  user: string;
  password: string;
  /** Seconds an issued access token lives. */
  tokenTtlSeconds: number;
  /** The instance the password grant signs in to (name and key are both accepted). */
  instance: () => { key: string; name: string };
  now?: () => number;
}

interface Issued {
  userName: string;
  expiresAt: number;
}

export function randomToken(): string {
  return randomBytes(24).toString('base64url');
}

function oauthError(error: string, description: string): HttpError {
  return new HttpError(400, description, undefined, undefined, { error, error_description: description });
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export class TokenAuthority {
  private readonly access = new Map<string, Issued>();
  /** Refresh token -> user name; each one is good for one refresh. */
  private readonly refresh = new Map<string, string>();
  private readonly now: () => number;

  constructor(private readonly settings: AuthSettings) {
    this.now = settings.now ?? Date.now;
  }

  /** The user a valid bearer token in the `Authorization` header belongs to, else why it is refused. */
  check(header: string | undefined): { user: string } | { denied: string } {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    if (!m) return { denied: 'Authorization has been denied for this request: a bearer token is required' };
    const token = m[1];
    if (token === this.settings.staticToken) return { user: this.userName() };
    const issued = this.access.get(token);
    if (!issued) return { denied: 'Authorization has been denied for this request: the token is not valid' };
    if (issued.expiresAt <= this.now()) {
      this.access.delete(token);
      return { denied: 'Authorization has been denied for this request: the token has expired' };
    }
    return { user: issued.userName };
  }

  /** `INSTANCE\user`, as the password grant names the user. */
  private userName(): string {
    return `${this.settings.instance().name}\\${this.settings.user}`;
  }

  /** `POST /token` with its form fields. */
  grant(form: URLSearchParams): Reply {
    const grantType = form.get('grant_type');
    if (grantType === 'password') return this.passwordGrant(form);
    if (grantType === 'refresh_token') return this.refreshGrant(form);
    throw oauthError('unsupported_grant_type', `grant_type must be "password" or "refresh_token" (got ${grantType ?? 'none'})`);
  }

  private passwordGrant(form: URLSearchParams): Reply {
    const username = form.get('username') ?? '';
    const password = form.get('password') ?? '';
    const instance = this.settings.instance();
    const matchesInstance = (s: string) => same(s, instance.name) || same(s, instance.key);
    const slash = username.lastIndexOf('\\');
    const instancePart = slash >= 0 ? username.slice(0, slash) : undefined;
    const userPart = slash >= 0 ? username.slice(slash + 1) : username;
    const instanceField = form.get('instance');
    if (instancePart !== undefined && !matchesInstance(instancePart)) {
      throw oauthError('invalid_grant', `Unknown instance "${instancePart}"`);
    }
    if (instanceField && !matchesInstance(instanceField)) {
      throw oauthError('invalid_grant', `Unknown instance "${instanceField}"`);
    }
    if (!same(userPart, this.settings.user) || password !== this.settings.password) {
      throw oauthError('invalid_grant', 'The user name or password is incorrect.');
    }
    return this.issue(this.userName());
  }

  private refreshGrant(form: URLSearchParams): Reply {
    const token = form.get('refresh_token') ?? '';
    const userName = this.refresh.get(token);
    if (!userName) throw oauthError('invalid_grant', 'The refresh token is not valid (unknown or already used).');
    this.refresh.delete(token);
    return this.issue(userName);
  }

  private issue(userName: string): Reply {
    const ttl = this.settings.tokenTtlSeconds;
    const issued = this.now();
    const accessToken = randomToken();
    const refreshToken = randomToken();
    this.access.set(accessToken, { userName, expiresAt: issued + ttl * 1000 });
    this.refresh.set(refreshToken, userName);
    return {
      status: 200,
      body: {
        access_token: accessToken,
        token_type: 'bearer',
        expires_in: ttl,
        refresh_token: refreshToken,
        userName,
        instance: this.settings.instance().key,
        '.issued': new Date(issued).toUTCString(),
        '.expires': new Date(issued + ttl * 1000).toUTCString(),
      },
    };
  }
}
