/** Pasted access tokens: what the service accepts is accepted, and a refusal says why. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readToken } from '../../../src/api/auth';
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { startSandbox } from '../../../src/sandbox/server';

test('a sandbox started with the token t2: the pasted t2 is accepted and signs in', async () => {
  const sb = await startSandbox({ port: 0, token: 't2' });
  try {
    const read = readToken(' t2\n');
    assert.ok('token' in read, JSON.stringify(read));
    const client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => read.token }));
    assert.equal((await client.instance()).Key, sb.instanceKey);
  } finally {
    await sb.close();
  }
});

test('"Bearer <token>" pasted whole is the token; a refusal names the reason and where', () => {
  assert.deepEqual(readToken('Bearer abc.def-ghi'), { token: 'abc.def-ghi' });
  assert.deepEqual(readToken('   '), { problem: 'empty' });
  assert.deepEqual(readToken('abc def'), { problem: 'space', at: 4 });
  assert.deepEqual(readToken('abc\u00e9'), { problem: 'character', at: 4 });
});
