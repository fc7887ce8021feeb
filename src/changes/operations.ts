/**
 * The bulk operations, one entry each: its label, the questions it asks, its description and its
 * effect on one object. A new operation is one entry here; the Bulk Edit command asks the
 * questions in order (src/commands/bulk/bulkEdit.ts) and `oms.bulkEdit` takes the answers as an
 * argument (`operation: { type: 'addTag', tag: 'x' }`). No `vscode` here.
 */
import { serverOwnedFields } from '../model/kinds';
import { sameJson } from '../model/saveChecks';
import type { BaseInfo, InputScannerInfo, InputScannerReportingPriority } from '../model/types';
import type { Skip } from './executor';
import { l10n } from '../l10n';

/** What a bulk edit does to each object (fields of the object's top level). */
export type BulkOperation =
  | { type: 'set'; field: string; value: unknown }
  /** A reporting priority's Priority or StatusCode on the row with this resistance range (matched by range, not position). */
  | { type: 'setRow'; min: number; max: number; field: 'Priority' | 'StatusCode'; value: number }
  /** Only where the field holds `from` now. */
  | { type: 'replace'; field: string; from: unknown; to: unknown }
  | { type: 'addTag'; tag: string }
  | { type: 'removeTag'; tag: string };

export type OperationType = BulkOperation['type'];

/**
 * One answer an operation needs: `field` picks a field of the sample object, `row` a reporting
 * priority row (its range), `choice` one of `options`, `json` a value (JSON, or the text itself),
 * `number` a whole number, `tag` a tag (lower case, no spaces).
 */
export interface Question {
  name: string;
  type: 'field' | 'row' | 'choice' | 'json' | 'number' | 'tag';
  /** The words of the question; `answers` holds the earlier answers of this operation. */
  title(answers: Readonly<Record<string, unknown>>): string;
  options?: readonly string[];
}

export interface OperationEntry {
  label(): string;
  detail?(): string;
  /** Offered for objects like `sample` (default: all). */
  offeredFor?(sample: BaseInfo): boolean;
  questions: readonly Question[];
  describe(op: BulkOperation): string;
  /** The object with the operation applied (the same object when it changes nothing), or why it does not apply. */
  apply(object: BaseInfo, op: BulkOperation): BaseInfo | Skip;
}

const v = (x: unknown) => JSON.stringify(x);
const notApplicable = (skip: string): Skip => ({ skip, notApplicable: true });
type Of<T extends OperationType> = Extract<BulkOperation, { type: T }>;

export const operations: { readonly [T in OperationType]: OperationEntry } = {
  setRow: {
    label: () => l10n.t('Set a reporting priority row…'),
    detail: () => l10n.t('Priority or StatusCode on the row with a given resistance range'),
    offeredFor: (sample) => Array.isArray((sample as InputScannerInfo).InputScannerReportingPriorities),
    questions: [
      { name: 'row', type: 'row', title: () => l10n.t("Which row (by resistance range; each object's row with this range)") },
      { name: 'field', type: 'choice', options: ['Priority', 'StatusCode'], title: () => l10n.t('Which value of the row') },
      { name: 'value', type: 'number', title: (a) => l10n.t('New {0} for rows {1} – {2}', String(a.field), String(a.min), String(a.max)) },
    ],
    describe: (op) => {
      const o = op as Of<'setRow'>;
      return l10n.t('set {0} = {1} on the priority row {2}–{3}', o.field, o.value, o.min, o.max);
    },
    apply: (object, op) => {
      const o = op as Of<'setRow'>;
      const rows = (object as InputScannerInfo).InputScannerReportingPriorities;
      if (!Array.isArray(rows)) return notApplicable(l10n.t('has no reporting priorities'));
      const at = rows.findIndex((r) => r.MinResistanceCode === o.min && r.MaxResistanceCode === o.max);
      if (at < 0) return notApplicable(l10n.t('has no priority row {0}–{1}', o.min, o.max));
      if (rows[at][o.field] === o.value) return object;
      return { ...object, InputScannerReportingPriorities: rows.map((r: InputScannerReportingPriority, i) => (i === at ? { ...r, [o.field]: o.value } : r)) };
    },
  },
  set: {
    label: () => l10n.t('Set a field…'),
    questions: [
      { name: 'field', type: 'field', title: () => l10n.t('Which field') },
      { name: 'value', type: 'json', title: (a) => l10n.t('New value of {0} (JSON, or text)', String(a.field)) },
    ],
    describe: (op) => l10n.t('set {0} = {1}', (op as Of<'set'>).field, v((op as Of<'set'>).value)),
    apply: (object, op) => {
      const o = op as Of<'set'>;
      if (!Object.hasOwn(object, o.field)) return notApplicable(l10n.t('has no field {0}', o.field));
      return sameJson(object[o.field], o.value) ? object : { ...object, [o.field]: o.value };
    },
  },
  replace: {
    label: () => l10n.t('Replace a value…'),
    detail: () => l10n.t('only where the field holds a given value'),
    questions: [
      { name: 'field', type: 'field', title: () => l10n.t('Which field') },
      { name: 'from', type: 'json', title: (a) => l10n.t('Replace {0} only where it is (JSON, or text)', String(a.field)) },
      { name: 'to', type: 'json', title: () => l10n.t('… by (JSON, or text)') },
    ],
    describe: (op) => l10n.t('replace {0} {1} → {2}', (op as Of<'replace'>).field, v((op as Of<'replace'>).from), v((op as Of<'replace'>).to)),
    apply: (object, op) => {
      const o = op as Of<'replace'>;
      if (!Object.hasOwn(object, o.field)) return notApplicable(l10n.t('has no field {0}', o.field));
      if (!sameJson(object[o.field], o.from)) return notApplicable(l10n.t('{0} is {1}, not {2}', o.field, v(object[o.field]), v(o.from)));
      return { ...object, [o.field]: o.to };
    },
  },
  addTag: {
    label: () => l10n.t('Add a tag…'),
    questions: [{ name: 'tag', type: 'tag', title: () => l10n.t('Add a tag…') }],
    describe: (op) => l10n.t('add tag {0}', v((op as Of<'addTag'>).tag)),
    apply: (object, op) => {
      const tag = (op as Of<'addTag'>).tag;
      return (object.Tags ?? []).includes(tag) ? object : { ...object, Tags: [...(object.Tags ?? []), tag] };
    },
  },
  removeTag: {
    label: () => l10n.t('Remove a tag…'),
    questions: [{ name: 'tag', type: 'tag', title: () => l10n.t('Remove a tag…') }],
    describe: (op) => l10n.t('remove tag {0}', v((op as Of<'removeTag'>).tag)),
    apply: (object, op) => {
      const tag = (op as Of<'removeTag'>).tag;
      return (object.Tags ?? []).includes(tag) ? { ...object, Tags: (object.Tags ?? []).filter((t) => t !== tag) } : object;
    },
  },
};

export function describeOperation(op: BulkOperation): string {
  return operations[op.type].describe(op);
}

/** The operation's effect on one object (bulk.ts builds each change with it). */
export function applyOperation(object: BaseInfo, op: BulkOperation): BaseInfo | Skip {
  return operations[op.type].apply(object, op);
}

/** Why a tag cannot be sent as typed (the service takes lower case without spaces), else undefined. */
export function tagProblem(tag: string): string | undefined {
  if (!tag.trim()) return l10n.t('Type a tag');
  return /^[^\s\p{Lu}]+$/u.test(tag)
    ? undefined
    : l10n.t('A tag must be lower case without spaces (the service refuses capitals and spaces), e.g. "night-shift"');
}

/** The fields a set or replace may name: the object's own, not those the server keeps. */
export function editableFields(sample: BaseInfo): string[] {
  return Object.keys(sample).filter((f) => !serverOwnedFields.includes(f));
}

/** An operation given as a command argument, checked: its type is known and each answer it needs is there. */
export function operationFromArgument(arg: unknown): BulkOperation {
  const o = arg as Record<string, unknown> | undefined;
  const entry = typeof o?.type === 'string' && Object.hasOwn(operations, o.type) ? operations[o.type as OperationType] : undefined;
  if (!o || !entry) throw new Error(l10n.t('Not a bulk operation: {0} (one of {1})', v(o?.type), Object.keys(operations).join(', ')));
  const names = entry.questions.flatMap((q) => (q.type === 'row' ? ['min', 'max'] : [q.name]));
  const missing = names.filter((n) => !Object.hasOwn(o, n));
  if (missing.length) throw new Error(l10n.t('The bulk operation {0} needs {1}', String(o.type), missing.join(', ')));
  if (entry.questions.some((q) => q.type === 'tag') && typeof o.tag === 'string' && tagProblem(o.tag)) throw new Error(tagProblem(o.tag));
  return o as BulkOperation;
}
