/**
 * The fields a query may name, read from the JSON Schemas of schemas/ (the kinds registry names each kind's file):
 * a tree of fields with their types, nested fields (objects and array items) and enum values, for the query's
 * warnings (a field no schema knows) and the query box's completion.
 */
import type { Kind } from '../model/kinds';
import base from '../../schemas/base.schema.json';
import engageSite from '../../schemas/engageSite.schema.json';
import folder from '../../schemas/folder.schema.json';
import inputScanner from '../../schemas/inputScanner.schema.json';
import person from '../../schemas/person.schema.json';
import serviceContainer from '../../schemas/serviceContainer.schema.json';
import serviceContainerModule from '../../schemas/serviceContainerModule.schema.json';

/** The schemas by file name, as the registry's `schema` names them (a unit test holds every kind's here). */
const schemaFiles: Readonly<Record<string, Schema>> = {
  'base.schema.json': base,
  'engageSite.schema.json': engageSite,
  'folder.schema.json': folder,
  'inputScanner.schema.json': inputScanner,
  'person.schema.json': person,
  'serviceContainer.schema.json': serviceContainer,
  'serviceContainerModule.schema.json': serviceContainerModule,
};

interface Schema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  then?: Schema;
  else?: Schema;
  enum?: unknown[];
  enumDescriptions?: string[];
  definitions?: Record<string, Schema>;
}

/** A field: its types, the fields inside it (of an object, or of an array's items) and its values when an enum. */
export interface Field {
  types: string[];
  description?: string;
  /** An object's fields, or those of each item when `types` holds `array`. */
  fields?: Map<string, Field>;
  /** An array's items when they are not objects (their own enum, say). */
  items?: Field;
  enum?: Array<{ value: unknown; description?: string }>;
}

/** @internal For the unit test that holds every kind's schema here. */
export function schemaKnown(k: Kind): boolean {
  return Object.hasOwn(schemaFiles, k.schema);
}

const cache = new Map<string, Field>();

/** The fields of `k`'s objects. */
function kindFields(k: Kind): Field {
  let f = cache.get(k.schema);
  if (!f) {
    f = fieldOf(schemaFiles[k.schema], k.schema, 0);
    cache.set(k.schema, f);
  }
  return f;
}

/** The fields of objects of any of `ks`: a field is known when one kind has it. */
export function fieldsOfKinds(ks: readonly Kind[]): Field {
  return ks.map(kindFields).reduce(merge, { types: ['object'], fields: new Map() });
}

function merge(a: Field, b: Field): Field {
  const fields = new Map(a.fields ?? []);
  for (const [name, f] of b.fields ?? []) {
    const had = fields.get(name);
    fields.set(name, had ? merge(had, f) : f);
  }
  const enums = [...(a.enum ?? []), ...(b.enum ?? []).filter((e) => !(a.enum ?? []).some((x) => x.value === e.value))];
  return {
    types: [...new Set([...a.types, ...b.types])],
    description: a.description ?? b.description,
    fields: fields.size ? fields : undefined,
    items: a.items && b.items ? merge(a.items, b.items) : (a.items ?? b.items),
    enum: enums.length ? enums : undefined,
  };
}

/** Follows `$ref`s (in the file, or `other.schema.json#/definitions/X`) and merges `allOf`; depth-bounded. */
function fieldOf(schema: Schema | undefined, file: string, depth: number): Field {
  if (!schema || depth > 20) return { types: [] };
  let out: Field = {
    types: schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type],
    description: schema.description,
  };
  if (schema.$ref) {
    const [refFile, pointer] = schema.$ref.split('#');
    const target = refFile || file;
    out = merge(out, fieldOf(resolve(schemaFiles[target], pointer), target, depth + 1));
  }
  // Every variant's fields (an address's `if $type is PhoneInfo then …`): a field of one of them is known.
  const variants = [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? []), schema.then, schema.else];
  for (const part of variants.filter((v) => v !== undefined)) out = merge(out, fieldOf(part, file, depth + 1));
  if (schema.properties) {
    const fields = new Map<string, Field>();
    for (const [name, s] of Object.entries(schema.properties)) fields.set(name, fieldOf(s, file, depth + 1));
    out = merge(out, { types: [], fields });
  }
  if (schema.items) {
    const item = fieldOf(schema.items, file, depth + 1);
    // An array of objects: its items' fields are what a projection (`Rows[*].X`, `Rows[?X]`) names.
    out = merge(out, item.fields ? { types: [], fields: item.fields } : { types: [], items: item });
  }
  if (schema.enum) out.enum = schema.enum.map((value, i) => ({ value, description: schema.enumDescriptions?.[i] }));
  return out;
}

function resolve(schema: Schema | undefined, pointer: string | undefined): Schema | undefined {
  let at: unknown = schema;
  for (const part of (pointer ?? '').split('/').filter(Boolean)) at = (at as Record<string, unknown> | undefined)?.[part];
  return at as Schema | undefined;
}

/**
 * The columns a person can pick for results of these kinds: each top-level field, and each field one level inside
 * (`Rows[*].StatusCode` of an array of objects, `Address.City` of an object), as JMESPath expressions of their own.
 */
export function columnChoices(ks: readonly Kind[]): string[] {
  const out: string[] = [];
  for (const [name, field] of fieldsOfKinds(ks).fields ?? []) {
    if (name === 'CommonName' || name === 'Key' || name === '$type') continue;
    out.push(name);
    const inside = field.types.includes('array') ? `${name}[*].` : `${name}.`;
    for (const nested of field.fields?.keys() ?? []) if (nested !== '$type') out.push(inside + nested);
  }
  return out;
}
