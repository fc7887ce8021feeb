/**
 * Where the token goes: `oms` built and run against a real sandbox, and another local server that
 * records every request (the URL a pull request could put in the manifest). In CI (no terminal,
 * CI=true) the URL must come from OMS_URL or --url and the manifest must name it, else nothing is
 * sent; on a terminal (a pseudo-terminal from util-linux `script`) a URL this user did not pull the
 * folder from is said and asked about first; a redirect never carries the token to another origin.
 */
import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Api, start } from '../sandbox/harness';
import { buildOms, hasScript, oms, omsOnTerminal, OmsRun } from './oms';

const token = 'destination-test-token-4d2a7e';
let api: Api;
let warehouse: string;
let root: string;
let state: string;
/** Requests the sandbox served. */
let served: string[] = [];
/** What the other server received: method, path and whether a token came with it. */
let stranger: { server: Server; url: string; seen: Array<{ method?: string; url?: string; authorization?: string }> };

before(async () => {
  buildOms();
  api = await start({ seed: 'demo', token, log: (line) => served.push(line) });
  warehouse = (await api.folder('Warehouse')).Key;
  const seen: typeof stranger.seen = [];
  const server = createServer((req: IncomingMessage, res) => {
    seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
    res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"Message":"Not here"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stranger = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
});
after(async () => {
  await api.sb.close();
  await new Promise((resolve) => stranger.server.close(resolve));
});
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-dest-'));
  state = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-state-'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
  await fs.rm(state, { recursive: true, force: true });
});

const ok = (run: OmsRun, code = 0) => assert.equal(run.code, code, `exit ${run.code}\nstdout: ${run.out}\nstderr: ${run.err}`);
/** A CI job's environment: no terminal (the child's standard streams are pipes), CI=true, this test's state folder. */
const ci = (more: Record<string, string | undefined> = {}) => ({ env: { OMS_TOKEN: token, CI: 'true', XDG_STATE_HOME: state, ...more } });

async function pull(): Promise<void> {
  ok(await oms(['pull', root, '--url', api.sb.url, '--folder', warehouse, '--kinds', 'inputScanner'], ci()));
}

async function manifestUrl(url: string): Promise<void> {
  const file = path.join(root, 'oms.manifest.json');
  const manifest = JSON.parse(await fs.readFile(file, 'utf8')) as { connection: { url: string } };
  manifest.connection.url = url;
  await fs.writeFile(file, JSON.stringify(manifest, null, 2) + '\n');
}

test("CI: OMS_URL unset or empty refuses plan, diff, apply and a pull again before any request; OMS_URL or --url naming the manifest's URL works", async () => {
  await pull();
  const manifest = JSON.parse(await fs.readFile(path.join(root, 'oms.manifest.json'), 'utf8')) as { objects: Record<string, { path: string }> };
  const [key] = Object.keys(manifest.objects);
  served = [];
  const commands = [
    ['plan', root],
    ['diff', root, key],
    ['apply', root, '--auto-approve'],
    ['pull', root],
  ];
  for (const args of commands) {
    const unset = await oms(args, ci());
    ok(unset, 1);
    assert.match(
      unset.err,
      /No terminal: give the service's URL in OMS_URL or --url\. The URL in oms\.manifest\.json \(http:\/\/127\.0\.0\.1:\d+\) comes from the folder's files/,
      `${args[0]}: ${unset.err}`,
    );
    const empty = await oms(args, ci({ OMS_URL: '' }));
    ok(empty, 1);
    assert.match(empty.err, /OMS_URL is set but empty/, `${args[0]}: ${empty.err}`);
    ok(await oms(args, ci({ OMS_URL: '  ' })), 1);
  }
  assert.deepEqual(served, [], 'nothing was sent');

  ok(await oms(['plan', root], ci({ OMS_URL: api.sb.url })));
  ok(await oms(['plan', root], ci({ OMS_URL: `${api.sb.url}/` })), 0); // the same URL, as a variable may hold it
  ok(await oms(['plan', root, '--url', api.sb.url], ci()));
  ok(await oms(['diff', root, key, '--url', api.sb.url], ci()));
  const both = await oms(['plan', root, '--url', stranger.url], ci({ OMS_URL: api.sb.url }));
  ok(both, 1);
  assert.match(both.err, /--url names http:\/\/127\.0\.0\.1:\d+ but OMS_URL names/);
  assert.deepEqual(stranger.seen, []);
});

test(
  'CI: a manifest whose URL a pull request changed to another server is refused, naming both URLs; ' +
    'that server receives nothing, the token file is not even read',
  async () => {
    await pull();
    await manifestUrl(stranger.url);
    served = [];
    const missingTokenFile = path.join(root, 'no-such-token-file');
    for (const args of [
      ['plan', root, '--format', 'markdown'],
      ['apply', root, '--auto-approve'],
      ['pull', root],
      ['plan', root, '--token-file', missingTokenFile],
    ]) {
      const pinned = await oms(args, ci({ OMS_URL: api.sb.url }));
      ok(pinned, 1);
      assert.ok(
        pinned.err.includes(`oms.manifest.json names ${stranger.url}, but OMS_URL names ${api.sb.url}: refused before anything was sent`),
        `${args.join(' ')}: ${pinned.err}`,
      );
      const flagged = await oms([...args, '--url', api.sb.url], ci());
      ok(flagged, 1);
      assert.ok(flagged.err.includes(`names ${stranger.url}, but --url names ${api.sb.url}`), flagged.err);
      const unset = await oms(args, ci());
      ok(unset, 1);
      assert.ok(unset.err.includes(stranger.url) && unset.err.includes('No terminal'), unset.err);
    }
    assert.deepEqual(stranger.seen, [], 'the other server received nothing');
    assert.deepEqual(served, []);

    await manifestUrl('file:///etc/passwd\u001b[2J\u202e');
    const notUrl = await oms(['plan', root], ci({ OMS_URL: api.sb.url }));
    ok(notUrl, 1);
    assert.ok(notUrl.err.includes('oms.manifest.json names "file:///etc/passwd<U+001B>[2J<U+202E>", which is not a base URL'), notUrl.err);
  },
);

test('a redirect from the service to another local origin is not followed: the token stays with the service', async () => {
  await pull();
  // The service answers the list read (after the instance read) with a redirect to the other server.
  const rule = { path: `/api/f/${warehouse}/`, method: 'GET', count: 1, status: 307, location: `${stranger.url}/api/f/${warehouse}/inputscanners` };
  assert.equal((await api.post('/sandbox/faults', rule)).status, 201);
  for (const status of [307, 302]) {
    if (status !== 307) assert.equal((await api.post('/sandbox/faults', { ...rule, status })).status, 201);
    const run = await oms(['plan', root], ci({ OMS_URL: api.sb.url }));
    ok(run, 1);
    assert.match(run.err, new RegExp(`redirected \\(${status}\\); redirects are not followed`));
  }
  assert.deepEqual(stranger.seen, [], 'nothing reached the other origin, with or without the token');
});

/** `oms <args>` on a terminal, with this test's state folder; `answer` typed when asked. */
const onTerminal = (args: string[], answer: string) => omsOnTerminal(args, answer, { OMS_TOKEN: token, XDG_STATE_HOME: state });

test(
  'on a terminal: the URL the folder was pulled from is used without a word; another is said and asked about before the token goes',
  { skip: !hasScript && 'no util-linux script' },
  async () => {
    await pull(); // with --url: this user pulled it from the sandbox
    const same = await onTerminal(['plan', root], 'no');
    assert.equal(same.code, 0, same.out);
    assert.equal(same.asked, false, same.out);

    await manifestUrl(stranger.url);
    const moved = await onTerminal(['plan', root], 'no');
    assert.equal(moved.code, 1, moved.out);
    assert.ok(moved.asked, moved.out);
    assert.ok(moved.out.includes(`oms.manifest.json names ${stranger.url}, but you pulled this folder from ${api.sb.url}`), moved.out);
    assert.ok(moved.out.includes(`Send the access token to ${stranger.url}?`), moved.out);
    const refusedApply = await onTerminal(['apply', root], 'no');
    assert.equal(refusedApply.code, 1, refusedApply.out);
    assert.deepEqual(stranger.seen, [], 'no answer but "yes" sends nothing');

    // A folder this user never pulled here (a fresh clone): its manifest's URL is asked about once; a yes is remembered.
    await manifestUrl(api.sb.url);
    await fs.rm(state, { recursive: true });
    const fresh = await onTerminal(['plan', root], 'yes');
    assert.equal(fresh.code, 0, fresh.out);
    assert.ok(fresh.asked, fresh.out);
    assert.ok(fresh.out.includes(`You have not pulled this folder on this machine: the URL ${api.sb.url} comes from its oms.manifest.json`), fresh.out);
    const again = await onTerminal(['plan', root], 'no');
    assert.equal(again.code, 0, again.out);
    assert.equal(again.asked, false, again.out);
    // Not in the pulled folder: a pull request could commit it there.
    assert.ok(!(await fs.readdir(path.join(root, '.oms'))).some((f) => /url|from/i.test(f)));
  },
);
