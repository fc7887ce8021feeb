/**
 * Completion of a query at a place in its text, from the kinds' schemas: field names (nested ones inside a
 * projection or filter: `InputScannerReportingPriorities[?|`), enum values after a comparison
 * (`StatusCode == |`, with their labels) and JMESPath's functions. The query box and query files use it.
 */
import { getRegisteredFunctions, tokenize } from '@jmespath-community/jmespath';
import type { Kind } from '../model/kinds';
import { fieldContext } from './compile';
import type { Field } from './schemaFields';

export interface Completion {
  label: string;
  /** The text that replaces the range [from, offset). */
  insert: string;
  kind: 'field' | 'value' | 'function';
  detail?: string;
}

export interface Completions {
  /** Where the word being completed starts. */
  from: number;
  items: Completion[];
}

const placeholder = '__omsCompletionHere';
const openers: Record<string, string> = { Lbracket: ']', Filter: ']', Lbrace: '}', Lparen: ')' };
const closersOf: Record<string, true> = { Rbracket: true, Rbrace: true, Rparen: true };

export function completeAt(text: string, offset: number, kinds: readonly Kind[]): Completions {
  const before = text.slice(0, offset);
  const word = /[A-Za-z_][A-Za-z0-9_]*$/.exec(before);
  const from = word ? offset - word[0].length : offset;
  const typed = word?.[0].toLowerCase() ?? '';
  const comparison = /([A-Za-z_][A-Za-z0-9_]*)\s*(==|!=|<=|>=|<|>)\s*`?$/.exec(before);
  if (comparison) {
    const start = before.length - comparison[0].length;
    const field = contextOf(before.slice(0, start), kinds)?.fields?.get(comparison[1]);
    const tick = comparison[0].endsWith('`');
    const items = (field?.enum ?? []).map((e): Completion => {
      const literal = typeof e.value === 'string' ? `'${e.value}'` : `\`${JSON.stringify(e.value)}\``;
      return { label: literal, insert: tick ? literal.slice(1) : literal, kind: 'value', detail: e.description };
    });
    return { from: offset, items };
  }
  const ctx = contextOf(before.slice(0, from), kinds);
  const fields = [...(ctx?.fields ?? [])].map(([name, f]): Completion => ({ label: name, insert: name, kind: 'field', detail: describe(f) }));
  // Functions where an expression may start (not after a dot: `a.length` is a field).
  const afterDot = /\.\s*$/.test(before.slice(0, from));
  const functions = afterDot ? [] : getRegisteredFunctions().map((name): Completion => ({ label: `${name}()`, insert: `${name}(`, kind: 'function' }));
  const items = [...fields, ...functions].filter((c) => c.label.toLowerCase().startsWith(typed) || (typed.length > 2 && c.label.toLowerCase().includes(typed)));
  return { from, items };
}

/** The field a name typed after `prefix` is looked up in: `prefix` completed by a placeholder and the closers it needs. */
function contextOf(prefix: string, kinds: readonly Kind[]): Field | undefined {
  let tokens: Array<{ type: string }>;
  try {
    tokens = tokenize(prefix);
  } catch {
    return undefined;
  }
  const open: string[] = [];
  for (const t of tokens) {
    if (openers[t.type]) open.push(openers[t.type]);
    else if (closersOf[t.type]) open.pop();
  }
  const closers = open.reverse().join('');
  // After a name, a space or a closer, a new name needs an operator first: those are not places for a field.
  const needsJoin = tokens.length > 0 && /(Identifier|Rbracket|Rbrace|Rparen|Literal|Number|Star|Current)$/.test(tokens[tokens.length - 1].type);
  return needsJoin ? undefined : fieldContext(`${prefix}${placeholder}${closers}`, kinds, placeholder);
}

function describe(f: Field): string {
  const types = f.types.filter((t) => t !== 'null').join(' | ') || (f.fields ? 'object' : '');
  return f.description ? `${types}: ${f.description}` : types;
}
