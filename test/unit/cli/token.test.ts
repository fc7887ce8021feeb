/**
 * The access token of `oms` (built, run against a real sandbox): a 401 says the service refused the
 * token and where it came from, in the service's words made inert and without the token; a token file
 * others can read is warned about, as ssh warns about a key; a link to a token file is used.
 */
import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Api, start } from '../sandbox/harness';
import { allOutput, buildOms, oms, OmsRun } from './oms';

const token = 'token-test-token-9b41c7f2';
let api: Api;
let root: string;

before(async () => {
  buildOms();
  api = await start({ seed: 'demo', token });
});
after(() => api.sb.close());
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-token-'));
  const warehouse = (await api.folder('Warehouse')).Key;
  ok(
    await oms(['pull', path.join(root, 'folder'), '--url', api.sb.url, '--folder', warehouse, '--kinds', 'inputScanner'], {
      env: { OMS_TOKEN: token, XDG_STATE_HOME: root },
    }),
  );
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

const ok = (run: OmsRun, code = 0) => assert.equal(run.code, code, `exit ${run.code}\nstdout: ${run.out}\nstderr: ${run.err}`);
const plan = (env: Record<string, string>, ...more: string[]) => oms(['plan', path.join(root, 'folder'), ...more], { env: { OMS_URL: api.sb.url, ...env } });

test('a 401 says the service refused the access token, and whether it came from OMS_TOKEN or the --token-file path', async () => {
  const fromEnv = await plan({ OMS_TOKEN: 'not-the-token' });
  ok(fromEnv, 1);
  assert.match(fromEnv.err, /^oms: The service refused the access token from OMS_TOKEN \(401: Authorization has been denied for this request[^)]*\)\n$/);
  const file = path.join(root, 'token.txt');
  await fs.writeFile(file, 'not-the-token-either\n', { mode: 0o600 });
  const fromFile = await plan({}, '--token-file', file);
  ok(fromFile, 1);
  assert.ok(fromFile.err.includes(`The service refused the access token from ${file} (401: Authorization has been denied`), fromFile.err);
  for (const text of [fromEnv.err, fromFile.err]) assert.ok(!/not-the-token/.test(text), text);
});

test('a 401 whose text holds control, line-breaking and bidi characters and the token itself prints one inert line without the token', async () => {
  const hostileToken = 'hostile-test-token-5e0a';
  const body = { Message: `Denied\u001b[2J\u001b]0;pwned\u0007\r\nFAKE: all applied\u202eTEXT\u2066 for ${hostileToken} ${'x'.repeat(1000)}` };
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.url ?? '');
    res.writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Bearer' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const file = path.join(root, 'folder', 'oms.manifest.json');
    const manifest = JSON.parse(await fs.readFile(file, 'utf8')) as { connection: { url: string } };
    manifest.connection.url = url;
    await fs.writeFile(file, JSON.stringify(manifest));
    const run = await oms(['plan', path.join(root, 'folder')], { env: { OMS_URL: url, OMS_TOKEN: hostileToken } });
    ok(run, 1);
    assert.equal(seen.length, 1, 'it was asked');
    assert.match(run.err, /^oms: The service refused the access token from OMS_TOKEN \(401: Denied/);
    assert.equal(run.err.split('\n').length, 2, `one line: ${JSON.stringify(run.err)}`);
    assert.doesNotMatch(run.err.slice(0, -1), /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u, JSON.stringify(run.err));
    assert.ok(run.err.includes('FAKE: all applied'), 'the words are kept, readable');
    assert.ok(!run.err.includes(hostileToken), run.err);
    assert.ok(run.err.length < 500, `bounded: ${run.err.length}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a --token-file readable by group or others gets a warning naming its mode and chmod 600; 0600 and a link to a 0600 file do not', async () => {
  const file = path.join(root, 'token.txt');
  await fs.writeFile(file, `${token}\n`);
  const link = path.join(root, 'token-link');
  await fs.symlink(file, link);
  for (const [mode, warned] of [
    [0o644, true],
    [0o640, true],
    [0o604, true],
    [0o600, false],
    [0o400, false],
  ] as const) {
    await fs.chmod(file, mode);
    for (const named of [file, link]) {
      const run = await plan({}, '--token-file', named);
      ok(run);
      const warning = `oms: warning: the token file ${named} can be read by others (mode 0${mode.toString(8)}): make it yours alone with chmod 600 ${named}`;
      assert.equal(run.err.includes(warning), warned, `mode ${mode.toString(8)} via ${named}: ${run.err}`);
      if (!warned) assert.equal(run.err, '');
    }
  }
});

test('the token never appeared in any output of any run', () => {
  assert.ok(allOutput.length > 10);
  for (const text of allOutput) assert.ok(!text.includes(token), text);
});
