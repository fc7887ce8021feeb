// Security suite, sandbox: local by default, and its files (data, journal, save history) private and never through a link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lstat, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startSandbox } from '../../../src/sandbox/server';
import { HistoryEntry, SaveHistory } from '../../../src/save/history';
import { runCli, startCli } from './child';
import { ask } from './net';

test('security: a non-loopback --host is refused; with --allow-remote it starts and a warning names the risk', async () => {
  for (const host of ['0.0.0.0', '::', '192.0.2.1', 'example.com']) {
    const refused = await runCli(['--port', '0', '--seed', 'empty', '--host', host]);
    assert.equal(refused.code, 2, host);
    assert.match(refused.stderr, /not a loopback address.*--allow-remote/, host);
    assert.equal(refused.stdout, '', 'never listened');
    await assert.rejects(startSandbox({ host, seed: 'empty' }), /not a loopback address/, 'the embedded form refuses too');
  }
  const allowed = await startCli(['--seed', 'empty', '--host', '0.0.0.0', '--allow-remote']);
  try {
    assert.match(
      allowed.stderr(),
      new RegExp(
        String.raw`warning: listening on 0\.0\.0\.0: every machine that can reach it can send requests and try passwords and tokens; ` +
          'without --cert/--key, tokens and data cross the network unencrypted',
      ),
    );
    const port = new URL(allowed.url).port;
    assert.equal((await ask(`http://127.0.0.1:${port}`, { path: '/api', token: allowed.token })).status, 200);
  } finally {
    await allowed.stop();
  }
  for (const host of ['127.0.0.1', 'localhost', '127.0.0.2']) {
    const sb = await startSandbox({ host, seed: 'empty' });
    await sb.close();
  }
});

/** Mode bits of a path (no link followed). */
const mode = async (p: string) => (await lstat(p)).mode & 0o777;

test('security: data and journal files are 0600 in a 0700 folder, written through random exclusive temp files, never through a link', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'oms-sec-files-'));
  try {
    const dir = path.join(root, 'new-folder');
    const data = path.join(dir, 'data.json');
    const sb = await startSandbox({ seed: 'empty', dataFile: data });
    await sb.close();
    assert.equal(await mode(dir), 0o700);
    assert.equal(await mode(data), 0o600);
    assert.equal(await mode(`${data}.journal`), 0o600);

    // A link planted where a fixed temp name used to be is not written through (it is removed at start).
    const victim = path.join(root, 'victim.txt');
    await writeFile(victim, 'precious\n');
    await symlink(victim, `${data}.tmp`);
    const again = await startSandbox({ seed: 'empty', dataFile: data });
    await again.close();
    assert.equal(await readFile(victim, 'utf8'), 'precious\n');
    assert.deepEqual((await readdir(dir)).sort(), ['data.json', 'data.json.journal'], 'no temp file or link left');

    // The data file or its journal a link: refused at start, the target untouched.
    const linked = path.join(root, 'linked.json');
    await symlink(data, linked);
    await assert.rejects(startSandbox({ seed: 'empty', dataFile: linked }), /symbolic link/);
    const otherData = path.join(root, 'other.json');
    const s3 = await startSandbox({ seed: 'empty', dataFile: otherData });
    await s3.close();
    await rm(`${otherData}.journal`);
    await symlink(victim, `${otherData}.journal`);
    await assert.rejects(startSandbox({ seed: 'empty', dataFile: otherData }), /symbolic link/);
    assert.equal(await readFile(victim, 'utf8'), 'precious\n');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('security: the save history is 0600 in a 0700 folder and a link in its place is replaced, never written through', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'oms-sec-history-'));
  try {
    const dir = path.join(root, 'storage');
    const history = new SaveHistory(dir);
    const entry = {
      savedAt: new Date().toISOString(),
      kind: 'engageSite',
      folderKey: 'f',
      key: 'k1',
      object: { $type: 'X.EngageSiteInfo, X', Key: 'k1', CommonName: 'before' } as HistoryEntry['object'],
    };
    await history.record('conn', entry);
    const [file] = await readdir(dir);
    assert.equal(await mode(dir), 0o700);
    assert.equal(await mode(path.join(dir, file)), 0o600);

    const victim = path.join(root, 'victim.json');
    await writeFile(victim, '["precious"]');
    await rm(path.join(dir, file));
    await symlink(victim, path.join(dir, file));
    assert.deepEqual(await history.list('conn', 'k1'), [], 'a linked history is not read');
    await history.record('conn', { ...entry, savedAt: new Date().toISOString() });
    assert.equal(await readFile(victim, 'utf8'), '["precious"]', 'the link target is untouched');
    assert.ok((await lstat(path.join(dir, file))).isFile(), 'the link was replaced by a file of its own');
    assert.equal((await stat(path.join(dir, file))).mode & 0o777, 0o600);
    assert.equal((await history.list('conn', 'k1')).length, 1);
    assert.deepEqual(await readdir(dir), [file], 'no temp file left');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
