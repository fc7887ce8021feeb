// SECURITY.md's word on the sandbox's credentials, checked against the command line started as the doc says (no token, no password given).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { startCli } from './child';
import { ask, tokenForm } from './net';

const doc = readFileSync(path.resolve(__dirname, '../../../SECURITY.md'), 'utf8').replace(/\s+/g, ' ');

test('SECURITY.md: the sandbox has no default credentials, and the command line has none: a random token, no password grant', async () => {
  assert.doesNotMatch(doc, /`admin` ?\/ ?`admin`/, 'no admin/admin claimed');
  assert.match(doc, /It has no default credentials: .* its token is random .* it has no password, so password grants .* are refused\./);
  const first = await startCli([]);
  const second = await startCli([]);
  try {
    assert.match(first.token, /^[\w-]{32,}$/);
    assert.notEqual(first.token, second.token, 'random, not a default');
    for (const password of ['admin', '']) {
      assert.equal((await ask(first.url, { method: 'POST', path: '/token', form: tokenForm('admin', password) })).status, 400, `admin/${password}`);
    }
  } finally {
    await Promise.all([first.stop(), second.stop()]);
  }
});
