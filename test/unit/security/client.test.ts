/**
 * The client as an attacker would try it, over real sockets: a server that
 * echoes the token in every form, the copied cURL command run in a real shell while every process's
 * command line is read, links and paths that try to leave the connection, the files the client writes.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createHttp, RequestLog } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { apiError } from '../api/apiError';
import { curlOf } from '../../../src/api/curl';
import { kind } from '../../../src/model/kinds';
import { leavesBase, parseHref } from '../../../src/model/routes';
import { writeFailedFile } from '../../../src/people/failedFile';
import type { PersonInfo } from '../../../src/model/types';
import { startSandbox, Sandbox } from '../../../src/sandbox/server';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox({ port: 0, seed: 'demo' });
});
after(() => sb.close());

/** A server on 127.0.0.1 answering with `handler`; counts what reaches it. */
async function server(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const s: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => handler(req, res));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(s.address() as { port: number }).port}`;
  return {
    url,
    seen,
    close: () => {
      s.closeAllConnections();
      return new Promise((r) => s.close(() => r()));
    },
  };
}

// --- 6. Tokens never in a string that can leak -------------------------------------------------

/** A token with the characters that URL- and base64-encoding change. */
const token = 'Zq9+x/Lm4Tw7=Rb2Kc8Hv3Np6Ys5Jd1Gf0';
const echoes: Record<string, (t: string) => string> = {
  exact: (t) => t,
  'URL-encoded': (t) => encodeURIComponent(t),
  'form-encoded': (t) => new URLSearchParams({ t }).toString().slice(2),
  'every byte percent-encoded': (t) => [...Buffer.from(t)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
  'base64 of the header': (t) => Buffer.from(`Bearer ${t}`).toString('base64'),
  'base64 of the token': (t) => Buffer.from(t).toString('base64'),
  'base64url, inside a longer value': (t) => Buffer.from(`{"user":"admin","token":"${t}"}`).toString('base64url'),
  lowercased: (t) => t.toLowerCase(),
  uppercased: (t) => t.toUpperCase(),
  'split by spaces': (t) => t.match(/.{1,5}/g)!.join(' '),
  'split over lines': (t) => t.match(/.{1,9}/g)!.join('\n'),
  'truncated to 8': (t) => t.slice(0, 8),
  'truncated to 12, then …': (t) => `${t.slice(0, 12)}…`,
  'its middle': (t) => t.slice(10, 22),
};

test('6: a token the server echoes back is masked in every form, in the message, the details and the log', async () => {
  let form = '';
  const srv = await server((_req, res) => {
    res.writeHead(400, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ Message: `Refused for token ${form} (check it)`, Errors: [{ pointer: '/x', message: `bad: ${form}` }] }));
  });
  try {
    const logs: RequestLog[] = [];
    const http = createHttp({ baseUrl: srv.url, token: () => token, log: (e) => logs.push(e) });
    for (const [name, encode] of Object.entries(echoes)) {
      form = encode(token);
      const e = await apiError(http({ method: 'POST', path: '/api', json: {} }));
      const shown = `${e.message}\n${e.details.map((d) => d.message).join('\n')}\n${e.path}`;
      assert.ok(!shown.includes(form), `${name}: "${form}" is in ${JSON.stringify(shown)}`);
      for (const piece of form.split(/\s+/).filter((p) => p.length >= 8)) assert.ok(!shown.includes(piece), `${name}: "${piece}" shown`);
      assert.match(e.message, /^Refused for token \*\*\*.* \(check it\)$/, `${name}: the rest of the message stays`);
    }
    // A path that carries the token (a link of the server's) is masked in the log and the error too.
    await apiError(http({ method: 'GET', path: `/api?echo=${encodeURIComponent(token)}`, idempotent: false }));
    const logged = JSON.stringify(logs);
    assert.ok(logs.length > Object.keys(echoes).length && !logged.includes(encodeURIComponent(token)) && !logged.includes(token), logged);
  } finally {
    await srv.close();
  }
});

test('6: a password echoed by a refused sign-in is masked, lowercased or encoded', async () => {
  const password = 'S3cret/Passw0rd';
  const srv = await server((_req, res) => {
    res.writeHead(400, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: 'invalid_grant', error_description: `wrong password ${password.toLowerCase()} / ${encodeURIComponent(password)}` }));
  });
  try {
    const e = await apiError(createHttp({ baseUrl: srv.url })({ method: 'POST', path: '/token', anonymous: true, form: { grant_type: 'password', password } }));
    assert.equal(e.message, 'wrong password *** / ***');
  } finally {
    await srv.close();
  }
});

// --- 7. Copy as cURL keeps the token off every command line --------------------------------------

const run = promisify(execFile);

/** Every process's command line, read from /proc. */
function commandLines(): string[] {
  const lines: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      lines.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' '));
    } catch {
      /* gone meanwhile */
    }
  }
  return lines;
}

for (const shell of ['bash', 'sh']) {
  test(`7: the copied command, run by ${shell} with TOKEN set, works while no process has the token on its command line`, async () => {
    const secret = sb.token;
    let scanned: string[] = [];
    // A proxy in front of the sandbox that reads every command line while curl waits for the answer.
    const srv = await server((req, res) => {
      scanned = commandLines();
      fetch(sb.url + req.url!, { headers: { Authorization: req.headers.authorization ?? '' } }).then(
        async (r) => {
          res.writeHead(r.status, { 'Content-Type': 'application/json' });
          res.end(await r.text());
        },
        () => res.destroy(),
      );
    });
    try {
      const command = await curlOf(srv.url, (c) => c.instance());
      assert.ok(!command.includes(secret), 'the token is not in the copied text');
      const { stdout } = await run(shell, ['-c', command], { env: { PATH: process.env.PATH, TOKEN: secret }, encoding: 'utf8' });
      assert.equal(JSON.parse(stdout).Key, sb.instanceKey, 'the command works with TOKEN set');
      const curl = scanned.filter((l) => /^curl /.test(l));
      assert.equal(curl.length, 1, `curl seen while it waited: ${scanned.filter((l) => l.includes('curl')).join(' | ')}`);
      assert.ok(curl[0].includes('-H @-'), curl[0]);
      assert.deepEqual(
        scanned.filter((l) => l.includes(secret)),
        [],
        'no command line holds the token',
      );
    } finally {
      await srv.close();
    }
  });
}

// --- 8. Links and paths stay inside their connection ---------------------------------------------

const escaping = [
  '/..//x',
  '/%2e%2e/',
  '/%2E%2E/api',
  '/api/f/f1/engagesites/..',
  '/api/f/f1/engagesites/%2e%2e',
  '/api/./f',
  '/api/.%2e/x',
  '//evil.example/x',
  'https://evil.example/api',
  'http:/evil.example',
  '\\\\evil.example\\x',
  '/\\evil.example/x',
  '/api/f/f1%2f..%2fx',
  '/api/f/f1%5c..',
  'api/f/f1',
  '',
  ' /api',
  '/api\n/x',
];

test('8: every escaping Href is refused as a link, and parseHref reads none of them', () => {
  for (const href of escaping) {
    assert.ok(leavesBase(href), `${JSON.stringify(href)} is refused`);
    assert.equal(parseHref(href), undefined, JSON.stringify(href));
  }
  for (const href of ['/api', '/api/f/f1', '/api/f/f1/inputscanners/k1/notes?x=1', '/api/f/a.b/people/..x', '/api/f/%2ea']) {
    assert.ok(!leavesBase(href), `${href} stays`);
  }
});

test('8: the HTTP layer refuses each such path before anything is sent, below a base path too', async () => {
  const srv = await server((_req, res) => res.end('{}'));
  try {
    const http = createHttp({ baseUrl: `${srv.url}/base/`, token: () => 'a-token-for-base-only' });
    for (const path of escaping) {
      const e = await apiError(http({ method: 'DELETE', path }));
      assert.equal(e.kind, 'validation', `${JSON.stringify(path)}: ${e.message}`);
      assert.match(e.message, /^Refused before sending: the path .* would leave http:\/\/127\.0\.0\.1:\d+\/base$/);
    }
    assert.deepEqual(srv.seen, [], 'nothing reached the server');
    await http({ method: 'GET', path: '/api/f/f1' });
    assert.deepEqual(srv.seen, ['GET /base/api/f/f1'], 'a path inside the base goes out');
  } finally {
    await srv.close();
  }
});

test('8: a DELETE of `/api/f/<folder>/engagesites/..` is refused and deletes nothing in the sandbox', async () => {
  const client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
  const before = await client.folder(sb.instanceKey);
  const sites = (await client.list(kind('engageSite'), sb.instanceKey)).items.length;
  for (const tail of ['..', '%2e%2e', '.%2E']) {
    const e = await apiError(client.http({ method: 'DELETE', path: `/api/f/${sb.instanceKey}/engagesites/${tail}` }));
    assert.equal(e.kind, 'validation');
  }
  assert.deepEqual(await client.folder(sb.instanceKey), before, 'the instance folder is still there');
  assert.equal((await client.list(kind('engageSite'), sb.instanceKey)).items.length, sites);
});

// --- 9. What the client writes is the user's only ------------------------------------------------

test('9: the failed-people file is 0600, whatever the umask', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'oms-sec-'));
  const old = process.umask(0);
  try {
    const person = { CommonName: 'Ada Lovelace', GivenName: 'Ada', Surname: 'Lovelace' } as PersonInfo;
    const file = await writeFailedFile(join(dir, 'people.csv'), [person]);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const again = await writeFailedFile(join(dir, 'people.csv'), [person], new Date(0));
    assert.equal(statSync(again).mode & 0o777, 0o600);
  } finally {
    process.umask(old);
    rmSync(dir, { recursive: true, force: true });
  }
});
