/**
 * A query: a JMESPath expression (@jmespath-community/jmespath) evaluated against each object; the object matches
 * when the answer is truthy as JMESPath counts truth (not null, false, '', [] or {}). Compiling says where a broken
 * query breaks (the library names the token, not its place: see docs/architecture.md, "Queries"), and warns about a
 * field the kinds' schemas do not know, with the nearest names.
 */
import { compile, isRegistered, tokenize, TreeInterpreter } from '@jmespath-community/jmespath';
import type { Kind } from '../model/kinds';
import { l10n } from '../l10n';
import { nearestNames } from './nearest';
import { Field, fieldsOfKinds } from './schemaFields';

/** Where a query goes wrong: `position` is 0-based in its text, `length` the characters it covers (at least 1). */
export interface QueryProblem {
  message: string;
  position: number;
  length: number;
}

export interface Query {
  readonly text: string;
  /** True when `object` matches; an object whose evaluation fails does not, and `failure` then says why. */
  matches(object: unknown): boolean;
  /** The fields the query names at the top of the object, in order: the results' columns unless others are chosen. */
  readonly columns: readonly string[];
  /** Why the last object did not evaluate (a type error, say), or undefined. */
  failure?: string;
}

export type Compiled = { query: Query; warnings: QueryProblem[] } | { error: QueryProblem };

type Node = { type: string; name?: string; [key: string]: unknown };

/** Compiles `text`; `kinds` are the kinds in scope, whose schemas say which fields exist. */
export function compileQuery(text: string, kinds: readonly Kind[]): Compiled {
  if (!text.trim())
    return { error: { message: l10n.t('Type a query, for example {0}', 'InputScannerReportingPriorities[?Priority == `1`]'), position: 0, length: 1 } };
  let ast: Node;
  try {
    ast = compile(text) as unknown as Node;
  } catch (e) {
    return { error: { message: l10n.t('The query is not valid: {0}', wording((e as Error).message)), ...wherePrefixFails(text) } };
  }
  const tokens = safeTokens(text);
  const unknownFunction = functionsIn(ast).find((name) => !isRegistered(name));
  if (unknownFunction) {
    return { error: { message: l10n.t('The query calls {0}(), which JMESPath does not have', unknownFunction), ...tokenAt(tokens, text, unknownFunction) } };
  }
  const warnings: QueryProblem[] = [];
  const columns: string[] = [];
  const root = fieldsOfKinds(kinds);
  new FieldWalk(
    root,
    (name, ctx, parent) => {
      const known = [...(ctx.fields?.keys() ?? [])];
      const near = nearestNames(name, known);
      const whose = ctx === root || !parent ? kinds.map((k) => l10n.t(k.label).toLowerCase()).join(', ') : parent;
      warnings.push({
        message: near.length
          ? l10n.t('{0} is not a field of {1} in its schema; nearest: {2}', name, whose, near.join(', '))
          : l10n.t('{0} is not a field of {1} in its schema', name, whose),
        ...tokenAt(tokens, text, name),
      });
    },
    (name, ctx) => {
      if (ctx === root && !columns.includes(name)) columns.push(name);
    },
  ).walk(ast, root);
  const query: Query = {
    text,
    columns,
    matches(object) {
      try {
        query.failure = undefined;
        return truthy(TreeInterpreter.search(ast as never, object as never));
      } catch (e) {
        query.failure = (e as Error).message;
        return false;
      }
    },
  };
  return { query, warnings };
}

/**
 * The schema field a name at the place of `placeholder` (an identifier in `text`) would be looked up in: for
 * completion. Undefined when `text` does not compile or the walk cannot tell.
 */
export function fieldContext(text: string, kinds: readonly Kind[], placeholder: string): Field | undefined {
  let ast: Node;
  try {
    ast = compile(text) as unknown as Node;
  } catch {
    return undefined;
  }
  let found: Field | undefined;
  new FieldWalk(
    fieldsOfKinds(kinds),
    (name, ctx) => {
      if (name === placeholder) found = ctx;
    },
    () => undefined,
  ).walk(ast, fieldsOfKinds(kinds));
  return found;
}

/** The value of one column expression (a JMESPath expression of its own) for an object; undefined when it fails. */
export function columnValue(expression: string, object: unknown): unknown {
  try {
    return TreeInterpreter.search(compiledColumn(expression) as never, object as never);
  } catch {
    return undefined;
  }
}

const columnCache = new Map<string, unknown>();
function compiledColumn(expression: string): unknown {
  let ast = columnCache.get(expression);
  if (!ast) {
    ast = compile(expression);
    if (columnCache.size > 200) columnCache.clear();
    columnCache.set(expression, ast);
  }
  return ast;
}

function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/** The library's words with its token names spelt as they are typed. */
function wording(message: string): string {
  const names: Record<string, string> = {
    Rbracket: ']',
    Lbracket: '[',
    Rbrace: '}',
    Lbrace: '{',
    Rparen: ')',
    Lparen: '(',
    Comma: ',',
    Dot: '.',
    Colon: ':',
    Filter: '[?',
    Pipe: '|',
  };
  return message
    .replace(/^Syntax error[:,]\s*/, '')
    .replace(/^invalid token \(EOF\): ""$/, l10n.t('it ends too early'))
    .replace(/\bEOF\b/g, l10n.t('the end'))
    .replace(/\b(Rbracket|Lbracket|Rbrace|Lbrace|Rparen|Lparen|Comma|Dot|Colon|Filter|Pipe)\b/g, (n) => `'${names[n]}'`);
}

interface Token {
  start: number;
  type: string;
  value: unknown;
}

function safeTokens(text: string): Token[] {
  try {
    return tokenize(text);
  } catch {
    return [];
  }
}

/**
 * Where a query the library refused breaks: its text cut after each token in turn is compiled, and the first cut
 * refused other than for ending too early (the library then names EOF) ends at the failing token. A text the
 * tokenizer refuses breaks at the first character that makes a prefix fail. Nothing fails early: the end.
 */
function wherePrefixFails(text: string): { position: number; length: number } {
  let tokens: Token[];
  try {
    tokens = tokenize(text);
  } catch {
    for (let i = 1; i <= text.length; i++) {
      try {
        tokenize(text.slice(0, i));
      } catch (e) {
        // An unterminated literal or string fails only at the end: it starts at its opening quote.
        if (i === text.length && /literal|quote|JSON/i.test((e as Error).message)) {
          const open = Math.max(text.lastIndexOf('`'), text.lastIndexOf("'"), text.lastIndexOf('"'));
          if (open >= 0) return { position: open, length: text.length - open };
        }
        return { position: i - 1, length: 1 };
      }
    }
    return { position: text.length, length: 1 };
  }
  for (let i = 0; i < tokens.length; i++) {
    const end = i + 1 < tokens.length ? tokens[i + 1].start : text.length;
    try {
      compile(text.slice(0, end));
    } catch (e) {
      if (!/\bEOF\b/.test((e as Error).message)) return { position: tokens[i].start, length: Math.max(1, text.slice(tokens[i].start, end).trimEnd().length) };
    }
  }
  return { position: text.trimEnd().length, length: 1 };
}

/** The first identifier token named `name` (its place for a warning), else the whole text. */
function tokenAt(tokens: readonly Token[], text: string, name: string): { position: number; length: number } {
  const t = tokens.find((x) => (x.type === 'UnquotedIdentifier' || x.type === 'QuotedIdentifier') && x.value === name);
  if (!t) return { position: 0, length: Math.max(1, text.length) };
  const quoted = t.type === 'QuotedIdentifier' ? 2 : 0;
  return { position: t.start, length: name.length + quoted };
}

function functionsIn(node: unknown, out: string[] = []): string[] {
  if (!node || typeof node !== 'object') return out;
  if (Array.isArray(node)) {
    for (const n of node) functionsIn(n, out);
    return out;
  }
  const n = node as Node;
  if (n.type === 'Function' && typeof n.name === 'string') out.push(n.name);
  for (const [key, value] of Object.entries(n)) if (key !== 'value' || n.type === 'KeyValuePair') functionsIn(value, out);
  return out;
}

/**
 * Walks a compiled query with the schema field each part is evaluated against: a field inside a projection or a
 * filter is looked up among the array's items' fields; where the walk cannot tell (a function's answer, a variable),
 * nothing is said.
 */
class FieldWalk {
  private elementOf(f: Field | undefined): Field | undefined {
    const e = elementOf(f);
    const name = f && this.names.get(f);
    if (e && name) this.names.set(e, name);
    return e;
  }

  constructor(
    private readonly root: Field,
    /** `parent`: the field `ctx` is (or whose items it is), when the walk knows. */
    private readonly unknown: (name: string, ctx: Field, parent: string | undefined) => void,
    private readonly known: (name: string, ctx: Field) => void,
  ) {}

  private readonly names = new WeakMap<Field, string>();

  walk(node: unknown, ctx: Field | undefined): Field | undefined {
    if (!node || typeof node !== 'object') return undefined;
    const n = node as Node;
    const child = (key: string, at: Field | undefined) => this.walk(n[key], at);
    switch (n.type) {
      case 'Field': {
        if (!ctx?.fields || typeof n.name !== 'string') return undefined;
        const f = ctx.fields.get(n.name);
        if (f) {
          this.known(n.name, ctx);
          this.names.set(f, n.name);
        } else this.unknown(n.name, ctx, this.names.get(ctx));
        return f;
      }
      case 'Current':
        return ctx;
      case 'Root':
        return this.root;
      case 'Subexpression':
        return child('right', child('left', ctx));
      case 'IndexExpression': {
        const left = child('left', ctx);
        return (n.right as Node | undefined)?.type === 'Index' ? this.elementOf(left) : left;
      }
      case 'Flatten':
        return child('child', ctx);
      case 'Projection':
      case 'FilterProjection': {
        const element = this.elementOf(child('left', ctx));
        child('condition', element);
        child('right', element);
        return undefined;
      }
      case 'ValueProjection':
        child('left', ctx);
        child('right', undefined);
        return undefined;
      case 'Pipe':
        child('right', child('left', ctx));
        return undefined;
      case 'Function': {
        const args = (n.children as Node[] | undefined) ?? [];
        const first = args.length ? this.walk(args[0], ctx) : undefined;
        for (const a of args.slice(1)) {
          // sort_by(Rows, &Priority): the reference is evaluated against the first argument's items.
          if (a.type === 'ExpressionReference') this.walk(a.child, this.elementOf(first));
          else this.walk(a, ctx);
        }
        return undefined;
      }
      case 'MultiSelectHash':
        for (const kv of (n.children as Node[] | undefined) ?? []) this.walk(kv.value, ctx);
        return undefined;
      case 'LetExpression':
        for (const b of (n.bindings as Node[] | undefined) ?? []) this.walk(b.reference, ctx);
        child('expression', ctx);
        return undefined;
      case 'Literal':
      case 'Index':
      case 'Slice':
      case 'Variable':
        return undefined;
      default:
        // Comparators, and/or/not, arithmetic, lists: every operand against the same object.
        for (const key of ['left', 'right', 'child', 'condition']) child(key, ctx);
        for (const c of (n.children as unknown[] | undefined) ?? []) this.walk(c, ctx);
        return undefined;
    }
  }
}

/** The field of an array's items (an array of objects keeps its items' fields on itself: schemaFields.ts). */
function elementOf(f: Field | undefined): Field | undefined {
  if (!f) return undefined;
  if (f.items) return f.items;
  return f.types.includes('array') || f.fields ? { types: ['object'], fields: f.fields } : undefined;
}
