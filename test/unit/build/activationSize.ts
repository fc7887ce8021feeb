/**
 * The code activation loads, measured by loading it: dist/extension.js required in a Node of its own with a
 * stand-in `vscode` module, `activate` called with a stand-in context, and the files of dist/ then in Node's
 * module cache summed (package.json is not code and is not counted). The unit test holds the limit; the
 * bench prints the same measurement.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

/** The most activation may load, in bytes. */
export const activationLimit = 100 * 1024;

const repo = path.resolve(__dirname, '..', '..', '..');
export const dist = path.join(repo, 'dist');

/** Builds the release bundle into dist/ (minified, as the .vsix ships it). */
export function buildRelease(): void {
  execFileSync(process.execPath, ['esbuild.js', '--release'], { cwd: repo, stdio: 'pipe' });
}

// Any name of the stand-in is a callable stand-in again; assignments are taken; it is never a promise.
const script = `
const fs = require('fs'), path = require('path'), Module = require('module');
const dist = ${JSON.stringify(dist)};
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
  console.log(JSON.stringify(files.map((f) => [path.relative(dist, f), fs.statSync(f).size])));
}, 200);
`;

/** The files of dist/ that activating the built extension loads, with their sizes in bytes. */
export function activationFiles(): Array<{ file: string; bytes: number }> {
  const files = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as Array<[string, number]>;
  return files.map(([file, bytes]) => ({ file, bytes }));
}
