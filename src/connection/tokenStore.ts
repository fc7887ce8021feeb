/**
 * Tokens in SecretStorage, bound to the origin they were entered for: a token
 * stored for one origin is never handed out for another.
 */
import type * as vscode from 'vscode';
import type { TokenSet } from '../api/auth';
import { originOf } from './connectionInfo';
import { l10n } from '../l10n';

interface StoredTokens extends TokenSet {
  origin: string;
}

const keyOf = (connectionId: string) => `oms.tokens.${connectionId}`;

export class TokenStore implements vscode.Disposable {
  /**
   * What SecretStorage holds, read once per change: every request reads its token, and each read of
   * SecretStorage is a round trip through the window. A change, here or in another window, drops it.
   */
  private readonly reads = new Map<string, Promise<StoredTokens | undefined>>();
  private readonly watching: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.watching = secrets.onDidChange((e) => this.reads.delete(e.key));
  }

  async get(connectionId: string, baseUrl: string): Promise<TokenSet | undefined> {
    const stored = await this.stored(connectionId);
    return stored?.origin === originOf(baseUrl) ? stored : undefined;
  }

  /** What is stored, whatever its origin (for the test API's fingerprints). */
  stored(connectionId: string): Promise<StoredTokens | undefined> {
    const key = keyOf(connectionId);
    let reading = this.reads.get(key);
    if (!reading) {
      const read = this.readSecret(key);
      this.reads.set(key, (reading = read));
      // A failed read is not kept: the next request asks again.
      read.catch(() => {
        if (this.reads.get(key) === read) this.reads.delete(key);
      });
    }
    return reading;
  }

  private async readSecret(key: string): Promise<StoredTokens | undefined> {
    let raw: string | undefined;
    try {
      raw = await this.secrets.get(key);
    } catch (e) {
      throw new Error(l10n.t('Cannot read the secret store (on Linux it needs a keyring such as gnome-keyring): {0}', (e as Error).message), { cause: e });
    }
    // Frozen: every caller gets this one object.
    return raw ? Object.freeze(JSON.parse(raw) as StoredTokens) : undefined;
  }

  async set(connectionId: string, baseUrl: string, tokens: TokenSet): Promise<void> {
    const key = keyOf(connectionId);
    const stored: StoredTokens = Object.freeze({ ...tokens, origin: originOf(baseUrl) });
    try {
      await this.secrets.store(key, JSON.stringify(stored));
    } catch (e) {
      this.reads.delete(key);
      throw new Error(l10n.t('Cannot write to the secret store (on Linux it needs a keyring such as gnome-keyring): {0}', (e as Error).message), { cause: e });
    }
    this.reads.set(key, Promise.resolve(stored));
  }

  async delete(connectionId: string): Promise<void> {
    const key = keyOf(connectionId);
    try {
      await this.secrets.delete(key);
    } finally {
      this.reads.delete(key);
    }
  }

  dispose(): void {
    this.watching.dispose();
  }
}
