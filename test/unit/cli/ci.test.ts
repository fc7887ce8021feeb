/**
 * docs/ci.md's GitHub Actions workflow, its steps run as shell commands (bash, as the runner does)
 * against a sandbox: the plan job on a pull request, the apply job after the merge, the plan job again.
 * `gh` and `git` are stand-ins on PATH that record their arguments (and the comment's body).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Api, start } from '../sandbox/harness';
import { buildOms, oms, omsFile, repo } from './oms';
import { Step, stepsOf, workflowOf } from './workflowSteps';

const token = 'ci-test-token-3e8d0b2a91';
let api: Api;
let work: string;

before(async () => {
  buildOms();
  api = await start({ seed: 'demo', token });
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-ci-'));
});
after(async () => {
  await api.sb.close();
  await fs.rm(work, { recursive: true, force: true });
});

test('docs/ci.md: the GitHub Actions steps plan on a pull request (comment posted), apply after the merge, then nothing left', async () => {
  const workflow = workflowOf(await fs.readFile(path.join(repo, 'docs', 'ci.md'), 'utf8'), 'GitHub Actions');
  const checkout = path.join(work, 'checkout');
  const folder = path.join(checkout, 'oms', 'production');
  const warehouse = (await api.folder('Warehouse')).Key;
  const pulled = await oms(['pull', folder, '--url', api.sb.url, '--folder', warehouse, '--kinds', 'inputScanner'], { env: { OMS_TOKEN: token } });
  assert.equal(pulled.code, 0, pulled.err);
  // As a checkout has it: the committed files and the command line, no local cache.
  await fs.rm(path.join(folder, '.oms'), { recursive: true });
  await fs.mkdir(path.join(checkout, 'tools'));
  await fs.copyFile(omsFile, path.join(checkout, 'tools', 'oms.cjs'));
  const bin = path.join(work, 'bin');
  await fs.mkdir(bin);
  const calls = path.join(work, 'calls.txt');
  for (const tool of ['gh', 'git']) {
    const script = `#!/bin/sh\necho "${tool} $*" >> "${calls}"\n[ "$1" = pr ] && cat plan.md > "${work}/comment.md"\n[ "$1" = diff ] && exit 1\nexit 0\n`;
    await fs.writeFile(path.join(bin, tool), script, { mode: 0o755 });
  }

  const manifest = JSON.parse(await fs.readFile(path.join(folder, 'oms.manifest.json'), 'utf8')) as { objects: Record<string, { path: string }> };
  const [key, { path: rel }] = Object.entries(manifest.objects)[0];
  const file = path.join(folder, rel);
  const scanner = JSON.parse(await fs.readFile(file, 'utf8')) as { CommonName: string };
  await fs.writeFile(file, JSON.stringify({ ...scanner, CommonName: 'Renamed in a pull request' }, null, 2) + '\n');

  const expressions: Record<string, string> = {
    '${{ secrets.OMS_PLAN_TOKEN }}': token, '${{ secrets.OMS_TOKEN }}': token, '${{ github.token }}': 'gh-token',
    '${{ github.event.pull_request.number }}': '7', "${{ inputs.deletes || '0' }}": '0',
  };
  const runJob = async (job: string) => {
    const output = path.join(work, `${job}-output.txt`);
    await fs.writeFile(output, '');
    const outputs: Record<string, string> = {};
    for (const step of stepsOf(workflow, job)) {
      if (!shouldRun(step, outputs)) continue;
      const env: Record<string, string> = { PATH: `${bin}:${process.env.PATH}`, HOME: work, GITHUB_OUTPUT: output, OMS_URL: api.sb.url };
      for (const [name, value] of Object.entries(step.env)) {
        if (!(value in expressions)) throw new Error(`${step.name}: no value for ${value}`);
        env[name] = expressions[value];
      }
      const run = await bash(step.run, checkout, env);
      assert.equal(run.status, 0, `${job} / ${step.name} exited ${run.status}\n${run.stdout}\n${run.stderr}`);
      assert.ok(!`${run.stdout}${run.stderr}`.includes(token), 'the token is never printed');
      for (const line of (await fs.readFile(output, 'utf8')).split('\n')) {
        const [name, value] = line.split('=');
        if (value !== undefined) outputs[`steps.plan.outputs.${name}`] = value;
      }
    }
    return outputs;
  };

  const planned = await runJob('plan');
  assert.equal(planned['steps.plan.outputs.exitcode'], '2');
  const comment = await fs.readFile(path.join(work, 'comment.md'), 'utf8');
  assert.match(comment, /\| update \| `Renamed in a pull request` \|/);
  const artifact = JSON.parse(await fs.readFile(path.join(checkout, 'plan.json'), 'utf8')) as { entries: Array<{ action: string; label: string }> };
  assert.deepEqual(artifact.entries.map((e) => [e.action, e.label]), [['update', 'Renamed in a pull request']], 'the whole plan, kept as the job\'s artifact');
  assert.match(await fs.readFile(calls, 'utf8'), /^gh pr comment 7 --body-file plan\.md --edit-last$/m);

  await runJob('apply');
  assert.equal(((await api.get(`/api/f/${warehouse}/inputscanners/${key}`)).body as { CommonName: string }).CommonName, 'Renamed in a pull request');
  assert.match(await fs.readFile(calls, 'utf8'), /^git add oms\/production$/m);
  assert.match(await fs.readFile(calls, 'utf8'), /^git commit -m oms apply: versions after the run \[skip ci\]$/m);

  await fs.rm(path.join(work, 'comment.md'));
  const again = await runJob('plan');
  assert.equal(again['steps.plan.outputs.exitcode'], '0');
  await assert.rejects(fs.stat(path.join(work, 'comment.md')), 'no comment without changes');
});

/** A step's commands, as the runner runs them (the sandbox serves from this process: never a synchronous spawn). */
function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-e', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) => child.on('close', (status) => {
    clearTimeout(timer);
    resolve({ status, stdout, stderr });
  }));
}

/** The workflow's `if:` of a step, for the two forms it uses. */
function shouldRun(step: Step, outputs: Record<string, string>): boolean {
  if (!step.if || step.if === 'always()') return true;
  const m = /^steps\.plan\.outputs\.(\w+) == '(.*)'$/.exec(step.if);
  if (!m) throw new Error(`unknown condition ${step.if}`);
  return outputs[`steps.plan.outputs.${m[1]}`] === m[2];
}
