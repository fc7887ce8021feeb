import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';

import { TokenStore } from '../../../src/connection/tokenStore';

/** SecretStorage's contract (get, store, delete) over a Map, as VS Code keeps secrets per extension. */
function secretStorage(failWith?: Error): vscode.SecretStorage & { raw: Map<string, string> } {
  const raw = new Map<string, string>();
  const check = () => {
    if (failWith) throw failWith;
  };
  return {
    raw,
    get: (key: string) => Promise.resolve().then(() => (check(), raw.get(key))),
    store: (key: string, value: string) => Promise.resolve().then(() => { check(); raw.set(key, value); }),
    delete: (key: string) => Promise.resolve().then(() => { check(); raw.delete(key); }),
    keys: () => Promise.resolve([...raw.keys()]),
    onDidChange: () => ({ dispose() {} }),
  } as unknown as vscode.SecretStorage & { raw: Map<string, string> };
}

test('a token is handed out only for the origin it was stored for', async () => {
  const store = new TokenStore(secretStorage());
  await store.set('c1', 'https://api.example.com/v1', { accessToken: 'secret-1' });
  assert.equal((await store.get('c1', 'https://api.example.com/other'))?.accessToken, 'secret-1');
  assert.equal(await store.get('c1', 'https://evil.example.com/v1'), undefined);
  assert.equal(await store.get('c1', 'http://api.example.com/v1'), undefined);
  assert.equal(await store.get('c2', 'https://api.example.com/v1'), undefined);
});

test('sign out forgets the token; other connections keep theirs', async () => {
  const secrets = secretStorage();
  const store = new TokenStore(secrets);
  await store.set('a', 'https://a.example.com', { accessToken: 'ta' });
  await store.set('b', 'https://b.example.com', { accessToken: 'tb', refreshToken: 'rb' });
  await store.delete('a');
  assert.equal(await store.get('a', 'https://a.example.com'), undefined);
  assert.deepEqual({ ...(await store.get('b', 'https://b.example.com')) }, { accessToken: 'tb', refreshToken: 'rb', origin: 'https://b.example.com' });
  assert.equal(secrets.raw.size, 1);
});

test('a secret store that cannot be used says what it needs, without the token', async () => {
  const store = new TokenStore(secretStorage(new Error('no keyring')));
  await assert.rejects(store.set('a', 'https://a.example.com', { accessToken: 'do-not-show' }), (e: Error) => /secret store/.test(e.message) && /keyring/.test(e.message) && !e.message.includes('do-not-show'));
  await assert.rejects(store.get('a', 'https://a.example.com'), /Cannot read the secret store/);
});
