import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { descriptionOf, kind, kinds, otherSchemas, pulledFiles, pulledKinds } from '../../../src/model/kinds';

const root = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: {
    jsonValidation: Array<{ fileMatch: string[]; url: string }>;
    languages: Array<{ id: string; filenamePatterns?: string[] }>;
    jsonLanguageParticipants: Array<{ languageId: string }>;
    configurationDefaults: Record<string, Record<string, unknown>>;
  };
};

// The URI schemes of object documents and of the server's version, and their language (src/fs/objectUri.ts).
const objectLanguage = 'oms-object';
const documentSchemes = ['oms', 'oms-server'];

/** package.json's `jsonValidation` as the registry says it must be. */
function expectedJsonValidation() {
  return [
    ...[...kinds.values()].map((k) => ({
      fileMatch: documentSchemes.map((scheme) => `${scheme}://*/*/${k.collection}/*.json`),
      url: `./schemas/${k.schema}`,
    })),
    ...otherSchemas.filter((d) => d.fileMatch).map((d) => ({ fileMatch: [d.fileMatch], url: `./schemas/${d.schema}` })),
    // The files of a pulled folder: each kind's schema for files (scripts/fileSchemas.ts writes it into dist/).
    ...pulledKinds.map((k) => ({ fileMatch: [...pulledFiles(k).fileMatch], url: `./dist/${pulledFiles(k).schema}` })),
  ];
}

test("package.json's jsonValidation is the registry's (paste the expected value shown on failure)", () => {
  const sort = (entries: Array<{ url: string }>) => [...entries].sort((a, b) => a.url.localeCompare(b.url));
  const expected = expectedJsonValidation();
  assert.deepEqual(sort(manifest.contributes.jsonValidation), sort(expected), `expected "jsonValidation": ${JSON.stringify(expected, null, 2)}`);
});

test('object documents of every kind have the object language: JSON features, auto-save off by default', () => {
  const language = manifest.contributes.languages.find((l) => l.id === objectLanguage);
  // VS Code matches a pattern with a slash against the whole path of the Uri (src/fs/objectUri.ts builds it;
  // the JSON language server, like this, leaves the query out).
  assert.deepEqual(
    language?.filenamePatterns,
    [...kinds.values()].map((k) => `/*/${k.collection}/*.json`),
  );
  assert.ok(manifest.contributes.jsonLanguageParticipants.some((p) => p.languageId === objectLanguage));
  assert.equal(manifest.contributes.configurationDefaults[`[${objectLanguage}]`]?.['files.autoSave'], 'off');
});

test('every schema the registry names is a file of schemas/, and every top-level schema file is named or referenced', () => {
  const named = new Set([...[...kinds.values()].map((k) => k.schema), ...otherSchemas.map((d) => d.schema)]);
  for (const schema of named) assert.ok(existsSync(join(root, 'schemas', schema)), schema);
  const files = readdirSync(join(root, 'schemas')).filter((f) => f.endsWith('.schema.json'));
  const referenced = new Set(files.flatMap((f) => [...readFileSync(join(root, 'schemas', f), 'utf8').matchAll(/"\$ref":\s*"([^"#]+)/g)].map((m) => m[1])));
  assert.deepEqual(
    files.filter((f) => !named.has(f) && !referenced.has(f)),
    [],
  );
});

test('ids, collections and type names are unique', () => {
  const all = [...kinds.values()];
  for (const field of ['id', 'collection', 'typeName'] as const) {
    assert.equal(new Set(all.map((k) => k[field])).size, all.length, field);
  }
});

test('the tree describes an object by a field only where its name does not already say it', () => {
  assert.equal(descriptionOf(kind('person'), { CommonName: 'Zanele Brown', Surname: 'Brown' }), undefined);
  assert.equal(descriptionOf(kind('person'), { CommonName: 'Front desk', Surname: 'Brown' }), 'Brown');
  assert.equal(descriptionOf(kind('engageSite'), { CommonName: 'Main site', SiteReference: 'SITE-7' }), 'SITE-7');
  assert.equal(descriptionOf(kind('person'), { CommonName: 'X', Surname: '' }), undefined);
});
