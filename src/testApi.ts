/**
 * What the extension exports, and only while VS Code runs its tests
 * (ExtensionMode.Test): a narrow view of the services for the integration
 * suite. No context, no secret store, no token: stored tokens are seen only
 * as fingerprints. Other extensions get nothing (see extension.ts).
 */
import vscode = require('vscode');
import { createHash } from 'crypto';
import type { Services } from './services';
import { answerProductionWrites } from './connection/productionQuestion';

export interface TestApi {
  /** Settled once the connection handed over by the environment is in place. */
  ready: Promise<void>;
  tree: Services['tree'];
  /** Go to Object's per-connection index. */
  search: Services['search'];
  connections: Pick<Services['connections'], 'list' | 'get' | 'active' | 'update' | 'remove'>;
  /** The version a document's next save is based on. */
  objectFiles: Pick<Services['objectFiles'], 'baseOf'>;
  /** The conflict questions (the merge's choice per field, and without a base), replaceable by a test. */
  saves: Pick<Services['saves'], 'resolveConflict' | 'chooseFields'>;
  globalStorageUri: vscode.Uri;
  logUri: vscode.Uri;
  /** Answers the production write question instead of the user (undefined: the user again). */
  answerProductionWrites(answer: ((detail: string) => boolean) | undefined): void;
  /** Short hashes of the stored tokens (to compare, never to use); undefined when nothing is stored. */
  storedTokens(connectionId: string): Promise<{ access: string; refresh?: string; expiresAt?: number } | undefined>;
  /** Replaces the stored access token by one the server refuses, keeping the refresh token (a revoked token). */
  revokeAccessToken(connectionId: string): Promise<void>;
}

export function testApi(s: Services, ready: Promise<void>): TestApi {
  const hash = (secret: string) => createHash('sha256').update(secret).digest('hex').slice(0, 12);
  return {
    ready,
    tree: s.tree,
    search: s.search,
    connections: s.connections,
    objectFiles: s.objectFiles,
    saves: s.saves,
    globalStorageUri: s.context.globalStorageUri,
    logUri: s.context.logUri,
    answerProductionWrites,
    async storedTokens(connectionId) {
      const stored = await s.connections.tokens.stored(connectionId);
      return stored && { access: hash(stored.accessToken), refresh: stored.refreshToken && hash(stored.refreshToken), expiresAt: stored.expiresAt };
    },
    async revokeAccessToken(connectionId) {
      const connection = s.connections.require(connectionId);
      const stored = await s.connections.tokens.stored(connectionId);
      if (!stored) throw new Error(`no tokens stored for ${connectionId}`);
      await connection.setTokens({ ...stored, accessToken: 'revoked-access-token' });
    },
  };
}
