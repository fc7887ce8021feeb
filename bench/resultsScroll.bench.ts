/**
 * The query results table scrolled through 100,000 rows in the real host (the "the table scrolling
 * through 100,000 rows in the host"): the integration runner with only the opt-in UI check of
 * test/integration/ui/resultsScroll.ts, whose `results scroll:` lines are printed here. Needs the packaged .vsix
 * (`npm run package`) and the host (`npm run host:install`); one host at a time on a shared machine.
 *
 *   npm run bench -- resultsScroll [rows]   (it packages the .vsix first)
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';

const rows = process.argv.slice(2).map(Number).find(Boolean) ?? 100_000;
const repo = path.join(__dirname, '..');
const child = spawn(process.execPath, ['--import', 'tsx', path.join(repo, 'test', 'integration', 'host', 'run.ts')], {
  cwd: repo,
  env: { ...process.env, OMS_IT_UI_ONLY: '1', OMS_UI_BENCH: '1', OMS_UI_BENCH_ROWS: String(rows), OMS_UI_GREP: 'ui: bench: the query results table' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let output = '';
child.stdout.on('data', (d: Buffer) => (output += d.toString()));
child.stderr.on('data', (d: Buffer) => (output += d.toString()));
child.on('close', (code) => {
  const figures = output.split('\n').filter((l) => l.startsWith('results scroll:') || /^\s*(FAIL|ok|\d+ passed)/.test(l) || /timed out|Error/.test(l));
  console.log(figures.join('\n') || output.slice(-2000));
  process.exitCode = code ?? 1;
});
