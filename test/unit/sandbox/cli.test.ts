import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';

const root = path.resolve(__dirname, '../../..');
const cli = path.join(root, 'src/sandbox/cli.ts');

function run(args: string[], env: Record<string, string> = {}): ChildProcess {
  const clean = { ...process.env };
  delete clean.OMS_SANDBOX_TOKEN;
  delete clean.OMS_SANDBOX_PASSWORD;
  return spawn(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...clean, ...env } });
}

function collect(child: ChildProcess): { child: ChildProcess; out: () => string; err: () => string; exit: Promise<number | null> } {
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    err += d;
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exit };
}

async function firstLine(get: () => string, timeoutMs = 20000): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (!get().includes('\n')) {
    if (Date.now() > until) throw new Error('no line from the CLI');
    await new Promise((r) => setTimeout(r, 50));
  }
  return get().split('\n')[0];
}

const linePattern = /^OMS sandbox listening on (http:\/\/127\.0\.0\.1:\d+) instance=([0-9a-f]{24}) token=(\S+)$/;
const quietPattern = /^OMS sandbox listening on (http:\/\/127\.0\.0\.1:\d+) instance=([0-9a-f]{24})$/;

test('cli: token from OMS_SANDBOX_TOKEN, printed only with --print-token; serves; SIGTERM closes cleanly', async () => {
  const child = run(['--port', '0', '--seed', 'empty', '--print-token', '--verbose'], { OMS_SANDBOX_TOKEN: 'cli-token' });
  const io = collect(child);
  try {
    const line = await firstLine(io.out);
    const m = linePattern.exec(line);
    assert.ok(m, line);
    const [, url, instance, token] = m;
    assert.equal(token, 'cli-token');
    const res = await fetch(`${url}/api`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { Key: string }).Key, instance);
    const form = await fetch(`${url}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password&username=Demo%20Instance%5Cadmin&password=admin',
    });
    assert.equal(form.status, 400, 'no default password: without one the password grant is refused');
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal(await io.exit, 0);
  assert.equal(io.out().trim().split('\n').length, 1, 'exactly one line on stdout');
  assert.match(io.err(), /GET \/api 200/);
  assert.ok(!io.err().includes('cli-token'), 'the token is never logged');
});

test(
  'cli: a random token by default, not printed unless asked; --token-file; --token warns; ' +
    'the password from the environment or a file; --help; bad flags exit 2',
  async () => {
    const printed = collect(run(['--port', '0', '--seed', 'empty', '--print-token']));
    const random = linePattern.exec(await firstLine(printed.out));
    assert.ok(random && random[3].length >= 20);
    const dir = await mkdtemp(path.join(tmpdir(), 'oms-cli-'));
    const tokenFile = path.join(dir, 'token');
    await writeFile(tokenFile, 'file-token\n', { mode: 0o600 });
    const fromFile = collect(run(['--port', '0', '--seed', 'empty', '--token-file', tokenFile]));
    const deprecated = collect(run(['--port', '0', '--seed', 'empty', '--token', 'flag-token']));
    try {
      const [, fileUrl] = quietPattern.exec(await firstLine(fromFile.out)) ?? [];
      assert.ok(fileUrl, 'no token on the line without --print-token');
      assert.equal((await fetch(`${fileUrl}/api`, { headers: { Authorization: 'Bearer file-token' } })).status, 200);
      const [, flagUrl] = quietPattern.exec(await firstLine(deprecated.out)) ?? [];
      assert.equal((await fetch(`${flagUrl}/api`, { headers: { Authorization: 'Bearer flag-token' } })).status, 200);
      assert.match(deprecated.err(), /--token shows the token to every local user/);
    } finally {
      for (const c of [printed, fromFile, deprecated]) c.child.kill('SIGTERM');
      await Promise.all([printed.exit, fromFile.exit, deprecated.exit]);
      await rm(dir, { recursive: true, force: true });
    }

    // The password: from the environment, or a file, never needed on the command line.
    const passwordDir = await mkdtemp(path.join(tmpdir(), 'oms-cli-pw-'));
    const passwordFile = path.join(passwordDir, 'password');
    await writeFile(passwordFile, 'from-file\n', { mode: 0o600 });
    for (const [args, env, password] of [
      [['--user', 'ops'], { OMS_SANDBOX_PASSWORD: 'pw' }, 'pw'],
      [['--user', 'ops', '--password-file', passwordFile], {}, 'from-file'],
    ] as const) {
      const io = collect(run(['--port', '0', '--seed', 'empty', ...args], env));
      try {
        const m = quietPattern.exec(await firstLine(io.out));
        assert.ok(m);
        const grant = (pw: string) =>
          fetch(`${m[1]}/token`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: `grant_type=password&username=ops&password=${pw}`,
          });
        assert.equal((await grant(password)).status, 200, args.join(' '));
        assert.equal((await grant('wrong')).status, 400, 'a wrong password is refused');
      } finally {
        io.child.kill('SIGINT');
      }
      assert.equal(await io.exit, 0);
      assert.equal(io.err(), '', 'quiet without --verbose');
    }
    await rm(passwordDir, { recursive: true, force: true });
    const shown = collect(run(['--port', '0', '--seed', 'empty', '--password', 'pw']));
    await firstLine(shown.out);
    shown.child.kill('SIGINT');
    await shown.exit;
    assert.match(shown.err(), /--password shows the password to every local user/);

    const help = collect(run(['--help']));
    assert.equal(await help.exit, 0);
    assert.match(help.out(), /--data <file>/);

    for (const args of [['--bogus'], ['--seed', 'lots'], ['--port', 'x']]) {
      const bad = collect(run(args));
      assert.equal(await bad.exit, 2, args.join(' '));
      assert.match(bad.err(), /Usage/);
    }
  },
);
