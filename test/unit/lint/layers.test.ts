// The layer rule of eslint.config.mjs (docs/architecture.md, Layers), run on files that are not in the tree:
// what it must refuse (an upward import() , `vscode` in a new file of a mixed folder, a folder in no layer)
// and what it must let through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';

const repo = path.resolve(__dirname, '..', '..', '..');

/** The layer rule's messages for `code` as if it were the file `file` of the repository. */
async function layerProblems(file: string, code: string): Promise<string[]> {
  const config = ((await import(pathToFileURL(path.join(repo, 'eslint.config.mjs')).href)) as { default: Linter.Config[] }).default;
  const layers = config.find((c) => c.plugins?.layers);
  assert.ok(layers, 'eslint.config.mjs has the layers plugin');
  const eslint = new ESLint({ cwd: repo, overrideConfigFile: true, overrideConfig: [{ ...layers, languageOptions: { parser: tseslint.parser } }] });
  const [result] = await eslint.lintText(code, { filePath: path.join(repo, file) });
  return result.messages.map((m) => m.message);
}

test('an import() of a layer above fails: the Objects view does not load the commands', async () => {
  const problems = await layerProblems('src/tree/probe.ts', "export const later = () => import('../commands/index');\n");
  assert.deepEqual(problems, [
    'src/tree/probe.ts is in the editor features (layer 2), which does not import ../commands/index (the commands, layer 1): ' +
      'imports point down only (docs/architecture.md, Layers)',
  ]);
});

test('a new file of live/ is plain Node: importing vscode fails, as it does in a listed plain Node file', async () => {
  for (const code of [
    "import vscode = require('vscode');\n\nexport const window = () => vscode.window;\n",
    "import * as vscode from 'vscode';\n\nexport const window = () => vscode.window;\n",
  ]) {
    for (const file of ['src/live/probe.ts', 'src/connection/probe.ts', 'src/live/poller.ts']) {
      assert.deepEqual(await layerProblems(file, code), [
        `${file} is in plain Node (layer 5), which does not import \`vscode\`: imports point down only (docs/architecture.md, Layers)`,
      ]);
    }
    assert.deepEqual(await layerProblems('src/live/liveUpdates.ts', code), [], 'a file named as an editor file imports vscode');
  }
});

test('a plain Node file does not import its VS Code neighbour, also as a type or by typeof import()', async () => {
  const code = "import type { TokenStore } from './tokenStore';\n\nexport type Store = TokenStore | typeof import('./statusBar');\n";
  const problems = await layerProblems('src/connection/probe.ts', code);
  assert.equal(problems.length, 2, problems.join('\n'));
  assert.match(problems[0], /does not import \.\/tokenStore \(the UI services, layer 4\)/);
  assert.match(problems[1], /does not import \.\/statusBar \(the UI services, layer 4\)/);
});

test('a folder in no layer fails until it is placed; imports down and beside pass', async () => {
  assert.deepEqual(await layerProblems('src/unplaced/probe.ts', 'export const probe = 1;\n'), [
    'src/unplaced/probe.ts is in no layer: place its folder in `layers` of eslint.config.mjs (docs/architecture.md, Layers)',
  ]);
  const down =
    "import { OmsClient } from '../api/client';\n" +
    "import { log } from '../log';\n" +
    "export { ObjectTree } from './objectTree';\n" +
    "export const parts = () => [OmsClient, log, import('../documents/saves')];\n";
  assert.deepEqual(await layerProblems('src/tree/probe.ts', down), []);
});

test('the run core (runs/core/) is plain Node inside the editor layer: vscode or a runs/ sibling fails there; the command line imports it', async () => {
  const code =
    "import vscode = require('vscode');\n" +
    "import { reportRun } from '../report';\n" +
    "import { l10n } from '../../l10n';\n" +
    'export const parts = [vscode, reportRun, l10n];\n';
  const problems = await layerProblems('src/runs/core/probe.ts', code);
  assert.equal(problems.length, 2, problems.join('\n'));
  assert.match(problems[0], /src\/runs\/core\/probe\.ts is in plain Node \(layer 5\), which does not import `vscode`/);
  assert.match(problems[1], /does not import \.\.\/report \(the editor features, layer 2\)/);
  const cli =
    "import { objectsText } from '../runs/core/words';\n" +
    "import { confirmPreview } from '../runs/preview';\n" +
    'export const parts = [objectsText, confirmPreview];\n';
  const fromCli = await layerProblems('src/cli/probe.ts', cli);
  assert.equal(fromCli.length, 1, fromCli.join('\n'));
  assert.match(fromCli[0], /does not import \.\.\/runs\/preview \(the editor features, layer 2\)/);
});
