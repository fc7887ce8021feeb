import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, ChildProcess } from 'node:child_process';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const cli = path.join(root, 'src/sandbox/cli.ts');

function run(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
}

function collect(child: ChildProcess): { out: () => string; err: () => string; exit: Promise<number | null> } {
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { err += d; });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { out: () => out, err: () => err, exit };
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

test('cli: prints one line with url, instance and token; serves; SIGTERM closes cleanly', async () => {
  const child = run(['--port', '0', '--seed', 'empty', '--token', 'cli-token', '--verbose']);
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
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password&username=Demo%20Instance%5Cadmin&password=admin',
    });
    assert.equal(form.status, 200, 'default user admin / admin');
  } finally {
    child.kill('SIGTERM');
  }
  assert.equal(await io.exit, 0);
  assert.equal(io.out().trim().split('\n').length, 1, 'exactly one line on stdout');
  assert.match(io.err(), /GET \/api 200/);
  assert.ok(!io.err().includes('cli-token'), 'the token is never logged');
});

test('cli: a random token by default, --help, and bad flags exit 2', async () => {
  const child = run(['--port', '0', '--seed', 'empty', '--user', 'ops', '--password', 'pw']);
  const io = collect(child);
  try {
    const m = linePattern.exec(await firstLine(io.out));
    assert.ok(m);
    assert.ok(m[3].length >= 20);
    const form = await fetch(`${m[1]}/token`, {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password&username=ops&password=pw',
    });
    assert.equal(form.status, 200);
  } finally {
    child.kill('SIGINT');
  }
  assert.equal(await io.exit, 0);
  assert.equal(io.err(), '', 'quiet without --verbose');

  const help = collect(run(['--help']));
  assert.equal(await help.exit, 0);
  assert.match(help.out(), /--data <file>/);

  for (const args of [['--bogus'], ['--seed', 'lots'], ['--port', 'x']]) {
    const bad = collect(run(args));
    assert.equal(await bad.exit, 2, args.join(' '));
    assert.match(bad.err(), /Usage/);
  }
});
