// What VS Code loads when the extension activates stays small: the features behind an `import()` load when
// first used. Measured on the release bundle, as the .vsix ships it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { activationFiles, activationLimit, buildRelease } from './activationSize';

test(`activation loads at most ${activationLimit / 1024} KB of code`, () => {
  buildRelease();
  const files = activationFiles();
  const total = files.reduce((n, f) => n + f.bytes, 0);
  const list = files.map((f) => `dist/${f.file} ${(f.bytes / 1024).toFixed(1)} KB`).join(', ');
  assert.ok(
    files.some((f) => f.file === 'extension.js'),
    `activation did not load dist/extension.js: ${list}`,
  );
  assert.ok(
    total <= activationLimit,
    `activation loads ${(total / 1024).toFixed(1)} KB (${list}), over the limit of ${activationLimit / 1024} KB: ` +
      'load the feature that grew it behind an import() (docs/architecture.md, Bundles)',
  );
});
