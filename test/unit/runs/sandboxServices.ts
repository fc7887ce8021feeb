/**
 * The editor's run commands against a real sandbox: a connection to it (every write approved, each
 * approval recorded) and the services the commands read, with a run store in a fresh folder.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server';
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import type { Connection } from '../../../src/connection/connection';
import type { Services } from '../../../src/commands/framework/command';
import { Api } from '../sandbox/harness';

export interface SandboxServices {
  sb: Sandbox;
  api: Api;
  client: OmsClient;
  connection: Connection;
  s: Services;
  /** The extension's global storage: the editor's run journals go under it. */
  storage: string;
  /** What each approval was asked for, in order. */
  approvals: string[];
}

export async function sandboxServices(): Promise<SandboxServices> {
  const sb = await startSandbox({ port: 0, seed: 'empty' });
  const client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
  const approvals: string[] = [];
  const connection = {
    id: 'c1',
    info: { id: 'c1', label: 'Sandbox', baseUrl: sb.url },
    client,
    approveWrites: (what: string) => (approvals.push(what), Promise.resolve({ what })),
  } as unknown as Connection;
  const storage = await mkdtemp(join(tmpdir(), 'oms-runs-'));
  const s = {
    connections: { require: () => connection, get: () => connection, active: connection, all: () => [connection] },
    context: { globalStorageUri: { fsPath: storage } },
    saves: { runWrote: () => undefined, runEnded: () => Promise.resolve() },
  } as unknown as Services;
  return { sb, api: new Api(sb), client, connection, s, storage, approvals };
}
