/**
 * What the objects-as-code tests share: a demo sandbox (Floor 1 of Head Office holds the scanners
 * they pull), a client whose requests are recorded, an empty folder per test to pull into, and
 * helpers that read and edit the pulled files. Importing it registers the hooks.
 */
import { before, after, beforeEach, afterEach } from 'node:test';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHttp, type RequestLog } from '../../../../src/api/http';
import { OmsClient } from '../../../../src/api/client';
import { bindingOf } from '../../../../src/changes/code/pull';
import type { ConnectionBinding } from '../../../../src/changes/code/manifest';
import type { Plan, PlanAction } from '../../../../src/changes/code/plan';
import { kind } from '../../../../src/model/kinds';
import type { InputScannerInfo } from '../../../../src/model/types';
import { type Api, start } from '../../sandbox/harness';

export let api: Api;
export let client: OmsClient;
/** The client's requests since the test started (emptied in place: `requests.length = 0`). */
export const requests: RequestLog[] = [];
export let binding: ConnectionBinding;
export let floor1: string;
/** The test's folder to pull into. */
export let root: string;
export const scanners = kind('inputScanner');

before(async () => {
  api = await start({ seed: 'demo' });
  client = new OmsClient(createHttp({ baseUrl: api.sb.url, token: () => api.sb.token, log: (e) => requests.push(e) }));
  binding = await bindingOf(client, 'Sandbox', api.sb.url);
  floor1 = (await api.folder('Floor 1', (await api.folder('Head Office')).Key)).Key;
});
after(() => api.sb.close());
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-code-'));
  requests.length = 0;
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

export const scope = () => ({ folderKey: floor1, recursive: false, kinds: [scanners.id] });

export async function files(dir = root): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.push(path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
  }
  return out.sort();
}

export async function scannerFiles(): Promise<string[]> {
  return (await files()).filter((f) => f.includes('/inputscanners/'));
}

export async function editFile(rel: string, edit: (o: InputScannerInfo) => void): Promise<void> {
  const o = JSON.parse(await fs.readFile(path.join(root, rel), 'utf8')) as InputScannerInfo;
  edit(o);
  await fs.writeFile(path.join(root, rel), JSON.stringify(o, null, 4));
}

export async function live(key: string, collection = 'inputscanners', folderKey = floor1): Promise<InputScannerInfo> {
  return (await api.get(`/api/f/${folderKey}/${collection}/${key}`)).body as InputScannerInfo;
}

export function keyOf(rel: string): string {
  return rel.split('.').slice(-2, -1)[0];
}

export function actions(plan: Plan): Partial<Record<PlanAction, number>> {
  const out: Partial<Record<PlanAction, number>> = {};
  for (const e of plan.entries) out[e.action] = (out[e.action] ?? 0) + 1;
  return out;
}

export async function snapshot(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  // Not the files' stats: like git's index, they are recorded again as files are found unchanged.
  for (const f of await files()) if (f !== '.oms/stats') out.set(f, await fs.readFile(path.join(root, f), 'utf8'));
  return out;
}
