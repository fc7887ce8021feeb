/**
 * The `oms` command line, built (dist/oms.cjs) and run as a child process against a real sandbox:
 * pull, edit, plan (Markdown, exit codes), apply (exactly the planned writes, over REST), the saved
 * plan round trip, and every refusal before anything is sent. The token never shows in any output.
 */
import { test, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BaseInfo, InputScannerInfo } from '../../../src/model/types';
import { Api, start } from '../sandbox/harness';
import { allOutput, buildOms, oms, OmsRun } from './oms';

const token = 'cli-test-token-7f3a9c1e5b';
let api: Api;
let warehouse: string;
let root: string;
/** Requests the sandbox served, as "METHOD /path status" lines. */
let served: string[] = [];
const env = () => ({ OMS_TOKEN: token, OMS_URL: api.sb.url });

before(async () => {
  buildOms();
  api = await start({ seed: 'demo', token, log: (line) => served.push(line) });
  warehouse = (await api.folder('Warehouse')).Key;
});
after(() => api.sb.close());
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-cli-'));
});
afterEach(() => fs.rm(root, { recursive: true, force: true }));

const ok = (run: OmsRun, code = 0) => assert.equal(run.code, code, `exit ${run.code}\nstdout: ${run.out}\nstderr: ${run.err}`);

async function pullWarehouse(...more: string[]): Promise<void> {
  ok(await oms(['pull', root, '--url', api.sb.url, '--folder', warehouse, '--kinds', 'inputScanner,person,engageSite', ...more], { env: env() }));
}

/** The pulled files of a collection, relative to root. */
async function filesOf(collection: string): Promise<string[]> {
  const manifest = JSON.parse(await fs.readFile(path.join(root, 'oms.manifest.json'), 'utf8')) as { objects: Record<string, { path: string }> };
  return Object.values(manifest.objects)
    .map((o) => o.path)
    .filter((p) => p.includes(`/${collection}/`))
    .sort();
}

async function edit<T extends BaseInfo>(rel: string, change: (o: T) => void): Promise<T> {
  const o = JSON.parse(await fs.readFile(path.join(root, rel), 'utf8')) as T;
  change(o);
  await fs.writeFile(path.join(root, rel), JSON.stringify(o, null, 2) + '\n');
  return o;
}

async function live(collection: string, key: string): Promise<BaseInfo> {
  return (await api.get(`/api/f/${warehouse}/${collection}/${key}`)).body as BaseInfo;
}

const writes = () => served.filter((l) => /^(PUT|POST|DELETE) /.test(l));

test('pull, edit three files, plan --detailed-exitcode exits 2 with Markdown naming them, apply sends exactly those, plan again exits 0', async () => {
  await pullWarehouse();
  const [s1, s2] = await filesOf('inputscanners');
  const [p1] = await filesOf('people');
  const a = await edit<InputScannerInfo>(s1, (o) => {
    o.NonSettlingErrorPriority = o.NonSettlingErrorPriority === 4 ? 5 : 4;
  });
  const b = await edit<InputScannerInfo>(s2, (o) => {
    o.CommonName = `${o.CommonName} (moved)`;
  });
  const c = await edit(p1, (o) => {
    o.Surname = 'Changed-By-CLI';
  });

  const plan = await oms(['plan', root, '--detailed-exitcode', '--format', 'markdown'], { env: env() });
  ok(plan, 2);
  assert.match(plan.out, /\*\*0 to create · 3 to update · 0 to delete · \d+ unchanged\*\*/);
  assert.match(plan.out, /#### Input scanners \(2\)/);
  assert.match(plan.out, /#### People \(1\)/);
  for (const label of [a.CommonName, b.CommonName, c.CommonName]) assert.ok(plan.out.includes(`| update | \`${label}\` |`), `${label} in\n${plan.out}`);
  assert.match(plan.out, /`\/NonSettlingErrorPriority`: `\d` → `\d`/);
  assert.ok(plan.out.includes('`/Surname`: '), plan.out);
  assert.ok(plan.out.includes('→ `"Changed-By-CLI"`'), plan.out);

  served = [];
  const apply = await oms(['apply', root, '--auto-approve'], { env: env() });
  ok(apply);
  assert.match(apply.out, /Applied 3 · unchanged 0 · stale 0 · failed 0 · not sent 0/);
  assert.ok(!`${apply.out}${apply.err}`.includes('Applied 3 of 3'), 'no progress lines without a terminal');
  const puts = writes();
  assert.equal(puts.length, 3, puts.join('\n'));
  assert.ok(
    puts.every((l) => l.startsWith('PUT ')),
    puts.join('\n'),
  );
  assert.equal(((await live('inputscanners', a.Key!)) as InputScannerInfo).NonSettlingErrorPriority, a.NonSettlingErrorPriority);
  assert.equal((await live('inputscanners', b.Key!)).CommonName, b.CommonName);
  assert.equal((await live('people', c.Key!)).Surname, 'Changed-By-CLI');

  ok(await oms(['plan', root, '--detailed-exitcode'], { env: env() }), 0);
  const json = await oms(['plan', root, '--format', 'json'], { env: env() });
  ok(json);
  assert.deepEqual((JSON.parse(json.out) as { entries: unknown[] }).entries, []);
});

test('a saved plan (--out) is applied later; an entry whose file moved since is refused, the rest is sent', async () => {
  await pullWarehouse();
  const [s1, s2] = await filesOf('inputscanners');
  await edit(s1, (o) => {
    o.CommonName = 'Planned A';
  });
  const moved = await edit(s2, (o) => {
    o.CommonName = 'Planned B';
  });
  const planFile = path.join(root, 'plan.json');
  ok(await oms(['plan', root, '--out', planFile], { env: env() }));
  const saved = JSON.parse(await fs.readFile(planFile, 'utf8')) as { format: number; entries: Array<{ action: string; selected: boolean }> };
  assert.equal(saved.format, 1);
  assert.deepEqual(
    saved.entries.map((e) => [e.action, e.selected]),
    [
      ['update', true],
      ['update', true],
    ],
  );
  await edit(s2, (o) => {
    o.CommonName = 'Edited after the plan';
  });

  served = [];
  const apply = await oms(['apply', root, planFile, '--auto-approve'], { env: env() });
  ok(apply, 2);
  assert.match(apply.out, /Applied 1 · .* not sent 1/);
  assert.match(apply.out, /The file changed since the plan: plan again/);
  assert.equal(writes().length, 1);
  assert.notEqual((await live('inputscanners', moved.Key!)).CommonName, 'Edited after the plan');
  assert.notEqual((await live('inputscanners', moved.Key!)).CommonName, 'Planned B');
});

test('deletes: refused unless --deletes gives their count, nothing sent; then deleted', async () => {
  await pullWarehouse();
  const [p1] = await filesOf('people');
  const key = p1.split('.').slice(-2, -1)[0];
  await fs.rm(path.join(root, p1));
  served = [];
  for (const args of [[], ['--deletes', '2']]) {
    const refused = await oms(['apply', root, '--auto-approve', ...args], { env: env() });
    ok(refused, 1);
    assert.match(refused.err, /The plan deletes 1 object and --deletes says \d: give --deletes 1 to apply it\. Nothing was sent\./);
  }
  assert.equal(writes().length, 0);
  assert.equal((await api.get(`/api/f/${warehouse}/people/${key}`)).status, 200);
  ok(await oms(['apply', root, '--auto-approve', '--deletes', '1'], { env: env() }));
  assert.equal((await api.get(`/api/f/${warehouse}/people/${key}`)).status, 404);
});

test('production (recorded in the manifest by the pull) needs --yes-production; no terminal and no --auto-approve refuses at once', async () => {
  await pullWarehouse('--production');
  const manifest = JSON.parse(await fs.readFile(path.join(root, 'oms.manifest.json'), 'utf8')) as { connection: { production?: boolean } };
  assert.equal(manifest.connection.production, true);
  const [s1] = await filesOf('inputscanners');
  const edited = await edit<InputScannerInfo>(s1, (o) => {
    o.CommonName = 'Production edit';
  });
  served = [];
  const refused = await oms(['apply', root, '--auto-approve'], { env: env() });
  ok(refused, 1);
  assert.match(refused.err, /production connection .*--yes-production/);
  // A standard input that stays open and never answers: the refusal must not wait on it.
  const noTerminal = await oms(['apply', root, '--yes-production'], { env: env(), stdinOpen: true });
  ok(noTerminal, 1);
  assert.match(noTerminal.err, /No terminal to ask for a yes: run with --auto-approve/);
  assert.ok(noTerminal.ms < 10_000, `${noTerminal.ms} ms`);
  assert.equal(served.length, 0, served.join('\n'));
  ok(await oms(['apply', root, '--auto-approve', '--yes-production'], { env: env() }));
  assert.equal((await live('inputscanners', edited.Key!)).CommonName, 'Production edit');
});

test('secrets are masked in the Markdown, the JSON and the saved plan; diff shows one object', async () => {
  await pullWarehouse();
  const [site] = await filesOf('engagesites');
  const newKey = Buffer.from('a new site key, secret').toString('base64');
  await edit(site, (o) => {
    o.SiteKeyBase64 = newKey;
  });
  const planFile = path.join(root, 'plan.json');
  const md = await oms(['plan', root, '--format', 'markdown', '--out', planFile], { env: env() });
  ok(md);
  assert.ok(md.out.includes('`/SiteKeyBase64`: '), md.out);
  assert.ok(md.out.includes('`"(secret)"`'), md.out);
  const json = await oms(['plan', root, '--format', 'json'], { env: env() });
  const diff = await oms(['diff', root, site], { env: env() });
  ok(diff, 2);
  assert.match(diff.out, /^\/SiteKeyBase64: .* -> "\(secret\)"$/m);
  const apply = await oms(['apply', root, '--auto-approve'], { env: env() });
  ok(apply);
  assert.match(apply.out, /\/SiteKeyBase64: .* -> "\(secret\)"/);
  for (const text of [md.out, json.out, diff.out, apply.out, apply.err, await fs.readFile(planFile, 'utf8')]) assert.ok(!text.includes(newKey), text);
  assert.ok(!(await fs.readFile(path.join(root, site), 'utf8')).includes(newKey), 'the applied file holds the placeholder again');
  ok(await oms(['diff', root, site], { env: env() }), 0);
});

test("bad input: exit 1 with the editor's words; help and version", async () => {
  const cases: Array<[string[], RegExp, Record<string, string>?]> = [
    [['plan', path.join(root, 'missing')], /is not a folder/],
    [['plan', root], /holds no oms\.manifest\.json: pull into it first/],
    [['plan', root, '--format', 'yaml'], /--format takes text, markdown or json/],
    [['frobnicate'], /Unknown command frobnicate/],
    [['plan'], /wrong number of arguments/],
  ];
  for (const [args, message, extra] of cases) {
    const run = await oms(args, { env: { ...env(), ...extra } });
    ok(run, 1);
    assert.match(run.err, message);
  }
  await pullWarehouse();
  ok(await oms(['plan', root], { env: { OMS_URL: api.sb.url } }), 1);
  const [s1] = await filesOf('inputscanners');
  await fs.writeFile(path.join(root, s1), '{ "CommonName": ');
  const invalid = await oms(['plan', root, '--detailed-exitcode'], { env: env() });
  ok(invalid, 1);
  assert.match(invalid.out, /The file is not valid JSON/);
  const manifestFile = path.join(root, 'oms.manifest.json');
  const manifest = await fs.readFile(manifestFile, 'utf8');
  await fs.writeFile(manifestFile, manifest.replace(api.instanceKey, '0123456789abcdef01234567'));
  const other = await oms(['plan', root], { env: env() });
  ok(other, 1);
  assert.match(other.err, /This folder was pulled from .*instance 0123456789abcdef01234567.*not from/);
  await fs.writeFile(manifestFile, '{ broken');
  const broken = await oms(['plan', root], { env: env() });
  ok(broken, 1);
  assert.match(broken.err, /oms\.manifest\.json is not valid JSON .*restore it from git/);
  await fs.writeFile(manifestFile, manifest);
  const pinned = await oms(['plan', root], { env: { ...env(), OMS_URL: 'https://oms.example.com' } });
  ok(pinned, 1);
  assert.match(
    pinned.err,
    /oms\.manifest\.json names http:\/\/127\.0\.0\.1:\d+, but OMS_URL names https:\/\/oms\.example\.com: refused before anything was sent/,
  );

  const tokenFile = path.join(root, 'token.txt');
  await fs.writeFile(tokenFile, `${token}\n`);
  ok(await oms(['plan', root, '--token-file', tokenFile], { env: { OMS_URL: api.sb.url } }), 1); // the invalid file is still there
  const wrong = await oms(['plan', root], { env: { OMS_TOKEN: `${token}-wrong`, OMS_URL: api.sb.url } });
  ok(wrong, 1);
  assert.ok(!wrong.err.includes(`${token}-wrong`), wrong.err);

  for (const command of ['pull', 'plan', 'apply', 'diff']) {
    const help = await oms([command, '--help']);
    ok(help);
    assert.match(help.out, new RegExp(`^Usage: oms ${command} `));
    assert.match(help.out, /OMS_TOKEN/);
  }
  const version = await oms(['--version']);
  ok(version);
  const { version: expected } = JSON.parse(await fs.readFile(path.join(__dirname, '../../../package.json'), 'utf8')) as { version: string };
  assert.equal(version.out, `oms ${expected}\n`);
});

test('the token never appeared in any output of any run', () => {
  assert.ok(allOutput.length > 20);
  for (const text of allOutput) assert.ok(!text.includes(token), text);
});
