/**
 * The code activation loads, measured by loading it: dist/extension.js (the release build) required with
 * a stand-in `vscode` module, `activate` called with a stand-in context, and the files of dist/ then in
 * Node's module cache summed. Fails over the limit (100 KB): the fleet features (objects as code, bulk
 * runs, the plan view, pull threads) load when first used.
 *
 *   node esbuild.js --release && node --import tsx bench/activation.bench.ts
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const limit = 100 * 1024;
const dist = path.resolve(__dirname, '..', 'dist');

// Run in a child process: a Node of its own, with nothing of this script's in its module cache.
const script = `
const fs = require('fs'), path = require('path'), Module = require('module');
const dist = ${JSON.stringify(dist)};
// Any name of the stand-in is a callable stand-in again; assignments are taken; it is never a promise.
const standIn = () => new Proxy(function () {}, {
  get: (_t, p) => (p === 'then' ? undefined : p === Symbol.toPrimitive ? () => '' : p === Symbol.iterator ? function* () {} : standIn()),
  apply: () => standIn(), construct: () => standIn(), set: () => true, defineProperty: () => true,
});
const vscode = standIn();
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? vscode : load.call(this, request, ...rest); };
require(path.join(dist, 'extension.js')).activate(standIn());
// What activation starts without awaiting (the environment's connection) settles first.
setTimeout(() => {
  const files = Object.keys(require.cache).filter((f) => f.startsWith(dist + path.sep));
  console.log(JSON.stringify(files.map((f) => [path.basename(f), fs.statSync(f).size])));
}, 200);
`;
const files = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as Array<[string, number]>;
const total = files.reduce((n, [, size]) => n + size, 0);
for (const [file, size] of files) console.log(`  dist/${file}`.padEnd(40), `${(size / 1024).toFixed(1)} KB`);
console.log('  loaded at activation'.padEnd(40), `${(total / 1024).toFixed(1)} KB`, `(limit ${limit / 1024} KB)`);
if (total > limit) {
  console.log('over the limit: load the feature that grew it behind an import() (see docs/architecture.md, Bundles)');
  process.exit(1);
}
