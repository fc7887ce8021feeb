/**
 * Validation of service objects against the JSON schemas in `schemas/`.
 *
 * The same schema files are contributed to VS Code (`jsonValidation`), so an
 * editor and this validator agree. The validators are ajv's standalone code,
 * generated at build time by scripts/validators.ts: nothing is compiled at
 * run time (no eval), and the code loads on the first validation.
 *
 * Plain TypeScript: no `vscode` import, so the sandbox and tests can use it.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { l10n } from '../l10n';

export interface SchemaError {
  /** JSON pointer of the offending value ("" for the root). */
  pointer: string;
  /** In the user's language (src/l10n.ts). */
  message: string;
  /** The rule that failed (ajv's keyword, e.g. `required`). */
  keyword: string;
}

/** A file name under `schemas/`, e.g. `engageSite.schema.json` (the `.json` may be left off). */
type SchemaFile = string;

type Validators = Readonly<Record<string, ValidateFunction>>;
let all: Validators | undefined;
let firstError: Validators | undefined;

/**
 * Loaded on first use: in the bundle each set is a file of its own (see esbuild.js).
 * `allErrors` false: the set that stops at the first error (linear, bounded: the sandbox's screening).
 */
function validators(allErrors = true): Validators {
  /* eslint-disable @typescript-eslint/no-require-imports */
  if (allErrors) return (all ??= require('./generated/validators') as Validators);
  return (firstError ??= require('./generated/firstErrorValidators') as Validators);
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/**
 * Names of all schema files (for tests and for callers that list them).
 * @internal Exported for its unit test.
 */
export function schemaFileNames(): string[] {
  return Object.keys(validators());
}

function validatorFor(schema: SchemaFile, allErrors: boolean): ValidateFunction {
  const base = schema.replace(/^.*[\\/]/, '');
  const name = base.endsWith('.json') ? base : `${base}.json`;
  const fn = validators(allErrors)[name];
  if (!fn) throw new Error(l10n.t('Unknown schema {0}', schema));
  return fn;
}

/**
 * Validates `value` against a schema file; returns [] when it is valid.
 * `firstOnly` stops at the first failing rule: time linear in the value and a
 * bounded list, for inputs of any size (the sandbox's batches).
 */
export function validate(schema: SchemaFile, value: unknown, firstOnly = false): SchemaError[] {
  const fn = validatorFor(schema, !firstOnly);
  if (fn(value)) return [];
  const errors = describeErrors(fn.errors ?? [], value);
  // Collapsing never empties a failing result; this guards against a future schema doing so.
  return errors.length ? errors : [{ pointer: '', message: l10n.t('is not valid'), keyword: 'false' }];
}

/** One line per error, e.g. `/Tags/0: must be string`; at most `max` lines plus a count of the rest. */
export function formatErrors(errors: ReadonlyArray<Pick<SchemaError, 'pointer' | 'message'>>, max = 10): string {
  const lines = errors.slice(0, Math.max(0, max)).map((e) => `${e.pointer || l10n.t('(root)')}: ${e.message}`);
  if (errors.length > max) lines.push(l10n.t('... and {0} more', errors.length - max));
  return lines.join('\n');
}

// ---------------------------------------------------------------------------
// Turning ajv's errors into a short list a person can act on.

/** Keywords that check a value whose type is already right. */
const valueKeywords = new Set(['enum', 'const', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'format']);

type AjvError = ErrorObject & { parentSchema?: Record<string, unknown> };

function isUnder(pointer: string, parent: string): boolean {
  return pointer === parent || pointer.startsWith(`${parent}/`);
}

function depth(pointer: string): number {
  return pointer === '' ? 0 : pointer.split('/').length - 1;
}

/**
 * ajv's errors of `value` as the list `validate` returns.
 * @internal Exported for its unit test (ajv errors of keywords our schemas do not use yet).
 */
export function describeErrors(raw: readonly ErrorObject[], value: unknown): SchemaError[] {
  let errors = collapseAlternatives(raw as AjvError[]).filter((e) => e.keyword !== 'if');

  // A wrong type makes value checks at the same spot (enum, pattern...) noise.
  const typeAt = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  errors = errors.filter((e) => !(valueKeywords.has(e.keyword) && typeAt.has(e.instancePath)));

  const seen = new Set<string>();
  const out: SchemaError[] = [];
  for (const e of errors) {
    const item = { pointer: e.instancePath, message: messageOf(e), keyword: e.keyword };
    const id = `${item.pointer}\u0000${item.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(item);
  }
  // Most specific (deepest) first, then in the order the values appear in the document.
  return out.sort((a, b) => depth(b.pointer) - depth(a.pointer) || documentOrder(value, a.pointer, b.pointer));
}

function segments(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Compares two pointers by where their values come in `value` (key order of objects, index in arrays). */
function documentOrder(value: unknown, a: string, b: string): number {
  const sa = segments(a);
  const sb = segments(b);
  let node = value;
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    if (sa[i] !== sb[i]) {
      if (Array.isArray(node)) return Number(sa[i]) - Number(sb[i]);
      if (node && typeof node === 'object') {
        const keys = Object.keys(node);
        return keys.indexOf(sa[i]) - keys.indexOf(sb[i]);
      }
      return 0;
    }
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[sa[i]] : undefined;
  }
  return sa.length - sb.length;
}

/**
 * anyOf/oneOf report every branch's failures plus their own. Keep the useful
 * part: the schema's `errorMessage` if it has one, else the errors of the
 * branches whose type fits the value (a nullable `anyOf: [null, $ref]` keeps
 * the errors inside the object), else one "must be X or Y" line.
 */
function collapseAlternatives(raw: AjvError[]): AjvError[] {
  const errors = [...raw];
  for (let i = 0; i < errors.length; i++) {
    const alt = errors[i];
    if (alt.keyword !== 'anyOf' && alt.keyword !== 'oneOf') continue;
    if (alt.keyword === 'oneOf' && (alt.params as { passingSchemas?: unknown }).passingSchemas) continue;
    // The branches' errors come right before the anyOf error; the first branch's
    // errors sit under the anyOf's own schema path.
    const branchPrefix = `${alt.schemaPath}/`;
    let start = i;
    for (let j = i - 1; j >= 0 && isUnder(errors[j].instancePath, alt.instancePath); j--) {
      if (errors[j].schemaPath.startsWith(branchPrefix)) start = j;
    }
    const subs = errors.slice(start, i);
    const parent = alt.parentSchema ?? {};
    let replacement: AjvError[];
    if (typeof parent.errorMessage === 'string') {
      replacement = [{ ...alt, keyword: 'errorMessage', message: parent.errorMessage }];
    } else {
      const mismatch = (e: AjvError) => e.keyword === 'type' && e.instancePath === alt.instancePath;
      const inner = subs.filter((e) => !mismatch(e));
      if (inner.length) {
        replacement = inner;
      } else {
        const types = [...new Set(subs.flatMap((e) => String((e.params as { type?: string }).type ?? '').split(',')).filter(Boolean))];
        replacement = [{ ...alt, keyword: 'type', params: { type: types.join(',') }, parentSchema: { type: types } }];
      }
    }
    errors.splice(start, i - start + 1, ...replacement);
    i = start + replacement.length - 1;
  }
  return errors;
}

/**
 * Words a schema holds for people (`errorMessage`, `patternErrorMessage`, `enumDescriptions`), in the
 * user's language: `npm run l10n` puts them in the bundle beside the code's strings.
 */
const schemaWords = (text: string) => l10n.t(text);

function describeEnum(values: unknown[], descriptions: unknown): string {
  const descs = Array.isArray(descriptions) ? descriptions : [];
  return values.map((v, k) => (typeof descs[k] === 'string' ? l10n.t('{0} ({1})', JSON.stringify(v), schemaWords(descs[k])) : JSON.stringify(v))).join(', ');
}

/** JSON's type names as the messages say them. */
const typeNames: Record<string, () => string> = {
  string: () => l10n.t('string'),
  integer: () => l10n.t('integer'),
  number: () => l10n.t('number'),
  boolean: () => l10n.t('boolean'),
  object: () => l10n.t('object'),
  array: () => l10n.t('array'),
  null: () => l10n.t('null'),
};

function joinTypes(types: string[]): string {
  const names = types.map((t) => typeNames[t]?.() ?? t);
  return names.length <= 1 ? names.join('') : l10n.t('{0} or {1}', names.slice(0, -1).join(', '), names[names.length - 1]);
}

/** `(has 9)` after a count rule, when the value is at hand. */
function withCount(message: string, data: unknown): string {
  return Array.isArray(data) ? l10n.t('{0} (has {1})', message, data.length) : message;
}

/** Each keyword our schemas can fail on (and the common others) in the user's words; ajv's own English only for one we do not know. */
function messageOf(e: AjvError): string {
  const schema = e.parentSchema ?? {};
  const params = e.params as Record<string, unknown>;
  const limit = String(params.limit);
  switch (e.keyword) {
    case 'errorMessage':
      return e.message ? schemaWords(e.message) : l10n.t('is not valid');
    case 'pattern':
      if (typeof schema.patternErrorMessage === 'string') return schemaWords(schema.patternErrorMessage);
      if (typeof schema.errorMessage === 'string') return schemaWords(schema.errorMessage);
      return l10n.t('must match the pattern {0}', String(params.pattern));
    case 'type': {
      const types = String(params.type).split(',');
      if (Array.isArray(schema.enum)) return l10n.t('must be {0}, one of {1}', joinTypes(types), describeEnum(schema.enum, schema.enumDescriptions));
      return l10n.t('must be {0}', joinTypes(types));
    }
    case 'enum':
      return l10n.t('must be one of {0}', describeEnum(params.allowedValues as unknown[], schema.enumDescriptions));
    case 'const':
      return l10n.t('must be {0}', JSON.stringify(params.allowedValue));
    case 'required':
      return l10n.t("must have required property '{0}'", String(params.missingProperty));
    case 'additionalProperties':
      return l10n.t("must not have property '{0}'", String(params.additionalProperty));
    case 'minItems':
    case 'maxItems':
      if (schema.minItems !== undefined && schema.minItems === schema.maxItems) {
        return withCount(schema.minItems === 1 ? l10n.t('must have exactly 1 item') : l10n.t('must have exactly {0} items', String(schema.minItems)), e.data);
      }
      if (e.keyword === 'minItems')
        return withCount(params.limit === 1 ? l10n.t('must have at least 1 item') : l10n.t('must have at least {0} items', limit), e.data);
      return withCount(params.limit === 1 ? l10n.t('must have at most 1 item') : l10n.t('must have at most {0} items', limit), e.data);
    case 'uniqueItems':
      return l10n.t('must not hold the same item twice (items {0} and {1})', String(params.j), String(params.i));
    case 'minLength':
      return params.limit === 1 ? l10n.t('must not be empty') : l10n.t('must be at least {0} characters long', limit);
    case 'maxLength':
      return params.limit === 1 ? l10n.t('must be at most 1 character long') : l10n.t('must be at most {0} characters long', limit);
    case 'minimum':
      return l10n.t('must be {0} or more', limit);
    case 'maximum':
      return l10n.t('must be {0} or less', limit);
    case 'exclusiveMinimum':
      return l10n.t('must be more than {0}', limit);
    case 'exclusiveMaximum':
      return l10n.t('must be less than {0}', limit);
    case 'multipleOf':
      return l10n.t('must be a multiple of {0}', String(params.multipleOf));
    case 'format':
      return params.format === 'email' ? l10n.t('must be an email address') : l10n.t('must be in the {0} format', String(params.format));
    default:
      return e.message ?? l10n.t('is not valid ({0})', e.keyword);
  }
}
