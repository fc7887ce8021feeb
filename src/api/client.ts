/** Typed client for every operation of the spec (part 4) plus browsing. */
import { Kind, kind as kindOf } from '../model/kinds';
import {
  actionRoutes,
  collectionActionPath,
  collectionPath,
  folderActionPath,
  folderPath,
  instancePath,
  itemActionPath,
  notesPath,
  objectPath,
  sysinfoPath,
} from '../model/routes';
import type { BaseInfo, FolderInfo, InstanceInfo, NoteInfo, PersonInfo, PushNotificationRequest } from '../model/types';
import { ApiError } from './errors';
import { Conditional, Http, parseJson, RequestOptions, WriteApproval } from './http';
import { listItems } from './listItems';
import { addPeopleInBatches, BatchOptions, BatchReport } from './batch';
import { l10n } from '../l10n';

/**
 * An answer read again: unchanged (the server's 304 to the tag held), or what it is now with its tag
 * (none from a service without ETags: the caller compares versions).
 */
export type Reread<T> = { unchanged: true; etag: string } | { unchanged: false; value: T; etag?: string };

export interface Page<T> {
  items: T[];
  /** The next page's number, or undefined when this page was the last. */
  next?: number;
}

const maxPageSize = 1000;

export class OmsClient {
  constructor(readonly http: Http) {}

  /**
   * Builds the request, then sends it. A key that would change the target
   * (`.`, `..`, a slash: see model/routes.ts) is a rejected validation error
   * and nothing is sent.
   */
  private async send<T>(build: () => RequestOptions): Promise<T> {
    let req: RequestOptions;
    try {
      req = build();
    } catch (e) {
      if (e instanceof RangeError) throw new ApiError('validation', l10n.t('{0}: refused before sending, it would address another object', e.message));
      throw e;
    }
    return this.http<T>(req);
  }

  /** The current instance: the root folder. */
  instance(): Promise<InstanceInfo> {
    return this.send<InstanceInfo>(() => ({ method: 'GET', path: instancePath }));
  }

  sysinfo(): Promise<{ ServerTime?: string; Version?: string }> {
    return this.send(() => ({ method: 'GET', path: sysinfoPath, anonymous: true }));
  }

  folder(folderKey: string): Promise<FolderInfo> {
    return this.send<FolderInfo>(() => ({ method: 'GET', path: folderPath(folderKey) }));
  }

  /** One page of a collection. A page shorter than `pageSize` is the last. */
  async list<T extends BaseInfo = BaseInfo>(kind: Kind, folderKey: string, page = 0, pageSize = 100, signal?: AbortSignal): Promise<Page<T>> {
    const size = pageSizeOf(pageSize);
    const items = this.itemsOf<T>(kind, folderKey, (await this.listBytes(kind, folderKey, page, size, signal)).toString());
    return { items, next: items.length < size ? undefined : page + 1 };
  }

  /** One page as the server's bytes, neither decoded nor parsed: for a reader on another thread (a pull, changes/code/pullThread.ts). */
  listBytes(kind: Kind, folderKey: string, page: number, pageSize: number, signal?: AbortSignal): Promise<Buffer> {
    return this.send<Buffer>(() => ({
      method: 'GET',
      path: collectionPath(kind, folderKey),
      query: { page, pageSize: pageSizeOf(pageSize) },
      signal,
      bytes: true,
    }));
  }

  /**
   * One page as the server's bytes, asked for with the tag of the copy the caller holds (when it has one):
   * unchanged when the server answers 304; read again as any read when it fails.
   */
  listBytesIf(kind: Kind, folderKey: string, page: number, pageSize: number, etag: string | undefined, signal?: AbortSignal): Promise<Conditional> {
    return this.send<Conditional>(() => ({
      method: 'GET',
      path: collectionPath(kind, folderKey),
      query: { page, pageSize: pageSizeOf(pageSize) },
      signal,
      bytes: true,
      conditional: { etag },
    }));
  }

  /** The items of a page's text, or the error `list` gives for it. */
  itemsOf<T extends BaseInfo = BaseInfo>(kind: Kind, folderKey: string, text: string): T[] {
    const items = listItems(text ? parseJson(text, { method: 'GET', path: collectionPath(kind, folderKey) }, 200) : undefined);
    if (items) return items as T[];
    throw new ApiError('server', l10n.t("The server's list of {0} is not an array", l10n.t(kind.pluralLabel).toLowerCase()));
  }

  /**
   * Every page of a collection (stops at an empty or short page), each handed on as it is parsed. From the second page
   * on, the next is asked for as soon as one arrives, before it is parsed and used: the listing waits for the server
   * once, not once a page (a preview of 10,000 objects waited 0.4 s for its pages). A listing of one page makes one
   * request; a longer one, one more at most.
   */
  async *listPages<T extends BaseInfo = BaseInfo>(kind: Kind, folderKey: string, pageSize = maxPageSize, signal?: AbortSignal): AsyncGenerator<T[]> {
    const size = pageSizeOf(pageSize);
    const ask = (page: number) => {
      const bytes = this.listBytes(kind, folderKey, page, size, signal);
      bytes.catch(() => undefined); // awaited below, unless the page before it was the last
      return bytes;
    };
    for (let page = 0, asked = ask(0); ; page++) {
      const bytes = await asked;
      if (page > 0) asked = ask(page + 1);
      const items = this.itemsOf<T>(kind, folderKey, bytes.toString());
      yield items;
      if (items.length < size) return;
      if (page === 0) asked = ask(1);
    }
  }

  /** Every object of a collection, its pages read as `listPages` reads them. */
  async listAll<T extends BaseInfo = BaseInfo>(kind: Kind, folderKey: string, pageSize = maxPageSize, signal?: AbortSignal): Promise<T[]> {
    const all: T[] = [];
    for await (const items of this.listPages<T>(kind, folderKey, pageSize, signal)) for (const item of items) all.push(item);
    return all;
  }

  /** A page read again for a poll: sent once, with If-None-Match when `etag` is given. */
  async listAgain<T extends BaseInfo = BaseInfo>(kind: Kind, folderKey: string, page: number, pageSize: number, etag?: string): Promise<Reread<T[]>> {
    const size = pageSizeOf(pageSize);
    const answer = await this.send<Conditional>(() => ({
      method: 'GET',
      path: collectionPath(kind, folderKey),
      query: { page, pageSize: size },
      bytes: true,
      once: true,
      conditional: { etag },
    }));
    return answer.unchanged ? answer : { unchanged: false, value: this.itemsOf<T>(kind, folderKey, answer.bytes.toString()), etag: answer.etag };
  }

  /** An object read again for a poll: sent once, with If-None-Match when `etag` is given. */
  async getAgain<T extends BaseInfo = BaseInfo>(kind: Kind, folderKey: string, key: string, etag?: string): Promise<Reread<T>> {
    let path = '';
    const answer = await this.send<Conditional>(() => {
      path = objectPath(kind, folderKey, key);
      return { method: 'GET', path, bytes: true, once: true, conditional: { etag } };
    });
    return answer.unchanged ? answer : { unchanged: false, value: parseJson(answer.bytes.toString(), { method: 'GET', path }, 200) as T, etag: answer.etag };
  }

  folders(folderKey: string, page = 0, pageSize = 100): Promise<Page<FolderInfo>> {
    return this.list<FolderInfo>(kindOf('folder'), folderKey, page, pageSize);
  }

  get<T extends BaseInfo = BaseInfo>(kind: Kind, folderKey: string, key: string): Promise<T> {
    return this.send<T>(() => ({ method: 'GET', path: objectPath(kind, folderKey, key) }));
  }

  create<T extends BaseInfo = BaseInfo>(kind: Kind, folderKey: string, body: T): Promise<T> {
    return this.send<T>(() => ({ method: 'POST', path: collectionPath(kind, folderKey), json: body }));
  }

  /** PUT of the full object; its Key and InFolderKey say where it goes. */
  async update(kind: Kind, body: BaseInfo): Promise<void> {
    const { folderKey, key } = addressOf(body);
    await this.send(() => ({ method: 'PUT', path: objectPath(kind, folderKey, key), json: body }));
  }

  async delete(kind: Kind, folderKey: string, key: string): Promise<void> {
    await this.send(() => ({ method: 'DELETE', path: objectPath(kind, folderKey, key) }));
  }

  /** The invite body is a single JSON string: the e-mail address. */
  async invite(folderKey: string, siteKey: string, email: string): Promise<void> {
    const route = actionRoutes.invite;
    await this.send(() => ({ method: route.method, path: itemActionPath(route, kindOf('engageSite'), folderKey, siteKey), json: email }));
  }

  /** The spec sends a push notification as a DELETE with a body. */
  async pushNotification(folderKey: string, request: PushNotificationRequest): Promise<void> {
    const route = actionRoutes.pushNotification;
    await this.send(() => ({ method: route.method, path: folderActionPath(route, folderKey), json: request }));
  }

  /**
   * One `POST /people/complex`; returns the count in whatever form the server gives it. Sent again
   * after a 429 (nobody was added); `stopWaiting` ends such a wait, never the request in flight.
   */
  async addPeopleBatch(folderKey: string, people: PersonInfo[], stopWaiting?: AbortSignal, approval?: WriteApproval): Promise<number> {
    const route = actionRoutes.addPeople;
    const path = collectionActionPath(route, kindOf('person'), folderKey);
    const body = await this.send<unknown>(() => ({ method: route.method, path, json: people, resendWhenThrottled: true, stopWaiting, approval }));
    return countOf(body, people.length);
  }

  /** An object's notes, in the order the service keeps them (chronological). */
  async notes(kind: Kind, folderKey: string, key: string): Promise<NoteInfo[]> {
    const body = await this.send<unknown>(() => ({ method: 'GET', path: notesPath(kind, folderKey, key) }));
    return Array.isArray(body) ? (body as NoteInfo[]) : [];
  }

  /** Adds a note with a POST (a PUT of the object never changes its notes). */
  addNote(kind: Kind, folderKey: string, key: string, text: string): Promise<NoteInfo> {
    return this.send<NoteInfo>(() => ({ method: 'POST', path: notesPath(kind, folderKey, key), json: { NoteText: text } }));
  }

  async deleteNote(kind: Kind, folderKey: string, key: string, noteKey: string): Promise<void> {
    await this.send(() => ({ method: 'DELETE', path: notesPath(kind, folderKey, key, noteKey) }));
  }

  /** Splits `people` into batches and reports per batch what succeeded and what to resend. */
  addPeople(folderKey: string, people: PersonInfo[], options?: BatchOptions): Promise<BatchReport> {
    return addPeopleInBatches((batch, stopWaiting) => this.addPeopleBatch(folderKey, batch, stopWaiting, options?.approval), people, options);
  }
}

/** Folder and object key of a stored object, from Key/InFolderKey or its Href. */
function addressOf(obj: BaseInfo): { folderKey: string; key: string } {
  const fromHref = /^\/api\/f\/([^/]+)\/[^/]+\/([^/?#]+)/.exec(obj.Href ?? '');
  const folderKey = obj.InFolderKey ?? (fromHref ? decodeURIComponent(fromHref[1]) : undefined);
  const key = obj.Key ?? (fromHref ? decodeURIComponent(fromHref[2]) : undefined);
  if (!folderKey || !key) throw new ApiError('validation', l10n.t('The object has no Key and InFolderKey (or Href), so it cannot be updated'));
  return { folderKey, key };
}

/** Public clients use 1000 as the largest page. */
function pageSizeOf(asked: number): number {
  return Math.min(Math.max(1, asked), maxPageSize);
}

/**
 * The batch count as a number, an array of added objects, `{Count}`, or nothing (then: all of them).
 * @internal Exported for its unit test.
 */
export function countOf(body: unknown, sent: number): number {
  if (typeof body === 'number' && Number.isFinite(body)) return body;
  if (typeof body === 'string' && /^\d+$/.test(body.trim())) return Number(body);
  if (Array.isArray(body)) return body.length;
  const count = (body as Record<string, unknown> | null | undefined)?.Count ?? (body as Record<string, unknown> | null | undefined)?.count;
  if (typeof count === 'number') return count;
  return sent;
}
