/** Shared by the integration suites: the extension's test API and the test sandbox over REST. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/testApi';
import type { TreeNode } from '../../src/tree/nodes/node';

export const sandboxUrl = process.env.OMS_SANDBOX_URL ?? '';
export const sandboxToken = process.env.OMS_SANDBOX_TOKEN ?? '';
export const envConnectionId = 'env-sandbox';

/** The extension's test API (exported in ExtensionMode.Test only), once the environment's connection is in place. */
export async function services(): Promise<TestApi> {
  const ext = vscode.extensions.getExtension<TestApi | undefined>('oms-team.oms-explorer');
  assert.ok(ext, 'extension installed');
  const api = await ext.activate();
  assert.ok(api, 'the test API is exported while VS Code runs tests');
  await api.ready;
  return api;
}

/** A call to the sandbox as another client would make it (not through the extension). */
export async function rest<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  assert.ok(sandboxUrl, 'OMS_SANDBOX_URL is set by the harness');
  const res = await fetch(sandboxUrl + path, {
    method,
    headers: { Authorization: `Bearer ${sandboxToken}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function label(node: TreeNode): string {
  const l = node.getTreeItem().label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

/** Walks the tree by labels from a connection node, e.g. ['Sandbox', 'Demo Instance', 'Input scanners']. */
export async function nodeAt(s: TestApi, ...labels: string[]): Promise<TreeNode> {
  let children = await s.tree.getChildren();
  let node: TreeNode | undefined;
  for (const wanted of labels) {
    node = children.find((c) => label(c) === wanted);
    assert.ok(node, `tree node "${wanted}" among [${children.map(label).join(', ')}]`);
    children = node.getChildren ? await node.getChildren() : [];
  }
  return node!;
}

export async function childrenOf(node: TreeNode): Promise<TreeNode[]> {
  return node.getChildren ? node.getChildren() : [];
}

/** Replaces the whole text of a document and returns it (an undoable edit, as typing would be). */
export async function setText(doc: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
  assert.ok(await vscode.workspace.applyEdit(edit), 'edit applied');
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor').then(undefined, () => undefined);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** Names from the root folder down to the first folder holding objects of `collection`, and its key. */
export async function folderWith(collection: string, minimum = 1): Promise<{ names: string[]; key: string; count: number }> {
  const root = (await rest('GET', '/api')).body;
  const queue: Array<{ names: string[]; key: string }> = [{ names: [root.CommonName], key: root.Key }];
  while (queue.length) {
    const folder = queue.shift()!;
    const count = (await rest('GET', `/api/f/${folder.key}/${collection}?pageSize=1000`)).body.length;
    if (count >= minimum) return { ...folder, count };
    for (const child of (await rest('GET', `/api/f/${folder.key}/folders`)).body) queue.push({ names: [...folder.names, child.CommonName], key: child.Key });
  }
  return assert.fail(`no folder with ${minimum} ${collection}`);
}

/** An object as its document shows it: without its ConcurrencyVersion, which the editor keeps beside the text. */
export function asShown(object: any): any {
  const { ConcurrencyVersion: _v, ...rest } = object;
  return rest;
}

/** Machine-wide CPU time so far (Linux /proc/stat, in clock ticks): all of it, and the busy part. */
function cpuTicks(): { total: number; busy: number } | undefined {
  try {
    const [user, nice, system, idle, iowait, ...rest] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = [user, nice, system, idle, iowait, ...rest].reduce((a, b) => a + b, 0);
    return { total, busy: total - idle - iowait };
  } catch {
    return undefined; // not Linux: nothing to wait for
  }
}

/**
 * Waits (at most `limitMs`) until the machine's CPUs were mostly idle over the last `windowMs`,
 * so that a timing measures our code rather than the rest of the workbench starting beside it.
 * Returns the busy share of the last window and how long it waited.
 */
export async function quietMachine(limitMs = 20_000, windowMs = 500, busyBelow = 0.12): Promise<{ busy: number; waitedMs: number }> {
  const started = Date.now();
  let busy = 0;
  for (let before = cpuTicks(); before;) {
    await new Promise((r) => setTimeout(r, windowMs));
    const after = cpuTicks()!;
    busy = (after.busy - before.busy) / Math.max(1, after.total - before.total);
    if (busy < busyBelow || Date.now() - started > limitMs) break;
    before = after;
  }
  return { busy, waitedMs: Date.now() - started };
}
