/**
 * `$type` values: `<namespace>.<TypeName>, <assembly>`.
 * The namespace is learnt from objects the server returns; this is the default.
 */
const defaultNamespace = 'Feenics.Keep.WebApi.Model';
const defaultAssembly = 'Feenics.Keep.WebApi.Model';

export interface TypeNaming {
  namespace: string;
  assembly: string;
}

const typePattern = /^([A-Za-z_][\w.]*)\.([A-Za-z_]\w*),\s*([\w.]+)$/;

/**
 * Splits a `$type` value, or returns undefined when it is not of that form.
 * @internal Exported for its unit test.
 */
export function parseType(value: unknown): { namespace: string; typeName: string; assembly: string } | undefined {
  if (typeof value !== 'string') return undefined;
  const m = typePattern.exec(value);
  return m ? { namespace: m[1], typeName: m[2], assembly: m[3] } : undefined;
}

export function typeNameOf(value: unknown): string | undefined {
  return parseType(value)?.typeName;
}

const defaultNaming: TypeNaming = { namespace: defaultNamespace, assembly: defaultAssembly };

export function makeType(typeName: string, naming: TypeNaming = defaultNaming): string {
  return `${naming.namespace}.${typeName}, ${naming.assembly}`;
}

/** Learns the naming from any object carrying `$type`; falls back to the default. */
export function namingOf(obj: unknown): TypeNaming {
  const parsed = parseType((obj as { $type?: unknown } | null)?.$type);
  return parsed ? { namespace: parsed.namespace, assembly: parsed.assembly } : defaultNaming;
}
