// The demo window's terminal (npm start) runs `oms` as README shows, against the demo sandbox: an
// `oms` on its PATH reads the sandbox's token from a file only the user can read; OMS_URL names the
// sandbox (oms takes it as --url and sends the token to no other). The token is never in a setting,
// on a command line or in the wrapper; the settings hold the PATH, the sandbox's URL and its instance key.
import * as fs from 'fs';
import * as path from 'path';

export interface DemoSandbox {
  url: string;
  token: string;
  instance: string;
}

/** Writes `<home>/bin/oms` and `<home>/sandbox-token`; returns the settings that give the terminal both. */
export function demoTerminal(home: string, repo: string, sandbox: DemoSandbox, node = process.execPath): Record<string, unknown> {
  const bin = path.join(home, 'bin');
  fs.mkdirSync(bin, { recursive: true, mode: 0o700 });
  const tokenFile = path.join(home, 'sandbox-token');
  writeFresh(tokenFile, `${sandbox.token}\n`, 0o600);
  writeFresh(
    path.join(bin, 'oms'),
    `#!/bin/sh
# \`oms\` against the demo sandbox of npm start: its token read from a file only you can read.
OMS_TOKEN=$(cat ${shellQuoted(tokenFile)}) || exit 1
export OMS_TOKEN
exec ${shellQuoted(node)} ${shellQuoted(path.join(repo, 'dist', 'oms.cjs'))} "$@"
`,
    0o700,
  );
  const env = { PATH: `${bin}${path.delimiter}\${env:PATH}`, OMS_URL: sandbox.url, OMS_SANDBOX_URL: sandbox.url, OMS_SANDBOX_INSTANCE: sandbox.instance };
  return { 'terminal.integrated.env.linux': env, 'terminal.integrated.env.osx': env };
}

/** A new file in place of whatever was there (a link is replaced, never written through). */
function writeFresh(file: string, text: string, mode: number): void {
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, text, { mode, flag: 'wx' });
  fs.chmodSync(file, mode);
}

function shellQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
