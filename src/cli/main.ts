#!/usr/bin/env node
/**
 * `oms`: objects as code from a terminal or a CI pipeline. One file (dist/oms.cjs) that runs with
 * Node alone; the same core as the extension (src/changes/code/: manifest, plan, apply).
 * Standard output carries what was asked for (a plan, a diff, a result); errors go to stderr.
 */
import { parse } from './args';
import { CliError, exitCodes } from './exit';
import { usageOf } from './usage';

/** Put in by esbuild.js from package.json. */
declare const OMS_VERSION: string | undefined;

async function main(argv: readonly string[]): Promise<number> {
  const invocation = parse(argv);
  if ('version' in invocation) {
    process.stdout.write(`oms ${typeof OMS_VERSION === 'string' ? OMS_VERSION : 'dev'}\n`);
    return exitCodes.ok;
  }
  if ('help' in invocation) {
    process.stdout.write(usageOf(invocation.help));
    return exitCodes.ok;
  }
  // Each command's modules are set up only when it runs: --help and --version start with none of them.
  switch (invocation.command) {
    case 'pull':
      return (await import('./pullCommand')).pullCommand(invocation);
    case 'plan':
      return (await import('./planCommand')).planCommand(invocation);
    case 'apply':
      return (await import('./applyCommand')).applyCommand(invocation);
    case 'diff':
      return (await import('./diffCommand')).diffCommand(invocation);
    case 'query':
      return (await import('./queryCommand')).queryCommand(invocation);
    case 'undo':
      return (await import('./runCommands')).undoCommand(invocation);
    case 'retry':
      return (await import('./runCommands')).retryCommand(invocation);
  }
}

/** Exits once both outputs are written: idle pull threads and kept-alive sockets would hold the process a while. */
function exit(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

main(process.argv.slice(2)).then(exit, (e: unknown) => {
  process.stderr.write(`oms: ${e instanceof Error ? e.message : String(e)}\n`);
  exit(e instanceof CliError ? e.exitCode : exitCodes.error);
});
