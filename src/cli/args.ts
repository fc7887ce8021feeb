/** The command line's words: a command, its positionals and its options (node's parseArgs, strict). */
import { parseArgs, ParseArgsConfig } from 'node:util';
import { CliError } from './exit';
import { usageOf } from './usage';
import { l10n } from '../l10n';

export const commandNames = ['pull', 'plan', 'apply', 'diff', 'query', 'undo', 'retry'] as const;
export type CommandName = (typeof commandNames)[number];

type Options = NonNullable<ParseArgsConfig['options']>;

const common: Options = {
  url: { type: 'string' },
  'token-file': { type: 'string' },
  'allow-http': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

const optionsOf: Record<CommandName, Options> = {
  pull: {
    ...common,
    folder: { type: 'string' },
    subfolders: { type: 'boolean' },
    kinds: { type: 'string' },
    label: { type: 'string' },
    production: { type: 'boolean' },
    'overwrite-edits': { type: 'boolean' },
  },
  plan: { ...common, 'detailed-exitcode': { type: 'boolean' }, format: { type: 'string' }, out: { type: 'string' } },
  apply: {
    ...common,
    deletes: { type: 'string' },
    'yes-production': { type: 'boolean' },
    'auto-approve': { type: 'boolean' },
    'stop-on-error': { type: 'boolean' },
    'skip-invalid': { type: 'boolean' },
  },
  diff: { ...common },
  query: {
    ...common,
    url: { type: 'string' },
    folder: { type: 'string' },
    subfolders: { type: 'boolean' },
    kinds: { type: 'string' },
    format: { type: 'string' },
    columns: { type: 'string' },
  },
  undo: { ...common, 'yes-production': { type: 'boolean' }, 'auto-approve': { type: 'boolean' }, 'stop-on-error': { type: 'boolean' } },
  retry: { ...common, 'yes-production': { type: 'boolean' }, 'auto-approve': { type: 'boolean' }, 'stop-on-error': { type: 'boolean' } },
};

/** Positionals each command takes: required, then optional. */
const positionalsOf: Record<CommandName, { required: number; most: number }> = {
  pull: { required: 1, most: 1 },
  plan: { required: 1, most: 1 },
  apply: { required: 1, most: 2 },
  diff: { required: 2, most: 2 },
  query: { required: 1, most: 2 },
  undo: { required: 1, most: 1 },
  retry: { required: 1, most: 1 },
};

export interface Parsed {
  command: CommandName;
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
}

export type Invocation = Parsed | { help: CommandName | undefined } | { version: true };

export function parse(argv: readonly string[]): Invocation {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') return { help: undefined };
  if (first === '--version' || first === '-v') return { version: true };
  if (!(commandNames as readonly string[]).includes(first)) {
    throw new CliError(l10n.t('Unknown command {0}. The commands: {1}. Run oms --help.', first, commandNames.join(', ')));
  }
  const command = first as CommandName;
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...rest], options: optionsOf[command], allowPositionals: true, strict: true }) as typeof parsed;
  } catch (e) {
    throw new CliError(`${(e as Error).message}\n\n${usageOf(command)}`);
  }
  if (parsed.values.help) return { help: command };
  const { required, most } = positionalsOf[command];
  if (parsed.positionals.length < required || parsed.positionals.length > most) {
    throw new CliError(`${l10n.t('oms {0}: wrong number of arguments', command)}\n\n${usageOf(command)}`);
  }
  return { command, positionals: parsed.positionals, values: parsed.values };
}

/** A whole number option, or a clear error. */
export function wholeNumber(value: string | boolean | undefined, option: string): number | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  if (!/^\d+$/.test(value)) throw new CliError(l10n.t('--{0} takes a whole number (got "{1}")', option, value));
  return Number(value);
}

export function text(value: string | boolean | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
