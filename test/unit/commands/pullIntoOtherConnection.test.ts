/**
 * Pull as Files… into a folder pulled from another connection, with an edited file in it: refused
 * before any question (no Keep My Edits / Overwrite Them), in words naming the connection the folder
 * belongs to; nothing on disk changes. Two real sandboxes; the command as the tree runs it.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
// First: the modules below import `vscode` at run time.
import { ui } from '../runs/hostShim';
import { startSandbox, Sandbox } from '../../../src/sandbox/server';
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { bindingOf, pull } from '../../../src/changes/code/pull';
import type { Connection } from '../../../src/connection/connection';
import type { Services } from '../../../src/commands/framework/command';
import { pullAsFiles } from '../../../src/commands/objectsAsCode/codePull';

let home: Sandbox;
let staging: Sandbox;
let root: string;
let s: Services;

const connectionTo = (sb: Sandbox, id: string, label: string) =>
  ({ id, info: { id, label, baseUrl: sb.url }, client: new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token })) }) as unknown as Connection;

before(async () => {
  [home, staging] = await Promise.all([startSandbox({ port: 0, seed: 'demo' }), startSandbox({ port: 0, seed: 'demo' })]);
  const connections = [connectionTo(home, 'home', 'Head Office'), connectionTo(staging, 'staging', 'Staging')];
  const get = (id: string) => connections.find((c) => c.id === id);
  s = { connections: { all: () => connections, get, require: (id: string) => get(id)!, active: undefined } } as unknown as Services;
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-other-'));
});
after(async () => {
  await Promise.all([home.close(), staging.close()]);
  await fs.rm(root, { recursive: true, force: true });
});

/** Every file under `dir` with its text. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out[path.join(entry.parentPath, entry.name)] = await fs.readFile(path.join(entry.parentPath, entry.name), 'utf8');
  }
  return out;
}

test('a pull into a folder of another connection is refused first, naming the connection the folder belongs to; no question, nothing written', async () => {
  const [homeConnection] = s.connections.all();
  const client = homeConnection.client;
  const rootKey = (await client.instance()).Key!;
  const report = await pull(client, root, await bindingOf(client, 'Head Office', home.url), {
    scope: { folderKey: rootKey, recursive: true, kinds: ['inputScanner'] },
  });
  assert.ok(report.written > 0, 'the first pull wrote files');
  const files = Object.keys(await snapshot(root)).filter((f) => f.endsWith('.json') && !f.endsWith('oms.manifest.json'));
  await fs.appendFile(files[0], ' '); // an edit since the pull: the question the old order asked first
  const before = await snapshot(root);

  ui.reset();
  const stagingRoot = (await s.connections.require('staging').client.instance()).Key!;
  await assert.rejects(Promise.resolve(pullAsFiles.run(s, { connectionId: 'staging', folderKey: stagingRoot, kind: 'inputScanner' }, { root })), (e: Error) => {
    assert.match(e.message, /pulled from Head Office \(/, e.message);
    assert.match(e.message, new RegExp(`not from Staging \\(${staging.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), e.message);
    return true;
  });
  assert.deepEqual(ui.messages, [], `asked before refusing: ${ui.messages.join(' | ')}`);
  assert.deepEqual(await snapshot(root), before, 'nothing on disk changed');
});
