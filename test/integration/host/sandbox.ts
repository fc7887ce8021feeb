// Starts the project's sandbox service (dist/sandbox.cjs) for one run and reads
// its first stdout line: the base URL, the instance key and the token.
import { execFileSync } from 'child_process';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { startProcess, waitForLine } from './procs';

export interface SandboxInfo {
  url: string;
  token: string;
  instance: string;
  /** The password of the password grant: random per run (the sandbox has no default one). */
  password: string;
  firstLine: string;
  /** `v24.1.0`: the Node.js it runs on. */
  nodeVersion: string;
}

/** Parses the sandbox's first line: JSON, or free text with the URL, instance key and token in it. */
export function parseSandboxLine(line: string, tokenGiven: string): Omit<SandboxInfo, 'nodeVersion' | 'password'> {
  let url: string | undefined;
  let instance: string | undefined;
  let token: string | undefined;
  const brace = line.indexOf('{');
  if (brace >= 0) {
    try {
      const o = JSON.parse(line.slice(brace)) as Record<string, unknown>;
      const pick = (...keys: string[]) => keys.map((k) => o[k]).find((v): v is string => typeof v === 'string');
      url = pick('url', 'baseUrl', 'base_url');
      instance = pick('instance', 'instanceKey', 'instance_key');
      token = pick('token', 'accessToken');
    } catch {
      /* not JSON; fall through to text */
    }
  }
  url ??= /https?:\/\/[^\s"',]+/.exec(line)?.[0];
  instance ??= /instance(?:[ _-]?key)?["']?\s*[:=]?\s*["']?([A-Za-z0-9_.:-]+)/i.exec(line.replace(/https?:\/\/\S+/g, ''))?.[1];
  token ??= /token["']?\s*[:=]?\s*["']?([A-Za-z0-9_.~+/=-]+)/i.exec(line.replace(/https?:\/\/\S+/g, ''))?.[1];
  if (!url) throw new Error(`sandbox: no base URL in its first line: ${line}`);
  if (!instance) throw new Error(`sandbox: no instance key in its first line: ${line}`);
  return { url: url.replace(/\/+$/, ''), instance, token: token ?? tokenGiven, firstLine: line };
}

export async function startSandbox(repo: string, tmp: string, logFile: string, node: string): Promise<SandboxInfo> {
  const entry = path.join(repo, 'dist', 'sandbox.cjs');
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` (or \`npm run package\`) first`);
  const token = randomBytes(18).toString('hex');
  const password = randomBytes(18).toString('hex');
  // Secrets go through the environment, never the command line (which every local user can read with ps).
  // --verbose: one line per request in sandbox.log (method, path, status; never tokens or bodies), which UI checks read.
  const args = [entry, '--port', '0', '--seed', 'demo', '--data', path.join(tmp, 'data.json'), '--verbose'];
  const child = startProcess(node, args, { cwd: repo, logFile, env: { ...process.env, OMS_SANDBOX_TOKEN: token, OMS_SANDBOX_PASSWORD: password } });
  const line = await waitForLine(child, /\S/, 20_000, 'sandbox');
  return { ...parseSandboxLine(line, token), password, nodeVersion: execFileSync(node, ['--version'], { encoding: 'utf8' }).trim() };
}
