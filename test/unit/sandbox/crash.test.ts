import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { kind } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';

const root = path.resolve(__dirname, '../../..');
const token = 'crash-test-token';

/** The CLI bundled once (as `npm run build` does), so each of the six starts is quick. */
async function bundleCli(dir: string): Promise<string> {
  const outfile = path.join(dir, 'sandbox.js');
  await build({ entryPoints: [path.join(root, 'src/sandbox/cli.ts')], outfile, bundle: true, platform: 'node', format: 'cjs', logLevel: 'error' });
  return outfile;
}

/** Starts the CLI on `dataFile` and resolves with its URL and instance key once it listens. */
function startChild(cli: string, dataFile: string): Promise<{ child: ChildProcess; url: string; instance: string }> {
  const child = spawn(process.execPath, [cli, '--port', '0', '--seed', 'empty', '--data', dataFile, '--compact-at', '30000'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, OMS_SANDBOX_TOKEN: token },
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (\S+) instance=([0-9a-f]{24})/.exec(out);
      if (m) resolve({ child, url: m[1], instance: m[2] });
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code}) before listening: ${out}`)));
  });
}

/** Every input scanner the sandbox holds, page by page (a fast disk acknowledges well over one page of writes). */
async function storedNames(url: string, instance: string, headers: Record<string, string>): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (let page = 0; ; page++) {
    const res = await fetch(`${url}/api/f/${instance}/inputscanners?page=${page}&pageSize=1000`, { headers });
    const items = (await res.json()) as Array<{ Key: string; CommonName: string }>;
    for (const s of items) names.set(s.Key, s.CommonName);
    if (items.length < 1000) return names;
  }
}

test('kill -9 during a write loop, five times: every acknowledged write is found after a restart', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'oms-crash-'));
  const bin = await mkdtemp(path.join(tmpdir(), 'oms-crash-bin-'));
  const cli = await bundleCli(bin);
  const dataFile = path.join(dir, 'data.json');
  const acknowledged = new Map<string, string>();
  /** An update sent but not answered when the process died may or may not have been stored. */
  const attempted = new Map<string, string>();
  const check = (stored: Map<string, string>, when: string) => {
    for (const [key, name] of acknowledged) {
      const found = stored.get(key);
      assert.ok(found === name || found === attempted.get(key), `${when}: acknowledged write of ${key} (${name}) lost, found ${found}`);
    }
  };
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  try {
    for (let round = 0; round < 5; round++) {
      const { child, url, instance } = await startChild(cli, dataFile);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      let killed = false;
      try {
        // What the restarted sandbox holds: every write acknowledged before.
        check(await storedNames(url, instance, headers), `round ${round}`);

        const writer = async (w: number) => {
          for (let i = 0; !killed; i++) {
            const name = `Round ${round} writer ${w} #${i}`;
            try {
              const res = await fetch(`${url}/api/f/${instance}/inputscanners`, {
                method: 'POST',
                headers,
                body: JSON.stringify(newObject(kind('inputScanner'), name)),
              });
              if (res.status !== 201) throw new Error(`status ${res.status}`);
              const created = (await res.json()) as { Key: string; Href: string; ConcurrencyVersion: number };
              acknowledged.set(created.Key, name);
              attempted.set(created.Key, `${name} v2`);
              const put = await fetch(`${url}${created.Href}`, {
                method: 'PUT',
                headers,
                body: JSON.stringify({ ...newObject(kind('inputScanner'), `${name} v2`), ...created, CommonName: `${name} v2` }),
              });
              if (put.status === 204) acknowledged.set(created.Key, `${name} v2`);
            } catch {
              if (!killed) throw new Error(`a request failed before the kill (round ${round})`);
            }
          }
        };
        const writers = Array.from({ length: 6 }, (_, w) => writer(w));
        await new Promise((r) => setTimeout(r, 300 + round * 150));
        killed = true;
        child.kill('SIGKILL');
        await Promise.all(writers);
      } finally {
        killed = true;
        child.kill('SIGKILL');
        await exited;
      }
    }
    const { child, url, instance } = await startChild(cli, dataFile);
    try {
      assert.ok(acknowledged.size > 50, `${acknowledged.size} writes acknowledged`);
      check(await storedNames(url, instance, headers), 'at the end');
      assert.deepEqual((await readdir(dir)).sort(), ['data.json', 'data.json.journal'], 'nothing accumulates');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
    await rm(bin, { recursive: true, force: true });
  }
});
