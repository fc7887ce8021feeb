import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const fixturesDir = join(__dirname, 'fixtures');
export const schemasDir = join(__dirname, '..', '..', '..', 'schemas');

/** A fresh copy of a fixture (tests may mutate it). */
 
export function fixture(name: string): any {
  return JSON.parse(readFileSync(join(fixturesDir, name), 'utf8'));
}

export function fixtureNames(): string[] {
  return readdirSync(fixturesDir).filter((f) => f.endsWith('.json')).sort();
}

export function schemaFile(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(schemasDir, name), 'utf8')) as Record<string, unknown>;
}

export function schemaFileNamesOnDisk(): string[] {
  return readdirSync(schemasDir).filter((f) => f.endsWith('.schema.json')).sort();
}
