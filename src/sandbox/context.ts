/** What request handlers share: the store, limits and key generation. */
import type { IncomingMessage } from 'node:http';
import type { Store } from './store';

export interface SandboxContext {
  store: Store;
  maxBodyBytes: number;
  newKey: () => string;
  now: () => Date;
}

/** A request routed under `/api/f/{folderKey}`. */
export interface FolderRequest {
  req: IncomingMessage;
  method: string;
  folderKey: string;
  query: URLSearchParams;
}
