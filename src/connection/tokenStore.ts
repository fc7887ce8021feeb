/**
 * Tokens in SecretStorage, bound to the origin they were entered for: a token
 * stored for one origin is never handed out for another.
 */
import type * as vscode from 'vscode';
import type { TokenSet } from '../api/auth';
import { originOf } from './connectionInfo';

interface StoredTokens extends TokenSet {
  origin: string;
}

const keyOf = (connectionId: string) => `oms.tokens.${connectionId}`;

export class TokenStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(connectionId: string, baseUrl: string): Promise<TokenSet | undefined> {
    const stored = await this.stored(connectionId);
    return stored?.origin === originOf(baseUrl) ? stored : undefined;
  }

  /** What is stored, whatever its origin (for the test API's fingerprints). */
  async stored(connectionId: string): Promise<StoredTokens | undefined> {
    let raw: string | undefined;
    try {
      raw = await this.secrets.get(keyOf(connectionId));
    } catch (e) {
      throw new Error(`Cannot read the secret store (on Linux it needs a keyring such as gnome-keyring): ${(e as Error).message}`, { cause: e });
    }
    return raw ? (JSON.parse(raw) as StoredTokens) : undefined;
  }

  async set(connectionId: string, baseUrl: string, tokens: TokenSet): Promise<void> {
    const stored: StoredTokens = { ...tokens, origin: originOf(baseUrl) };
    try {
      await this.secrets.store(keyOf(connectionId), JSON.stringify(stored));
    } catch (e) {
      throw new Error(`Cannot write to the secret store (on Linux it needs a keyring such as gnome-keyring): ${(e as Error).message}`, { cause: e });
    }
  }

  async delete(connectionId: string): Promise<void> {
    await this.secrets.delete(keyOf(connectionId));
  }
}
