/**
 * The demo window's terminal (npm start, scripts/demoTerminal.ts): with only the settings the demo
 * writes, a shell in the demo workspace runs `oms` as README shows, against the demo sandbox, with no
 * token copied by hand; the token is in no setting and in a file only the user can read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { demoTerminal } from '../../../scripts/demoTerminal';
import { start } from '../sandbox/harness';
import { buildOms, repo } from './oms';

test('the demo terminal: `oms pull` then `oms plan` in the demo workspace reach the demo sandbox; the token is in no setting', async () => {
  buildOms();
  const token = 'demo-terminal-token-5e1d';
  const api = await start({ seed: 'demo', token });
  const home = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-demo-'));
  try {
    const workspace = path.join(home, 'workspace');
    await fs.mkdir(workspace);
    const settings = demoTerminal(home, repo, { url: api.sb.url, token, instance: api.instanceKey });
    const text = JSON.stringify(settings);
    assert.ok(!text.includes(token), 'no token in the settings');
    assert.equal((await fs.stat(path.join(home, 'sandbox-token'))).mode & 0o077, 0, "the token file is the user's alone");
    assert.ok(!(await fs.readFile(path.join(home, 'bin', 'oms'), 'utf8')).includes(token), 'no token in the wrapper');

    // The terminal's environment as VS Code makes it: the setting's values, ${env:NAME} from its own.
    const base: Record<string, string | undefined> = { ...process.env };
    for (const name of ['OMS_TOKEN', 'OMS_URL', 'OMS_SANDBOX_TOKEN', 'OMS_SANDBOX_URL', 'OMS_SANDBOX_INSTANCE']) delete base[name];
    const termEnv = { ...base };
    for (const [name, value] of Object.entries(settings['terminal.integrated.env.linux'] as Record<string, string>)) {
      termEnv[name] = value.replace(/\$\{env:(\w+)\}/g, (_, n: string) => base[n] ?? '');
    }
    // Not spawnSync: the sandbox answers on this thread.
    const shell = (line: string) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile('sh', ['-c', line], { cwd: workspace, env: termEnv, encoding: 'utf8', timeout: 60_000 }, (e, stdout, stderr) =>
          resolve({ status: e ? (typeof e.code === 'number' ? e.code : null) : 0, stdout, stderr }),
        );
      });
    const pull = await shell('oms pull oms/demo --folder "$OMS_SANDBOX_INSTANCE" --kinds inputScanner');
    assert.equal(pull.status, 0, `${pull.stdout}\n${pull.stderr}`);
    const plan = await shell('oms plan oms/demo');
    assert.equal(plan.status, 0, `${plan.stdout}\n${plan.stderr}`);
    assert.match(plan.stdout, /no changes|nothing to/i);
    const readme = await shell('oms --help');
    assert.equal(readme.status, 0, readme.stderr);
    for (const out of [pull, plan]) assert.ok(!`${out.stdout}${out.stderr}`.includes(token), 'the token is never printed');

    // The token goes to the demo sandbox only: a folder naming another service is refused before anything is sent.
    const elsewhere = await shell('oms pull other --url http://127.0.0.1:9 --folder x');
    assert.notEqual(elsewhere.status, 0);
    assert.match(elsewhere.stderr, /Nothing was sent/);
  } finally {
    await api.sb.close();
    await fs.rm(home, { recursive: true, force: true });
  }
});
