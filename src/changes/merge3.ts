/**
 * Three-way merge of one object: what the user started from (base), the user's edit (mine)
 * and the server's copy now (theirs). One function for every surface that meets a version
 * conflict (editor save, priorities table, quick edit, stale plan entries, bulk runs).
 *
 * At each JSON pointer: both sides equal → that value; one side unchanged → the other's;
 * three objects → field by field; arrays as the kinds registry declares (`arrayIdentity`);
 * anything else changed differently on both sides is a conflict. Server-owned fields come
 * from theirs. An absent field is a value (a removal conflicts with a change).
 *
 * Why no library: node-diff3 merges lines (neighbouring fields collide), jsondiffpatch and
 * fast-json-patch address array items by position, json-merge-patch reads null as delete;
 * none takes its array identities from our registry.
 */
import { arrayIdentity, ArrayIdentity, Kind, serverOwnedFields } from '../model/kinds';
import { sameJson } from '../model/saveChecks';
import type { BaseInfo } from '../model/types';

export interface MergeConflict {
  pointer: string;
  base: unknown;
  mine: unknown;
  theirs: unknown;
}

export interface MergeResult {
  /** The merge; at each conflict it holds mine (or the side chosen for that pointer). */
  merged: BaseInfo;
  /** Fields changed differently on both sides and not settled by a choice. */
  conflicts: MergeConflict[];
  /** Pointers where theirs' change was taken in (server-owned fields not counted). */
  tookTheirs: string[];
}

/** The user's answer per conflict pointer: merge again with it to settle those conflicts. */
export type MergeChoices = Readonly<Record<string, 'mine' | 'theirs'>>;

/**
 * Pointers address the merged object; an item of a keyed array is numbered by its place in
 * the union of both sides' items (theirs' order, mine's new items after their neighbour).
 */
export function merge3(kind: Kind, base: BaseInfo, mine: BaseInfo, theirs: BaseInfo, choices: MergeChoices = {}): MergeResult {
  const merger = new Merger(kind, choices);
  const merged = merger.fields('', base, mine, theirs, true) as BaseInfo;
  return { merged, conflicts: merger.conflicts, tookTheirs: merger.tookTheirs };
}

type Json = Record<string, unknown>;

class Merger {
  readonly conflicts: MergeConflict[] = [];
  readonly tookTheirs: string[] = [];

  constructor(
    private readonly kind: Kind,
    private readonly choices: MergeChoices,
  ) {}

  /** The merged value at `pointer`; undefined means absent. */
  value(pointer: string, base: unknown, mine: unknown, theirs: unknown, identity?: ArrayIdentity): unknown {
    if (sameJson(mine, theirs)) return mine;
    if (sameJson(mine, base)) return this.took(pointer, theirs, base);
    if (sameJson(theirs, base)) return mine;
    if (isObject(base) && isObject(mine) && isObject(theirs)) return this.fields(pointer, base, mine, theirs, false);
    if (identity) {
      // A null or missing list next to a list is an empty one, so additions on both sides still merge.
      const [b, m, t] = [base, mine, theirs].map((v) => (v === null || v === undefined ? [] : v));
      if (Array.isArray(b) && Array.isArray(m) && Array.isArray(t)) {
        const merged =
          identity.by === 'set'
            ? this.set(pointer, b, m, t)
            : identity.by === 'position'
              ? this.rows(pointer, b, m, t)
              : this.keyed(pointer, b, m, t, identity.fields);
        if (merged) return merged;
      }
    }
    const choice = this.choices[pointer];
    if (choice === 'theirs') return this.took(pointer, theirs, base);
    if (choice !== 'mine') this.conflicts.push({ pointer, base, mine, theirs });
    return mine;
  }

  /** Field by field, in mine's order then theirs' new fields; top level: server-owned fields are theirs. */
  fields(pointer: string, base: Json, mine: Json, theirs: Json, top: boolean): Json {
    const out: Json = {};
    for (const key of new Set([...Object.keys(mine), ...Object.keys(theirs), ...Object.keys(base)])) {
      const child = `${pointer}/${escape(key)}`;
      const value =
        top && serverOwnedFields.includes(key)
          ? theirs[key]
          : this.value(child, own(base, key), own(mine, key), own(theirs, key), top ? arrayIdentity(this.kind, key) : undefined);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }

  /** Row i with row i, while the three lengths agree (else the list is one value). */
  private rows(pointer: string, base: unknown[], mine: unknown[], theirs: unknown[]): unknown[] | undefined {
    if (base.length !== mine.length || mine.length !== theirs.length) return undefined;
    return theirs.map((t, i) => this.value(`${pointer}/${i}`, base[i], mine[i], t));
  }

  /** Theirs, less what mine removed, plus what mine added. Never a conflict. */
  private set(pointer: string, base: unknown[], mine: unknown[], theirs: unknown[]): unknown[] {
    const ids = (list: unknown[]) => new Set(list.map(canonical));
    const [b, m] = [ids(base), ids(mine)];
    if (!sameSet(b, ids(theirs))) this.tookTheirs.push(pointer);
    const kept = theirs.filter((t) => !b.has(canonical(t)) || m.has(canonical(t)));
    const out = new Map(kept.map((t) => [canonical(t), t] as const));
    return [
      ...withNewItems(
        out,
        mine.map((v) => [canonical(v), v] as const),
        (id) => !b.has(id),
      ).values(),
    ];
  }

  /** Items matched by their key fields; undefined when a side holds one key twice. */
  private keyed(pointer: string, base: unknown[], mine: unknown[], theirs: unknown[], fields: readonly string[]): unknown[] | undefined {
    const index = (list: unknown[]) => {
      const map = new Map(list.map((item) => [identityOf(item, fields), item] as const));
      return map.size === list.length ? map : undefined;
    };
    const [b, m, t] = [index(base), index(mine), index(theirs)];
    if (!b || !m || !t) return undefined;
    const slots = withNewItems(
      new Map([...t.keys()].map((id) => [id, id] as const)),
      [...m.keys()].map((id) => [id, id] as const),
      (id) => !t.has(id),
    );
    return [...slots.keys()].map((id, i) => this.value(`${pointer}/${i}`, b.get(id), m.get(id), t.get(id))).filter((v) => v !== undefined);
  }

  /** Takes theirs' change, naming each field it changed (not the whole object around it). */
  private took(pointer: string, theirs: unknown, base: unknown = undefined): unknown {
    if (isObject(base) && isObject(theirs)) {
      for (const key of new Set([...Object.keys(base), ...Object.keys(theirs)])) {
        if (!sameJson(own(base, key), own(theirs, key))) this.took(`${pointer}/${escape(key)}`, own(theirs, key), own(base, key));
      }
    } else {
      this.tookTheirs.push(pointer);
    }
    return theirs;
  }
}

/** `into` with the entries of `mine` for which `isNew` holds, each after its nearest kept predecessor in mine. */
function withNewItems<T>(into: Map<string, T>, mine: ReadonlyArray<readonly [string, T]>, isNew: (id: string) => boolean): Map<string, T> {
  let entries = [...into.entries()];
  let after: string | undefined;
  for (const [id, value] of mine) {
    if (isNew(id) && !into.has(id)) {
      const at = after === undefined ? 0 : entries.findIndex(([k]) => k === after) + 1;
      entries = [...entries.slice(0, at), [id, value], ...entries.slice(at)];
      into.set(id, value);
    }
    if (into.has(id)) after = id;
  }
  return new Map(entries);
}

/** An item's identity: its key fields, or its whole value when it has none of them. */
function identityOf(item: unknown, fields: readonly string[]): string {
  if (isObject(item) && fields.some((f) => item[f] !== undefined && item[f] !== null)) {
    return 'key:' + JSON.stringify(fields.map((f) => item[f] ?? null));
  }
  return 'value:' + canonical(item);
}

/** JSON text with object keys sorted, so equal values have one text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function own(object: Json, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** RFC 6901: `~` and `/` inside a key. */
function escape(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
