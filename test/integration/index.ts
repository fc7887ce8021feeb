// Mocha entry loaded by VS Code as `extensionTestsPath` (both hosts: the desktop
// build via @vscode/test-electron and the server build in headless Chromium).
// Runs every compiled `*.test.js` next to this file and, because the extension
// host's console is not the runner's stdout in the Chromium host, writes the
// results as JSON into $OMS_TEST_DIAGNOSTICS/results.json for the runner to print.
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';

export interface TestOutcome {
  fullTitle: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs?: number;
}

export interface FailureRecord {
  fullTitle: string;
  message: string;
  stack?: string;
}

export interface IntegrationResults {
  passed: number;
  failed: number;
  pending: number;
  files: string[];
  tests: TestOutcome[];
  failures: FailureRecord[];
  startedAt: string;
  finishedAt?: string;
}

/** VS Code's record of this extension's activation (its ExtensionActivationTimes), as `activation-times.json` holds it. */
export interface ActivationRecord {
  codeLoadingTime: number;
  activateCallTime: number;
  activateResolvedTime: number;
  /** What activated it, e.g. `api`. */
  event: string;
  /** How busy the machine was just before the first activation, and how long the test waited for it to settle. */
  quiet?: { busy: number; waitedMs: number };
}

function writeResults(results: IntegrationResults): void {
  const dir = process.env.OMS_TEST_DIAGNOSTICS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify(results, null, 2));
}

function errorText(err: unknown): { message: string; stack?: string } {
  if (err instanceof Error) return { message: err.message, stack: err.stack };
  return { message: String(err) };
}

export function run(): Promise<void> {
  const results: IntegrationResults = {
    passed: 0,
    failed: 0,
    pending: 0,
    files: [],
    tests: [],
    failures: [],
    startedAt: new Date().toISOString(),
  };
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60_000, reporter: 'spec' });
  const grep = process.env.OMS_TEST_GREP;
  if (grep) mocha.grep(grep);

  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort()
    .map((f) => path.join(__dirname, f));
  results.files = files.map((f) => path.basename(f));
  for (const f of files) mocha.addFile(f);

  return new Promise<void>((resolve, reject) => {
    const finish = (err?: Error) => {
      results.finishedAt = new Date().toISOString();
      try {
        writeResults(results);
      } catch (e) {
        console.error('could not write integration results:', e);
      }
      if (err) reject(err);
      else resolve();
    };
    if (files.length === 0) {
      finish(new Error(`no *.test.js files next to ${__filename}`));
      return;
    }
    // A run of the UI checks alone (the pseudo-localized pass of scripts/test-all.sh): no Mocha test.
    if (process.env.OMS_IT_UI_ONLY === '1') {
      finish();
      return;
    }
    try {
      const runner = mocha.run((failures) => {
        const total = results.passed + results.failed;
        if (failures > 0) finish(new Error(`${failures} test(s) failed`));
        else if (total === 0) finish(new Error('no tests ran'));
        else finish();
      });
      runner.on('pass', (test) => {
        results.passed++;
        results.tests.push({ fullTitle: test.fullTitle(), state: 'passed', durationMs: test.duration });
      });
      runner.on('fail', (test, err) => {
        // Hook failures ("before all" hook ...) count as failures too.
        results.failed++;
        results.tests.push({ fullTitle: test.fullTitle(), state: 'failed', durationMs: test.duration });
        results.failures.push({ fullTitle: test.fullTitle(), ...errorText(err) });
      });
      runner.on('pending', (test) => {
        results.pending++;
        results.tests.push({ fullTitle: test.fullTitle(), state: 'pending' });
      });
    } catch (err) {
      // A test file that throws while loading ends up here.
      results.failed++;
      results.failures.push({ fullTitle: 'loading test files', ...errorText(err) });
      finish(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
