/** Test helpers: a real sandbox on a free port, and fetch calls against it. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startSandbox, Sandbox, SandboxOptions } from '../../../src/sandbox/server';
import { kind, KindId } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';
import type { BaseInfo } from '../../../src/model/types';

export interface Res {
  status: number;
  headers: Headers;
  text: string;

  body: any;
}

export interface CallOptions {
  /** JSON body (sent with Content-Type application/json). */
  json?: unknown;
  /** Raw body, with `headers` to describe it. */
  body?: string | Uint8Array;
  headers?: Record<string, string>;
  /** Bearer token; the sandbox's static token by default, null for none. */
  token?: string | null;
}

export class Api {
  constructor(readonly sb: Sandbox) {}

  get instanceKey(): string {
    return this.sb.instanceKey;
  }

  async call(method: string, path: string, options: CallOptions = {}): Promise<Res> {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? this.sb.token : options.token;
    if (token !== null) headers.Authorization = `Bearer ${token}`;
    let body: string | Uint8Array | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await fetch(this.sb.url + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  }

  get(path: string, options?: CallOptions) {
    return this.call('GET', path, options);
  }
  post(path: string, json: unknown, options?: CallOptions) {
    return this.call('POST', path, { ...options, json });
  }
  put(path: string, json: unknown, options?: CallOptions) {
    return this.call('PUT', path, { ...options, json });
  }
  delete(path: string, options?: CallOptions) {
    return this.call('DELETE', path, options);
  }

  /** The child folder of `parentKey` with this CommonName. */
  async folder(name: string, parentKey = this.instanceKey): Promise<BaseInfo & { Key: string }> {
    const res = await this.get(`/api/f/${parentKey}/folders`);
    const found = (res.body as BaseInfo[]).find((f) => f.CommonName === name);
    if (!found) throw new Error(`No folder ${name} in ${parentKey}`);
    return found as BaseInfo & { Key: string };
  }

  /** Every object of a collection, reading all pages. */
  async listAll(folderKey: string, collection: string, pageSize = 1000): Promise<BaseInfo[]> {
    const all: BaseInfo[] = [];
    for (let page = 0; ; page++) {
      const res = await this.get(`/api/f/${folderKey}/${collection}?page=${page}&pageSize=${pageSize}`);
      if (res.status !== 200) throw new Error(`list ${collection}: ${res.status} ${res.text}`);
      all.push(...res.body);
      if (res.body.length < pageSize) return all;
    }
  }
}

export async function start(options: SandboxOptions = {}): Promise<Api> {
  return new Api(await startSandbox({ port: 0, ...options }));
}

/** A valid new object of a kind, as a create sample sends it. */
export function sample(id: KindId, name = `Test ${id}`): BaseInfo {
  return newObject(kind(id), name);
}

export function person(given: string, surname: string): BaseInfo {
  return { ...sample('person', `${given} ${surname}`), GivenName: given, Surname: surname };
}

/** Runs `fn` against a fresh sandbox and always closes it. */
export async function withSandbox<T>(options: SandboxOptions, fn: (api: Api) => Promise<T>): Promise<T> {
  const api = await start(options);
  try {
    return await fn(api);
  } finally {
    await api.sb.close();
  }
}

/**
 * A sandbox persisting to a fresh data file whose journal fails its next write ("disk full") after
 * `failNextWrite()`; then, with `reopened`, a second sandbox started from that file. The file goes at the end.
 */
export async function withFailingJournal(fn: (api: Api, failNextWrite: () => void) => Promise<void>, reopened?: (api: Api) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'oms-fail-'));
  const dataFile = path.join(dir, 'data.json');
  let failNext = false;
  try {
    await withSandbox(
      {
        seed: 'empty',
        dataFile,
        journal: {
          io: {
            async append(handle, bytes) {
              if (failNext) {
                failNext = false;
                throw new Error('disk full (injected)');
              }
              await handle.write(bytes);
              await handle.datasync();
            },
          },
        },
      },
      (api) =>
        fn(api, () => {
          failNext = true;
        }),
    );
    if (reopened) await withSandbox({ dataFile }, reopened);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
