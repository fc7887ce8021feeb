/**
 * The schemas pulled files get while edited (dist/<kind>.file.schema.json, as the build writes them): every file a
 * real pull writes passes, with the fields the server sets left out; a wrong value or a server-owned field is flagged.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { bindingOf, pull } from '../../../src/changes/code/pull';
import { kindByCollection, pulledFiles, pulledKinds } from '../../../src/model/kinds';
import { Api, start } from '../sandbox/harness';

const repo = path.join(__dirname, '..', '..', '..');
// A made-up origin: the variants' references resolved as VS Code resolves them, beside the extension's schemas/.
const at = 'https://extension.test/';
let api: Api;
let root: string;
let ajv: Ajv;

before(async () => {
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/fileSchemas.ts'], { cwd: repo });
  ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addSchema(JSON.parse(readFileSync(path.join(repo, 'schemas', 'base.schema.json'), 'utf8')) as object, `${at}schemas/base.schema.json`);
  for (const k of pulledKinds) {
    const file = pulledFiles(k).schema;
    ajv.addSchema({ ...(JSON.parse(readFileSync(path.join(repo, 'dist', file), 'utf8')) as object), $id: `${at}dist/${file}` });
  }
  api = await start({ seed: 'demo' });
  const client = new OmsClient(createHttp({ baseUrl: api.sb.url, token: () => api.sb.token }));
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-file-schemas-'));
  const headOffice = (await api.folder('Head Office')).Key;
  await pull(client, root, await bindingOf(client, 'Sandbox', api.sb.url), {
    scope: { folderKey: headOffice, recursive: true, kinds: pulledKinds.map((k) => k.id) },
  });
});
after(async () => {
  await api.sb.close();
  await fs.rm(root, { recursive: true, force: true });
});

async function pulledFilesOnDisk(): Promise<Array<{ file: string; collection: string }>> {
  const out: Array<{ file: string; collection: string }> = [];
  for (const e of await fs.readdir(root, { withFileTypes: true, recursive: true })) {
    const collection = path.basename(e.parentPath);
    if (e.isFile() && e.name.endsWith('.json') && kindByCollection(collection)) out.push({ file: path.join(e.parentPath, e.name), collection });
  }
  return out;
}

function errorsOf(collection: string, object: unknown): string[] {
  const validate = ajv.getSchema(`${at}dist/${pulledFiles(kindByCollection(collection)!).schema}`)!;
  return validate(object) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

test("every file a pull writes passes its kind's file schema (no ConcurrencyVersion, Href or Notes required)", async () => {
  const files = await pulledFilesOnDisk();
  const collections = new Set(files.map((f) => f.collection));
  assert.ok(collections.has('inputscanners') && collections.has('people') && collections.has('engagesites'), [...collections].join(', '));
  for (const { file, collection } of files) {
    const object = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
    assert.equal(object.ConcurrencyVersion, undefined);
    assert.deepEqual(errorsOf(collection, object), [], path.relative(root, file));
  }
});

test('"StatusCode": "two" in a pulled scanner file is a problem while editing, and so is a field the server sets', async () => {
  const { file } = (await pulledFilesOnDisk()).find((f) => f.collection === 'inputscanners')!;
  const scanner = JSON.parse(await fs.readFile(file, 'utf8')) as { InputScannerReportingPriorities: Array<{ StatusCode: unknown }> };
  scanner.InputScannerReportingPriorities[1].StatusCode = 'two';
  assert.ok(
    errorsOf('inputscanners', scanner).some((e) => e.startsWith('/InputScannerReportingPriorities/1/StatusCode')),
    errorsOf('inputscanners', scanner).join('; '),
  );
  assert.ok(errorsOf('inputscanners', { ...scanner, InputScannerReportingPriorities: [] }).some((e) => e.startsWith('/InputScannerReportingPriorities')));
  const { file: personFile } = (await pulledFilesOnDisk()).find((f) => f.collection === 'people')!;
  const person = JSON.parse(await fs.readFile(personFile, 'utf8')) as object;
  assert.ok(errorsOf('people', { ...person, Notes: [] }).some((e) => e.startsWith('/Notes')));
  assert.ok(errorsOf('people', { ...person, ConcurrencyVersion: 3 }).some((e) => e.startsWith('/ConcurrencyVersion')));
});
