#!/usr/bin/env node
/**
 * `oms-sandbox`: runs the local service from a terminal. Prints exactly one
 * line to stdout once listening:
 *   OMS sandbox listening on http[s]://127.0.0.1:PORT instance=<key>[ token=<token>]
 * (the token only with --print-token). The token comes from OMS_SANDBOX_TOKEN,
 * --token-file, or is random; the password from OMS_SANDBOX_PASSWORD or
 * --password-file (none: no password grant): never from a command line others can read.
 * Request logs go to stderr (--verbose) or to a file (--log-requests); errors to stderr.
 */
import { constants, openSync, readFileSync, writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isLoopback } from './http/hostCheck';
import { defaultMaxBodyBytes, defaultTokenTtlSeconds, defaultUser, startSandbox } from './server';
import { defaultCompactAtBytes } from './store/compaction';
import { defaultInstanceName } from './store/seed';

const usage = `Usage: oms-sandbox [options]

A local object management service (HTTP + JSON) for development and tests.

Options:
  --host <addr>          interface to listen on (default 127.0.0.1); only loopback
                         addresses unless --allow-remote
  --allow-remote         allow a --host other machines can reach (a warning says the risk)
  --cert <file>          serve HTTPS with this PEM certificate (chain) ...
  --key <file>           ... and this PEM private key (both or neither)
  --port <n>             port; 0 picks a free one (default 0)
  --token-file <path>    read the static bearer token (never expires) from this file;
                         or set OMS_SANDBOX_TOKEN; default: a random token
  --print-token          add the token to the line printed on start
  --token <token>        deprecated: visible to every local user (ps); use the above
  --user <name>          user for POST /token password grants (default ${defaultUser})
  --password-file <path> read that user's password from this file; or set
                         OMS_SANDBOX_PASSWORD; without one, password grants are refused
  --password <pw>        deprecated: visible to every local user (ps); use the above
  --instance-name <name> name of the instance when seeding (default "${defaultInstanceName}")
  --data <file>          keep data in this JSON file (created and seeded if missing);
                         without it, data lives in memory only
  --seed demo|empty      data of a new store (default demo)
  --compact-at <bytes>   with --data: compact the journal into the data file once
                         it is larger than this and than the data file (default ${defaultCompactAtBytes})
  --token-ttl <seconds>  lifetime of issued tokens (default ${defaultTokenTtlSeconds})
  --max-body <bytes>     largest request body (default ${defaultMaxBodyBytes})
  --verbose              log each request to stderr (never tokens or bodies)
  --log-requests <file>  append each request to this file, readable by you alone:
                         time, method, path, status, duration (never tokens or bodies);
                         GET /sandbox/stats counts them by method and route
  --help                 show this help

On start, prints one line to stdout:
  OMS sandbox listening on http[s]://HOST:PORT instance=<key>[ token=<token>]
`;

function fail(message: string): never {
  process.stderr.write(`oms-sandbox: ${message}\n\n${usage}`);
  process.exit(2);
}

function integer(value: string | undefined, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) fail(`--${name} must be an integer of at least ${min} (got "${value}")`);
  return n;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        host: { type: 'string' },
        'allow-remote': { type: 'boolean' },
        cert: { type: 'string' },
        key: { type: 'string' },
        port: { type: 'string' },
        token: { type: 'string' },
        'token-file': { type: 'string' },
        'print-token': { type: 'boolean' },
        user: { type: 'string' },
        password: { type: 'string' },
        'password-file': { type: 'string' },
        'instance-name': { type: 'string' },
        data: { type: 'string' },
        seed: { type: 'string' },
        'token-ttl': { type: 'string' },
        'max-body': { type: 'string' },
        'compact-at': { type: 'string' },
        verbose: { type: 'boolean' },
        'log-requests': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  if (values.help) {
    process.stdout.write(usage);
    return;
  }
  if (values.seed !== undefined && values.seed !== 'demo' && values.seed !== 'empty') fail(`--seed must be demo or empty (got "${values.seed}")`);
  const port = integer(values.port, 'port', 0);
  if (port !== undefined && port > 65535) fail('--port must be at most 65535');

  if (values.host !== undefined && !isLoopback(values.host)) {
    if (!values['allow-remote'])
      fail(`--host ${values.host} is not a loopback address: other machines could reach the sandbox. Add --allow-remote if that is what you want`);
    const unencrypted = values.cert ? '' : 'without --cert/--key, tokens and data cross the network unencrypted; ';
    process.stderr.write(
      `oms-sandbox: warning: listening on ${values.host}: every machine that can reach it can send requests and try passwords and tokens; ` +
        `${unencrypted}use it on a network you trust only\n`,
    );
  }
  if ((values.cert === undefined) !== (values.key === undefined)) fail('--cert and --key go together');
  const tls =
    values.cert !== undefined && values.key !== undefined ? { cert: readFlagFile('cert', values.cert), key: readFlagFile('key', values.key) } : undefined;

  const logs: Array<(line: string) => void> = [];
  if (values.verbose) logs.push((line) => process.stderr.write(line));
  if (values['log-requests'] !== undefined) {
    const fd = openLog(values['log-requests']);
    logs.push((line) => writeSync(fd, line));
  }
  const sandbox = await startSandbox({
    host: values.host,
    allowRemote: values['allow-remote'],
    tls,
    port,
    token: secretFrom('token', values.token, values['token-file'], 'OMS_SANDBOX_TOKEN'),
    user: values.user,
    password: secretFrom('password', values.password, values['password-file'], 'OMS_SANDBOX_PASSWORD'),
    instanceName: values['instance-name'],
    dataFile: values.data,
    seed: values.seed,
    tokenTtlSeconds: integer(values['token-ttl'], 'token-ttl', 1),
    maxBodyBytes: integer(values['max-body'], 'max-body', 1),
    journal: { compactAtBytes: integer(values['compact-at'], 'compact-at', 1) },
    log: logs.length
      ? (line) => {
          const stamped = `${new Date().toISOString()} ${line}\n`;
          for (const write of logs) write(stamped);
        }
      : undefined,
  });
  const shown = values['print-token'] ? ` token=${sandbox.token}` : '';
  process.stdout.write(`OMS sandbox listening on ${sandbox.url} instance=${sandbox.instanceKey}${shown}\n`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (values.verbose) process.stderr.write(`${signal}: closing\n`);
    // Whatever happens while closing, the process ends within seconds.
    setTimeout(() => process.exit(1), 8000).unref();
    sandbox.close().then(
      () => process.exit(0),
      (e) => {
        process.stderr.write(`oms-sandbox: error while closing: ${(e as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

function readFlagFile(name: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    fail(`--${name}: ${(e as Error).message}`);
  }
}

/** The request log, appended to: created readable by the user alone, never written through a symbolic link. */
function openLog(file: string): number {
  try {
    return openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0), 0o600);
  } catch (e) {
    fail(`--log-requests: ${(e as Error).message}`);
  }
}

/** A secret (`name`): --<name>-file, else the environment variable, else the deprecated --<name> (with a warning). */
function secretFrom(name: string, flag: string | undefined, file: string | undefined, envName: string): string | undefined {
  if (file !== undefined) {
    let secret: string;
    try {
      secret = readFileSync(file, 'utf8').trim();
    } catch (e) {
      fail(`--${name}-file: ${(e as Error).message}`);
    }
    if (!secret) fail(`--${name}-file: ${file} is empty`);
    return secret;
  }
  const env = process.env[envName]?.trim();
  if (env) return env;
  if (flag !== undefined) {
    process.stderr.write(`oms-sandbox: warning: --${name} shows the ${name} to every local user (ps); use ${envName} or --${name}-file\n`);
  }
  return flag;
}

main().catch((e) => {
  process.stderr.write(`oms-sandbox: ${(e as Error).message}\n`);
  process.exit(1);
});
