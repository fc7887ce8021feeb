/**
 * Plain HTTP to this machine goes out through undici's own fetch once it is loaded (VS Code's fetch in the
 * extension host adds nothing there but its cost); anything else, and every request before the load, keeps
 * the host's fetch.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { loopbackFetch } from '../../../src/api/loopbackFetch';
import { startSandbox, Sandbox } from '../../../src/sandbox/server';

let sb: Sandbox;
before(async () => {
  sb = await startSandbox({ port: 0, seed: 'demo' });
});
after(() => sb.close());

test("a service elsewhere, or HTTPS to this machine (certificates VS Code adds may apply), keeps the host's fetch", () => {
  for (const url of ['http://oms.example.com/api', 'https://127.0.0.1:8443/api', 'https://localhost/api', 'http://127.0.0.2.example.com/api']) {
    assert.equal(loopbackFetch(new URL(url)), undefined, url);
  }
});

test("plain HTTP to the sandbox: the host's fetch until undici is loaded, then undici's, which reaches it", async () => {
  const url = new URL('/api', sb.url);
  assert.equal(loopbackFetch(url), undefined, 'the first request does not wait for the load');
  let chosen: ReturnType<typeof loopbackFetch>;
  for (let waited = 0; !(chosen = loopbackFetch(url)) && waited < 10_000; waited += 10) await sleep(10);
  const fetch = await chosen;
  assert.ok(fetch, "undici's fetch once loaded");
  assert.notEqual(fetch, globalThis.fetch);
  for (const host of ['localhost', '[::1]']) assert.equal(await loopbackFetch(new URL(`http://${host}:1/api`)), fetch, host);
  const answer = await fetch(url, { headers: { Authorization: `Bearer ${sb.token}` } });
  assert.equal(answer.status, 200);
  assert.equal(((await answer.json()) as { Key: string }).Key, sb.instanceKey);
});
