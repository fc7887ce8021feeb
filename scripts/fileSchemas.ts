// Writes dist/<kind>.file.schema.json: the schema the files of a pulled folder get while edited (package.json's
// jsonValidation, `pulledFiles` in src/model/kinds.ts). It is the kind's schema, except that the fields the server
// sets and pulled files leave out are not required, and are flagged when a file has them (a plan refuses them).
// Run by `npm run build`; the output is not committed.
import * as fs from 'fs';
import * as path from 'path';
import { isServerOwned, notInFiles } from '../src/changes/code/fileForm';
import { pulledFiles, pulledKinds } from '../src/model/kinds';

const repo = path.resolve(__dirname, '..');

type Schema = { [key: string]: unknown };

/** The pulled-file variant of `schema` (a kind's schema, as in schemas/), its references led to `refsFrom`. */
function fileSchemaOf(schema: Schema, refsFrom: string): Schema {
  const copy = withRefsFrom(schema, refsFrom) as Schema;
  const properties = { ...(copy.properties as Schema | undefined) };
  for (const field of notInFiles) {
    properties[field] = { not: {}, errorMessage: `${field} is the server's to set: pulled files leave it out (remove it)` };
  }
  const required = Array.isArray(copy.required) ? (copy.required as string[]).filter((f) => !isServerOwned(f)) : undefined;
  return { ...copy, title: `${String(copy.title)} (a pulled file)`, properties, ...(required && { required }) };
}

/** `$ref`s to other files of schemas/, relative to where the variant is written. */
function withRefsFrom(value: unknown, refsFrom: string): unknown {
  if (Array.isArray(value)) return value.map((v) => withRefsFrom(v, refsFrom));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && !v.startsWith('#') ? `${refsFrom}${v}` : withRefsFrom(v, refsFrom)]),
  );
}

if (require.main === module) {
  const out = path.join(repo, 'dist');
  fs.mkdirSync(out, { recursive: true });
  for (const k of pulledKinds) {
    const schema = JSON.parse(fs.readFileSync(path.join(repo, 'schemas', k.schema), 'utf8')) as Schema;
    fs.writeFileSync(path.join(out, pulledFiles(k).schema), JSON.stringify(fileSchemaOf(schema, '../schemas/'), null, 2) + '\n');
  }
}
