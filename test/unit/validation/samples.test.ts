import { test } from 'node:test';
import assert from 'node:assert/strict';

import { validate, formatErrors, schemaFileNames } from '../../../src/validation/validator';
import { kinds } from '../../../src/model/kinds';
import { newObject } from '../../../src/model/templates';
import { statusCodeLabels } from '../../../src/model/statusCodes';
import { fixture, fixtureNames, schemaFile, schemaFileNamesOnDisk } from './helpers';

/** Which schema a fixture is checked against: its name up to the first dot. */
function schemaForFixture(name: string): string {
  return `${name.split('.')[0]}.schema.json`;
}

for (const name of fixtureNames()) {
  test(`fixture ${name} validates`, () => {
    const errors = validate(schemaForFixture(name), fixture(name));
    assert.deepEqual(errors, [], formatErrors(errors));
  });
}

test('there is a create and an update sample for every kind', () => {
  const names = fixtureNames();
  for (const k of kinds.values()) {
    assert.ok(names.includes(`${k.id}.create.json`), `${k.id}.create.json`);
    assert.ok(names.includes(`${k.id}.update.json`), `${k.id}.update.json`);
  }
});

test('update samples carry populated keys, links and object links as the spec shows', () => {
  for (const k of kinds.values()) {
    const o = fixture(`${k.id}.update.json`);
    assert.match(o.Key, /^[0-9a-f]{24}$/);
    assert.equal(o.Href, `/api/f/${o.InFolderKey}/${k.collection}/${o.Key}`);
    assert.ok(o.Links.length > 0);
    for (const l of o.Links) assert.equal(l.Anchor.Href, l.Relation.toLowerCase());
    assert.deepEqual(
      o.ObjectLinks.map((l: { Relation: string }) => l.Relation),
      ['InInstance', 'InstanceScope'],
    );
    const create = fixture(`${k.id}.create.json`);
    for (const f of ['Key', 'Href', 'InFolderHref', 'InFolderKey']) assert.equal(create[f], null, f);
    assert.deepEqual(create.Links, []);
  }
});

test('a namespace other than Feenics.Keep.WebApi.Model is accepted everywhere, nested shapes included', () => {
  const person = fixture('person.otherNamespace.json');
  assert.ok(person.$type.startsWith('Acme.Security.Api.Model.PersonInfo, '));
  assert.ok(person.Addresses[0].$type.startsWith('Acme.'));
  assert.ok(person.Links[0].Anchor.$type.startsWith('Acme.'));
  assert.deepEqual(validate('person.schema.json', person), []);
  const scanner = fixture('inputScanner.otherNamespace.json');
  assert.ok(scanner.InputScannerReportingPriorities[0].$type.startsWith('Acme.'));
  assert.deepEqual(validate('inputScanner.schema.json', scanner), []);
});

for (const k of kinds.values()) {
  test(`newObject(${k.id}) validates against ${k.schema}`, () => {
    const errors = validate(k.schema, newObject(k, 'New object'));
    assert.deepEqual(errors, [], formatErrors(errors));
    const other = validate(k.schema, newObject(k, 'New object', { namespace: 'Other.Ns', assembly: 'Other' }));
    assert.deepEqual(other, [], formatErrors(other));
  });
}

test('the schema name may be given without .json or with a path', () => {
  const k = kinds.get('engageSite')!;
  const o = newObject(k, 'x');
  assert.deepEqual(validate('engageSite.schema', o), []);
  assert.deepEqual(validate('./schemas/engageSite.schema.json', o), []);
  assert.throws(() => validate('nothing.schema.json', o), /Unknown schema/);
});

test('every schema compiles in strict mode (VS Code keywords declared, no unknown ones)', () => {
  for (const name of schemaFileNames()) assert.ok(Array.isArray(validate(name, {})), name);
});

test('every schema file on disk is known to the validator and every kind names one', () => {
  assert.deepEqual(schemaFileNames().sort(), schemaFileNamesOnDisk());
  for (const k of kinds.values()) assert.ok(schemaFileNames().includes(k.schema), k.schema);
});

/** Walks every subschema of a schema file with its JSON pointer. */
function walk(node: unknown, at: string, visit: (s: Record<string, unknown>, at: string) => void): void {
  if (Array.isArray(node)) {
    node.forEach((n, i) => walk(n, `${at}/${i}`, visit));
    return;
  }
  if (!node || typeof node !== 'object') return;
  const s = node as Record<string, unknown>;
  visit(s, at);
  for (const [key, value] of Object.entries(s)) {
    if (key === 'defaultSnippets' || key === 'examples' || key === 'enum') continue;
    walk(value, `${at}/${key}`, visit);
  }
}

function resolvePointer(doc: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return doc;
  return pointer
    .slice(1)
    .split('/')
    .reduce<unknown>((n, seg) => (n as Record<string, unknown> | undefined)?.[seg.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

test('every $ref is a relative file ref (or local) that resolves, as VS Code resolves them', () => {
  for (const file of schemaFileNamesOnDisk()) {
    const schema = schemaFile(file);
    assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#', file);
    assert.equal(schema.$id, undefined, `${file} has no $id: refs resolve against the file's own URL`);
    walk(schema, '', (s, at) => {
      if (typeof s.$ref !== 'string') return;
      const [target, fragment = ''] = s.$ref.split('#');
      assert.ok(target === '' || /^[\w]+\.schema\.json$/.test(target), `${file}${at}: ${s.$ref}`);
      const doc = target === '' ? schema : schemaFile(target);
      assert.ok(resolvePointer(doc, fragment) !== undefined, `${file}${at}: ${s.$ref} does not resolve`);
    });
  }
});

test('every property has a description for hovers', () => {
  for (const file of schemaFileNamesOnDisk()) {
    walk(schemaFile(file), '', (s, at) => {
      if (!s.properties || at.includes('/if') || at.includes('/anyOf')) return;
      for (const [name, prop] of Object.entries(s.properties as Record<string, Record<string, unknown>>)) {
        assert.equal(typeof prop.description, 'string', `${file}${at}/properties/${name}`);
      }
    });
  }
});

test('every object shape requires $type', () => {
  for (const file of schemaFileNamesOnDisk()) {
    walk(schemaFile(file), '', (s, at) => {
      if (s.type !== 'object' || !(s.properties as Record<string, unknown> | undefined)?.$type) return;
      assert.ok((s.required as string[]).includes('$type'), `${file}${at}`);
    });
  }
});

test('status code labels in the schema are the spec labels, for hover and completion', () => {
  const defs = schemaFile('inputScanner.schema.json').definitions as Record<string, Record<string, unknown>>;
  const status = defs.InputScannerStatusCode;
  assert.deepEqual(status.enum, [0, 1, 2, 3, 4, 5, 6]);
  const plain = status.enumDescriptions as string[];
  const markdown = status.markdownEnumDescriptions as string[];
  assert.equal(plain.length, 7);
  assert.equal(markdown.length, 7);
  for (let code = 0; code <= 5; code++) {
    assert.equal(plain[code], statusCodeLabels[code]);
    assert.ok(markdown[code].includes(statusCodeLabels[code]));
  }
  assert.match(plain[6], /^Non-settling error/);
  assert.match(plain[6], /NonSettlingErrorStatus/);
});
