import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';

import { TokenStore } from '../../../src/connection/tokenStore';

type FakeSecrets = vscode.SecretStorage & {
  raw: Map<string, string>;
  /** Reads so far. */
  reads: number;
  /** While set, every call fails with it (a locked keyring). */
  failWith?: Error;
  /** A write from another window: the value changes and the change event fires. */
  change(key: string, value?: string): void;
};

/** SecretStorage's contract (get, store, delete, a change event) over a Map, as VS Code keeps secrets per extension. */
function secretStorage(failWith?: Error): FakeSecrets {
  const raw = new Map<string, string>();
  const listeners = new Set<(e: vscode.SecretStorageChangeEvent) => void>();
  const fire = (key: string) => listeners.forEach((l) => l({ key }));
  const storage = {
    raw,
    reads: 0,
    failWith,
    get: (key: string) => Promise.resolve().then(() => (storage.reads++, check(), raw.get(key))),
    store: (key: string, value: string) =>
      Promise.resolve().then(() => {
        check();
        raw.set(key, value);
        fire(key);
      }),
    delete: (key: string) =>
      Promise.resolve().then(() => {
        check();
        raw.delete(key);
        fire(key);
      }),
    keys: () => Promise.resolve([...raw.keys()]),
    onDidChange: (l: (e: vscode.SecretStorageChangeEvent) => void) => {
      listeners.add(l);
      return { dispose: () => listeners.delete(l) };
    },
    change(key: string, value?: string) {
      if (value === undefined) raw.delete(key);
      else raw.set(key, value);
      fire(key);
    },
  };
  const check = () => {
    if (storage.failWith) throw storage.failWith;
  };
  return storage;
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
  await assert.rejects(
    store.set('a', 'https://a.example.com', { accessToken: 'do-not-show' }),
    (e: Error) => /secret store/.test(e.message) && /keyring/.test(e.message) && !e.message.includes('do-not-show'),
  );
  await assert.rejects(store.get('a', 'https://a.example.com'), /Cannot read the secret store/);
});

test('requests read the token from memory; a change in another window is read again', async () => {
  const secrets = secretStorage();
  const store = new TokenStore(secrets);
  await store.set('a', 'https://a.example.com', { accessToken: 'first' });
  for (let i = 0; i < 5; i++) assert.equal((await store.get('a', 'https://a.example.com'))?.accessToken, 'first');
  assert.equal(secrets.reads, 0, 'what this window stored is known without asking the secret store');

  secrets.change('oms.tokens.a', JSON.stringify({ accessToken: 'second', origin: 'https://a.example.com' }));
  assert.equal((await store.get('a', 'https://a.example.com'))?.accessToken, 'second');
  assert.equal((await store.get('a', 'https://a.example.com'))?.accessToken, 'second');
  assert.equal(secrets.reads, 1, 'one read after the change, then memory');

  secrets.change('oms.tokens.a');
  assert.equal(await store.get('a', 'https://a.example.com'), undefined, 'signed out in another window');
  store.dispose();
});

test('a failed read of the secret store is not remembered', async () => {
  const secrets = secretStorage();
  secrets.raw.set('oms.tokens.a', JSON.stringify({ accessToken: 't', origin: 'https://a.example.com' }));
  secrets.failWith = new Error('locked');
  const store = new TokenStore(secrets);
  await assert.rejects(store.get('a', 'https://a.example.com'), /Cannot read the secret store/);
  secrets.failWith = undefined;
  assert.equal((await store.get('a', 'https://a.example.com'))?.accessToken, 't');
});
