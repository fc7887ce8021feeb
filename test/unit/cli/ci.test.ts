/**
 * docs/ci.md's pipelines, run as shell commands (bash, as the runners do) against a sandbox: the GitHub
 * Actions workflow's steps and the GitLab jobs' scripts, the plan job on a pull (merge) request, the
 * apply job after the merge, the plan job again; and a pull request that points the manifest at
 * another URL. `gh`, `git` and `curl` are stand-ins on PATH that record their arguments (and the
 * comment's body).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Api, start } from '../sandbox/harness';
import { buildOms, oms, omsFile, repo } from './oms';
import { gitlabScript, Step, stepsOf, workflowEnv, workflowOf } from './workflowSteps';

const token = 'ci-test-token-3e8d0b2a91';
let api: Api;
let work: string;
let warehouse: string;
let ciMarkdown: string;
/** Another service, as a pull request might name it: every request it gets, with whether it carried a token. */
let stranger: Server;
let strangerUrl: string;
const strangerHeard: string[] = [];

before(async () => {
  buildOms();
  api = await start({ seed: 'demo', token });
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-ci-'));
  warehouse = (await api.folder('Warehouse')).Key;
  ciMarkdown = await fs.readFile(path.join(repo, 'docs', 'ci.md'), 'utf8');
  stranger = createServer((req, res) => {
    strangerHeard.push(`${req.method} ${req.url} ${req.headers.authorization ? 'with a token' : 'without a token'}`);
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"Message":"not here"}');
  });
  await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
  strangerUrl = `http://127.0.0.1:${(stranger.address() as AddressInfo).port}`;
});
after(async () => {
  await api.sb.close();
  await new Promise((resolve) => stranger.close(resolve));
  await fs.rm(work, { recursive: true, force: true });
});

interface Checkout {
  /** The repository's working tree, where the jobs run. */
  dir: string;
  folder: string;
  /** What the stand-ins were called with, one line each. */
  calls: string;
  /** The body of the comment posted (gh or curl), when one was. */
  comment: string;
  bin: string;
}

/** A repository as a checkout has it: a folder pulled by `oms pull` without its `.oms/` cache, and tools/oms.cjs. */
async function checkout(name: string): Promise<Checkout> {
  const dir = path.join(work, name, 'checkout');
  const folder = path.join(dir, 'oms', 'production');
  const pulled = await oms(['pull', folder, '--url', api.sb.url, '--folder', warehouse, '--kinds', 'inputScanner'], {
    env: { OMS_TOKEN: token, OMS_URL: api.sb.url },
  });
  assert.equal(pulled.code, 0, pulled.err);
  await fs.rm(path.join(folder, '.oms'), { recursive: true });
  await fs.mkdir(path.join(dir, 'tools'));
  await fs.copyFile(omsFile, path.join(dir, 'tools', 'oms.cjs'));
  const bin = path.join(work, name, 'bin');
  await fs.mkdir(bin);
  const calls = path.join(work, name, 'calls.txt');
  const comment = path.join(work, name, 'comment.md');
  const stand = (tool: string, more: string) =>
    fs.writeFile(path.join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> "${calls}"\n${more}exit 0\n`, { mode: 0o755 });
  await stand('gh', `[ "$1" = pr ] && cat plan.md > "${comment}"\n`);
  await stand('git', '[ "$1" = diff ] && exit 1\n');
  await stand('curl', `for a in "$@"; do case "$a" in body@*) cat "\${a#body@}" > "${comment}";; esac; done\n`);
  return { dir, folder, calls, comment, bin };
}

/** Renames the first scanner in its file, as a pull request does; its Key. */
async function renameOne(co: Checkout, name: string): Promise<string> {
  const manifest = JSON.parse(await fs.readFile(path.join(co.folder, 'oms.manifest.json'), 'utf8')) as { objects: Record<string, { path: string }> };
  const [key, { path: rel }] = Object.entries(manifest.objects)[0];
  const file = path.join(co.folder, rel);
  const scanner = JSON.parse(await fs.readFile(file, 'utf8')) as object;
  await fs.writeFile(file, JSON.stringify({ ...scanner, CommonName: name }, null, 2) + '\n');
  return key;
}

async function liveName(key: string): Promise<string> {
  return ((await api.get(`/api/f/${warehouse}/inputscanners/${key}`)).body as { CommonName: string }).CommonName;
}

interface Ran {
  name: string;
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A GitHub Actions job: each step with a `run:`, in order, as the runner runs it (a step after a failed one only
 * with `if: always()`); `vars`: the repository's variables (`vars.OMS_URL`; missing: empty, as GitHub gives it).
 */
async function githubJob(co: Checkout, job: string, vars: Record<string, string>): Promise<{ outputs: Record<string, string>; ran: Ran[] }> {
  const workflow = workflowOf(ciMarkdown, 'GitHub Actions');
  const expressions: Record<string, string> = {
    '${{ secrets.OMS_PLAN_TOKEN }}': token,
    '${{ secrets.OMS_TOKEN }}': token,
    '${{ github.token }}': 'gh-token',
    '${{ github.event.pull_request.number }}': '7',
    "${{ inputs.deletes || '0' }}": '0',
    '${{ vars.OMS_URL }}': vars.OMS_URL ?? '',
  };
  const evaluate = (env: Record<string, string>, into: Record<string, string>, where: string) => {
    for (const [name, value] of Object.entries(env)) {
      if (!(value in expressions)) throw new Error(`${where}: no value for ${value}`);
      into[name] = expressions[value];
    }
  };
  const output = path.join(co.dir, '..', `${job}-output.txt`);
  await fs.writeFile(output, '');
  const outputs: Record<string, string> = {};
  const ran: Ran[] = [];
  for (const step of stepsOf(workflow, job)) {
    if (
      !shouldRun(
        step,
        outputs,
        ran.some((r) => r.status !== 0),
      )
    )
      continue;
    const env: Record<string, string> = { PATH: `${co.bin}:${process.env.PATH}`, HOME: co.dir, GITHUB_OUTPUT: output };
    evaluate(workflowEnv(workflow), env, 'env');
    evaluate(step.env, env, step.name);
    ran.push({ name: step.name, ...(await bash(['-e', '-c', step.run], co.dir, env)) });
    for (const line of (await fs.readFile(output, 'utf8')).split('\n')) {
      const [name, value] = line.split('=');
      if (value !== undefined) outputs[`steps.plan.outputs.${name}`] = value;
    }
  }
  return { outputs, ran };
}

/** A GitLab job: its script in one shell (stopping at the first failing line, as the runner does), then its after_script in another. */
async function gitlabJob(co: Checkout, job: string, variables: Record<string, string>): Promise<Ran[]> {
  const yaml = workflowOf(ciMarkdown, 'GitLab CI');
  const env: Record<string, string> = {
    PATH: `${co.bin}:${process.env.PATH}`,
    HOME: co.dir,
    OMS_TOKEN: token,
    OMS_PLAN_TOKEN: token,
    GITLAB_API_TOKEN: 'gitlab-token',
    CI_API_V4_URL: 'https://gitlab.example/api/v4',
    CI_PROJECT_ID: '42',
    CI_MERGE_REQUEST_IID: '7',
    CI_SERVER_HOST: 'gitlab.example',
    CI_PROJECT_PATH: 'team/objects',
    CI_COMMIT_BRANCH: 'main',
    ...variables,
  };
  const ran: Ran[] = [];
  for (const key of ['script', 'after_script'] as const) {
    const lines = gitlabScript(yaml, job, key);
    if (lines.length) ran.push({ name: key, ...(await bash(['-e', '-o', 'pipefail', '-c', lines.join('\n')], co.dir, env)) });
  }
  return ran;
}

const allPassed = (job: string, ran: Ran[]) => {
  for (const r of ran) assert.equal(r.status, 0, `${job} / ${r.name} exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  assert.ok(
    ran.every((r) => !`${r.stdout}${r.stderr}`.includes(token)),
    'the token is never printed',
  );
};

test('docs/ci.md: the GitHub Actions steps plan on a pull request (comment posted), apply after the merge, then nothing left', async () => {
  const co = await checkout('github');
  const vars = { OMS_URL: api.sb.url };
  const key = await renameOne(co, 'Renamed in a pull request');

  const planned = await githubJob(co, 'plan', vars);
  allPassed('plan', planned.ran);
  assert.equal(planned.outputs['steps.plan.outputs.exitcode'], '2');
  const comment = await fs.readFile(co.comment, 'utf8');
  assert.match(comment, /\| update \| `Renamed in a pull request` \|/);
  const artifact = JSON.parse(await fs.readFile(path.join(co.dir, 'plan.json'), 'utf8')) as { entries: Array<{ action: string; label: string }> };
  assert.deepEqual(
    artifact.entries.map((e) => [e.action, e.label]),
    [['update', 'Renamed in a pull request']],
    "the whole plan, kept as the job's artifact",
  );
  assert.match(await fs.readFile(co.calls, 'utf8'), /^gh pr comment 7 --body-file plan\.md --edit-last$/m);

  allPassed('apply', (await githubJob(co, 'apply', vars)).ran);
  assert.equal(await liveName(key), 'Renamed in a pull request');
  assert.match(await fs.readFile(co.calls, 'utf8'), /^git add oms\/production$/m);
  assert.match(await fs.readFile(co.calls, 'utf8'), /^git commit -m oms apply: versions after the run \[skip ci\]$/m);

  await fs.rm(co.comment);
  const again = await githubJob(co, 'plan', vars);
  allPassed('plan', again.ran);
  assert.equal(again.outputs['steps.plan.outputs.exitcode'], '0');
  await assert.rejects(fs.stat(co.comment), 'no comment without changes');
});

test('docs/ci.md: the GitLab jobs plan on a merge request (note posted through the API), apply after the merge, then nothing left', async () => {
  const co = await checkout('gitlab');
  const variables = { OMS_URL: api.sb.url };
  const key = await renameOne(co, 'Renamed in a merge request');

  allPassed('oms-plan', await gitlabJob(co, 'oms-plan', variables));
  assert.match(await fs.readFile(co.comment, 'utf8'), /\| update \| `Renamed in a merge request` \|/);
  const artifact = JSON.parse(await fs.readFile(path.join(co.dir, 'plan.json'), 'utf8')) as { entries: Array<{ action: string; label: string }> };
  assert.deepEqual(
    artifact.entries.map((e) => [e.action, e.label]),
    [['update', 'Renamed in a merge request']],
    "the whole plan, kept as the job's artifact",
  );
  assert.match(
    await fs.readFile(co.calls, 'utf8'),
    /^curl .*--data-urlencode body@plan\.md https:\/\/gitlab\.example\/api\/v4\/projects\/42\/merge_requests\/7\/notes$/m,
  );

  allPassed('oms-apply', await gitlabJob(co, 'oms-apply', variables));
  assert.equal(await liveName(key), 'Renamed in a merge request');
  const calls = await fs.readFile(co.calls, 'utf8');
  assert.match(calls, /^git add oms\/production$/m);
  assert.match(calls, /^git commit -m oms apply: versions after the run \[skip ci\]$/m);
  assert.match(calls, /^git push https:\/\/oauth2:gitlab-token@gitlab\.example\/team\/objects\.git HEAD:main$/m);

  await fs.rm(co.comment);
  allPassed('oms-plan', await gitlabJob(co, 'oms-plan', variables));
  await assert.rejects(fs.stat(co.comment), 'no note without changes');
});

/** A pull request that points the manifest at another service: the plan job must fail before the token goes there. */
async function pointManifestAway(co: Checkout): Promise<void> {
  const file = path.join(co.folder, 'oms.manifest.json');
  const manifest = JSON.parse(await fs.readFile(file, 'utf8')) as { connection: { url: string } };
  manifest.connection.url = strangerUrl;
  await fs.writeFile(file, JSON.stringify(manifest, null, 2) + '\n');
}

for (const [platform, omsUrl] of [
  ['GitHub Actions', 'set'],
  ['GitLab', 'set'],
  ['GitHub Actions', 'missing'],
] as const) {
  test(`a pull request that edits the manifest's URL (${platform}, OMS_URL ${omsUrl}): the plan job fails with exit 1, nothing sent to that URL`, async () => {
    const co = await checkout(`url-${platform.split(' ')[0]}-${omsUrl}`);
    await renameOne(co, 'Renamed beside a new URL');
    await pointManifestAway(co);
    strangerHeard.length = 0;
    const url = omsUrl === 'set' ? api.sb.url : '';
    let out: string;
    if (platform === 'GitLab') {
      const [script] = await gitlabJob(co, 'oms-plan', { OMS_URL: url });
      assert.notEqual(script.status, 0, 'the job fails');
      out = `${script.stdout}${script.stderr}`;
    } else {
      const { outputs, ran } = await githubJob(co, 'plan', { OMS_URL: url });
      assert.equal(outputs['steps.plan.outputs.exitcode'], '1');
      assert.notEqual(ran.find((r) => r.name === 'Plan')?.status, 0, 'the plan step fails');
      out = ran.map((r) => `${r.stdout}${r.stderr}`).join('');
    }
    assert.deepEqual(strangerHeard, [], 'nothing was sent to the URL the pull request named');
    // Refused naming what is wrong: the URL the manifest names, or OMS_URL left empty.
    assert.ok(omsUrl === 'set' ? out.includes(strangerUrl) : /OMS_URL/.test(out), `the reason is said\n${out}`);
    assert.ok(!out.includes(token), 'the token is never printed');
    await assert.rejects(fs.stat(co.comment), 'no comment');
  });
}

/** Commands as the runner runs them (the sandbox serves from this process: never a synchronous spawn). */
function bash(args: string[], cwd: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    }),
  );
}

/** The workflow's `if:` of a step, for the forms it uses; without one, a step runs while none before it failed. */
function shouldRun(step: Step, outputs: Record<string, string>, failed: boolean): boolean {
  if (step.if === 'always()') return true;
  if (failed) return false;
  if (!step.if) return true;
  const m = /^steps\.plan\.outputs\.(\w+) == '(.*)'$/.exec(step.if);
  if (!m) throw new Error(`unknown condition ${step.if}`);
  return outputs[`steps.plan.outputs.${m[1]}`] === m[2];
}
