/** Copy as cURL: the command, pasted into a shell with TOKEN set, does what the client does. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startSandbox, Sandbox } from '../../../src/sandbox/server';
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { curlCommand, curlOf, requestsOf, shellQuote } from '../../../src/api/curl';
import { kind } from '../../../src/model/kinds';
import type { PersonInfo } from '../../../src/model/types';

let sb: Sandbox;
let client: OmsClient;

before(async () => {
  sb = await startSandbox({ port: 0, seed: 'demo' });
  client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
});
after(() => sb.close());

// Asynchronous: the sandbox answers from this same process.
const run = promisify(execFile);
const shell = async (command: string, token = sb.token) =>
  (await run('bash', ['-c', command], { env: { PATH: process.env.PATH, TOKEN: token }, encoding: 'utf8' })).stdout;

test('the copied GET of an object, run in a shell with TOKEN set, returns the object', async () => {
  const [site] = (await client.list(kind('engageSite'), sb.instanceKey)).items;
  const command = await curlOf(sb.url, (c) => c.get(kind('engageSite'), sb.instanceKey, site.Key!));
  assert.ok(!command.includes(sb.token), 'the token is never in the command');
  assert.match(command, /^printf 'Authorization: Bearer %s\\n' "\$TOKEN" \| curl .* -H @-$/, 'the header comes from standard input');
  assert.deepEqual(JSON.parse(await shell(command)), site);
});

test('a group: the first page as the tree loads it', async () => {
  const command = await curlOf(sb.url, (c) => c.list(kind('engageSite'), sb.instanceKey, 0, 100));
  assert.match(command, /page=0&pageSize=100/);
  assert.deepEqual(JSON.parse(await shell(command)), (await client.list(kind('engageSite'), sb.instanceKey, 0, 100)).items);
});

test('a body with quotes, $ and newlines reaches the service unchanged (invite)', async () => {
  const [site] = (await client.list(kind('engageSite'), sb.instanceKey)).items;
  const email = `o'brien.$HOME.${Date.now()}@example.com`;
  const command = await curlOf(sb.url, (c) => c.invite(sb.instanceKey, site.Key!, email));
  await shell(command);
  const outbox = await (await fetch(`${sb.url}/sandbox/outbox`, { headers: { Authorization: `Bearer ${sb.token}` } })).text();
  assert.ok(outbox.includes(JSON.stringify(email).slice(1, -1)), 'the address arrived exactly as typed');
});

test('a batch add is one command per batch; nothing is sent while they are built', async () => {
  const person = (n: number) =>
    ({
      $type: 'Feenics.Keep.WebApi.Model.PersonInfo, Feenics.Keep.WebApi.Model',
      CommonName: `Curl ${n}`,
      GivenName: 'Curl',
      Surname: String(n),
    }) as unknown as PersonInfo;
  const before = (await client.listAll(kind('person'), sb.instanceKey)).length;
  const requests = await requestsOf((c) => c.addPeople(sb.instanceKey, [1, 2, 3, 4, 5].map(person), { batchSize: 2, concurrency: 1 }));
  assert.equal(requests.length, 3);
  assert.equal((await client.listAll(kind('person'), sb.instanceKey)).length, before, 'recording sent nothing');
  for (const r of requests) await shell(curlCommand(sb.url, r));
  assert.equal((await client.listAll(kind('person'), sb.instanceKey)).length, before + 5);
});

test("a wrong token gets the service's refusal and a failing exit code", async () => {
  const command = await curlOf(sb.url, (c) => c.instance());
  await assert.rejects(shell(command, 'not-the-token'));
});

test('shell quoting survives single quotes', async () => {
  assert.equal(await shell(`printf %s ${shellQuote(`it's "$x" \\ \``)}`), `it's "$x" \\ \``);
});
