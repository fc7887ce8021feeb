/** What request handlers share: the store, limits, key generation, and the request as routed. */
import type { IncomingMessage } from 'node:http';
import type { TokenAuthority } from '../http/auth';
import type { Faults } from '../routes/faults';
import type { Reply } from '../http/replies';
import type { Params } from '../http/router';
import type { Store } from '../store/store';

export interface SandboxContext {
  store: Store;
  maxBodyBytes: number;
  newKey: () => string;
  now: () => Date;
  auth: TokenAuthority;
  faults: Faults;
  /** `EventPublisherUrl` of sysinfo. */
  eventPublisherUrl: string;
  /** Connections and tokens held and requests counted, for `GET /sandbox/stats`; set once listening. */
  stats?: () => object;
}

/** A request as the route table hands it over. */
export interface RouteRequest {
  req: IncomingMessage;
  method: string;
  params: Params;
  query: URLSearchParams;
  /** The signed-in user (`INSTANCE\\user`; notes name their author); undefined on public routes. */
  userName?: string;
}

/** A request routed under `/api/f/{folderKey}` (the folder exists). */
export interface FolderRequest extends RouteRequest {
  folderKey: string;
}

export type Handler<R extends RouteRequest = RouteRequest> = (ctx: SandboxContext, r: R) => Promise<Reply> | Reply;
