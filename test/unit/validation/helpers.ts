import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const fixturesDir = join(__dirname, 'fixtures');
export const schemasDir = join(__dirname, '..', '..', '..', 'schemas');

/** A fresh copy of a fixture (tests may mutate it). */

export function fixture(name: string): any {
  return JSON.parse(readFileSync(join(fixturesDir, name), 'utf8'));
}

export function fixtureNames(): string[] {
  return readdirSync(fixturesDir)
    .filter((f) => f.endsWith('.json'))
    .sort();
}

/** schemas/ and schemas/inputs/ (the sandbox's other inputs): validators are named by file name alone. */
const inputsDir = join(schemasDir, 'inputs');
const schemaNames = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.schema.json'));

export function schemaFile(name: string): Record<string, unknown> {
  const dir = schemaNames(inputsDir).includes(name) ? inputsDir : schemasDir;
  return JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>;
}

export function schemaFileNamesOnDisk(): string[] {
  return [...schemaNames(schemasDir), ...schemaNames(inputsDir)].sort();
}
