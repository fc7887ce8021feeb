/**
 * The validators are code generated at build time (scripts/validators.ts):
 * they run where generating code from strings is forbidden, as in hosts that
 * forbid eval, and nothing is compiled when the extension starts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '..', '..', '..');

/** Runs `code` in a Node that refuses eval and new Function; returns its stdout. */
function withoutEval(code: string): string {
  return execFileSync(process.execPath, ['--disallow-code-generation-from-strings', '--import', 'tsx', '-e', code], {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

test('ajv cannot compile in a host that forbids eval (so the check below means something)', () => {
  const out = withoutEval(`try { new (require('ajv').default)().compile({ type: 'string' }); console.log('compiled'); } catch (e) { console.log(e.name); }`);
  assert.equal(out, 'EvalError');
});

test('the generated validators validate in a host that forbids eval', () => {
  const out = withoutEval(`
    const { validate } = require('./src/validation/validator');
    const good = require('./test/unit/validation/fixtures/inputScanner.update.json');
    const bad = { ...good, InputScannerReportingPriorities: 'none' };
    console.log(JSON.stringify([validate('inputScanner.schema.json', good).length, validate('inputScanner.schema.json', bad).map((e) => e.pointer)]));`);
  assert.deepEqual(JSON.parse(out), [0, ['/InputScannerReportingPriorities']]);
});
