/**
 * Bearer tokens of the sandbox: one static token that never expires, and
 * tokens issued by `POST /token` (password and refresh grants) that do.
 * Issued tokens live in memory only: they end with the process, and expired
 * ones are pruned. The password grant exists only when a password was
 * configured (there is no default one), and failed sign-ins are limited per peer.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { HttpError, Reply } from './replies';

interface AuthSettings {
  staticToken: string;
  user: string;
  /** Undefined: the password grant is refused (a sandbox started with a token alone). */
  password: string | undefined;
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

/** Failed grants one peer may make within `failureWindowMs`; then 429 until the window ends. */
const maxFailedSignIns = 10;
const failureWindowMs = 60_000;
/** A refresh token is good for one refresh within this time. */
const refreshTtlMs = 14 * 24 * 3600_000;
/** Expired tokens and old failure counts are swept at most this often, or a token's lifetime (on the next grant or check). */
const pruneEveryMs = 10_000;
const maxPeersTracked = 10_000;

export function randomToken(): string {
  return randomBytes(24).toString('base64url');
}

function oauthError(error: string, description: string, status = 400, headers?: Record<string, string>): HttpError {
  return new HttpError(status, description, undefined, headers, { error, error_description: description });
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Compares secrets in time independent of where they differ. */
function sameSecret(a: string, b: string | Buffer): boolean {
  const x = Buffer.from(a);
  const y = typeof b === 'string' ? Buffer.from(b) : b;
  return x.length === y.length && timingSafeEqual(x, y);
}

export class TokenAuthority {
  private readonly access = new Map<string, Issued>();
  /** Refresh token -> user name; each one is good for one refresh. */
  private readonly refresh = new Map<string, Issued>();
  /** Peer address -> failed grants in the current window. */
  private readonly failures = new Map<string, { count: number; since: number }>();
  private readonly now: () => number;
  private lastPrune = 0;

  /** The static token's bytes, compared with each request's (made once). */
  private readonly staticBytes: Buffer;

  constructor(private readonly settings: AuthSettings) {
    this.now = settings.now ?? Date.now;
    this.staticBytes = Buffer.from(settings.staticToken);
  }

  /** The user a valid bearer token in the `Authorization` header belongs to, else why it is refused. */
  check(header: string | undefined): { user: string } | { denied: string } {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    if (!m) return { denied: 'Authorization has been denied for this request: a bearer token is required' };
    const token = m[1];
    this.prune();
    if (sameSecret(token, this.staticBytes)) return { user: this.userName() };
    const issued = this.access.get(token);
    if (!issued) return { denied: 'Authorization has been denied for this request: the token is not valid or has expired' };
    if (issued.expiresAt <= this.now()) {
      this.access.delete(token);
      return { denied: 'Authorization has been denied for this request: the token has expired' };
    }
    return { user: issued.userName };
  }

  /** Issued tokens held in memory (the sandbox's stats). */
  get held(): { accessTokens: number; refreshTokens: number } {
    return { accessTokens: this.access.size, refreshTokens: this.refresh.size };
  }

  /** `INSTANCE\user`, as the password grant names the user. */
  private userName(): string {
    return `${this.settings.instance().name}\\${this.settings.user}`;
  }

  /** `POST /token` with its form fields, from `peer` (its address): 429 once it failed too often. */
  grant(form: URLSearchParams, peer: string): Reply {
    this.prune();
    const failed = this.failures.get(peer);
    const now = this.now();
    if (failed && failed.count >= maxFailedSignIns) {
      const seconds = Math.max(1, Math.ceil((failed.since + failureWindowMs - now) / 1000));
      throw oauthError('too_many_attempts', `Too many failed sign-ins from this address; try again in ${seconds} s`, 429, { 'Retry-After': String(seconds) });
    }
    try {
      const grantType = form.get('grant_type');
      if (grantType === 'password') return this.passwordGrant(form);
      if (grantType === 'refresh_token') return this.refreshGrant(form);
      throw oauthError('unsupported_grant_type', `grant_type must be "password" or "refresh_token" (got ${grantType ?? 'none'})`);
    } catch (e) {
      if (failed && failed.since + failureWindowMs > now) failed.count++;
      else {
        this.failures.delete(peer);
        this.failures.set(peer, { count: 1, since: now });
        // Bounded however many addresses fail: the oldest window goes first.
        if (this.failures.size > maxPeersTracked) this.failures.delete(this.failures.keys().next().value!);
      }
      throw e;
    }
  }

  private passwordGrant(form: URLSearchParams): Reply {
    const expected = this.settings.password;
    if (expected === undefined) {
      throw oauthError(
        'unsupported_grant_type',
        'The password grant is off: this sandbox was started without a password (--password-file or OMS_SANDBOX_PASSWORD)',
      );
    }
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
    if (!same(userPart, this.settings.user) || !sameSecret(password, expected)) {
      throw oauthError('invalid_grant', 'The user name or password is incorrect.');
    }
    return this.issue(this.userName());
  }

  private refreshGrant(form: URLSearchParams): Reply {
    const token = form.get('refresh_token') ?? '';
    const issued = this.refresh.get(token);
    this.refresh.delete(token);
    if (!issued || issued.expiresAt <= this.now()) throw oauthError('invalid_grant', 'The refresh token is not valid (unknown, expired or already used).');
    return this.issue(issued.userName);
  }

  private issue(userName: string): Reply {
    const ttl = this.settings.tokenTtlSeconds;
    const issued = this.now();
    const accessToken = randomToken();
    const refreshToken = randomToken();
    this.access.set(accessToken, { userName, expiresAt: issued + ttl * 1000 });
    this.refresh.set(refreshToken, { userName, expiresAt: issued + Math.max(refreshTtlMs, ttl * 1000) });
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

  /** Drops expired tokens and ended failure windows, so neither map grows with time. */
  private prune(): void {
    const now = this.now();
    if (now - this.lastPrune < Math.min(pruneEveryMs, this.settings.tokenTtlSeconds * 1000)) return;
    this.lastPrune = now;
    for (const map of [this.access, this.refresh]) {
      for (const [token, issued] of map) if (issued.expiresAt <= now) map.delete(token);
    }
    for (const [peer, failed] of this.failures) if (failed.since + failureWindowMs <= now) this.failures.delete(peer);
  }
}
