// Commands are registered from the manifest at activation and their code loads
// on the first run (src/commands/register.ts): a command with no contribution
// would never be registered, and a contribution with no command fails when run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';

const repo = path.join(__dirname, '..', '..', '..');

test('every command in src/commands is contributed by the manifest, and every contribution has a command', () => {
  const manifest = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { contributes: { commands: Array<{ command: string }> } };
  const contributed = manifest.contributes.commands.map((c) => c.command).sort();
  const dir = path.join(repo, 'src', 'commands');
  // Commands live in src/commands and its feature folders.
  const implemented = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))
    .flatMap((f) => [...readFileSync(path.join(dir, f), 'utf8').matchAll(/^\s*id: '(oms\.\w+)'/gm)].map((m) => m[1]))
    .sort();
  assert.ok(implemented.length > 20, `found ${implemented.length} commands`);
  assert.deepEqual(implemented, contributed);
});
