/** A query file's `# folder:` line read into a key against a real sandbox, and a folder's key back into the path New Query File writes. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, Sandbox } from '../../../src/sandbox/server';
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { kind } from '../../../src/model/kinds';
import { folderKeyOfPath, pathOfFolder } from '../../../src/query/folderPath';

let sb: Sandbox;
let client: OmsClient;
const folders = kind('folder');

before(async () => {
  sb = await startSandbox({ port: 0, seed: 'demo' });
  client = new OmsClient(createHttp({ baseUrl: sb.url, token: () => sb.token }));
});
after(() => sb.close());

async function child(parent: string, name: string): Promise<string> {
  const f = (await client.listAll(folders, parent)).find((x) => x.CommonName === name);
  assert.ok(f, `${name} in the demo`);
  return f.Key!;
}

test('names from the instance down (its own name first or not, any case), a key, or nothing: the folder meant', async () => {
  const head = await child(sb.instanceKey, 'Head Office');
  const floor1 = await child(head, 'Floor 1');
  assert.equal(await folderKeyOfPath(client, sb.instanceKey, 'Head Office/Floor 1'), floor1);
  assert.equal(await folderKeyOfPath(client, sb.instanceKey, '/Demo Instance/Head Office/Floor 1/'), floor1);
  assert.equal(await folderKeyOfPath(client, sb.instanceKey, 'head office / floor 1'), floor1);
  assert.equal(await folderKeyOfPath(client, sb.instanceKey, floor1), floor1);
  assert.equal(await folderKeyOfPath(client, sb.instanceKey, ''), sb.instanceKey);
  assert.equal(await pathOfFolder(client, sb.instanceKey, floor1), 'Head Office/Floor 1');
  assert.equal(await pathOfFolder(client, sb.instanceKey, sb.instanceKey), '');
});

test('a name that is not there says what its folder holds', async () => {
  await assert.rejects(folderKeyOfPath(client, sb.instanceKey, 'Head Office/Floor 9'), {
    message: 'There is no folder "Floor 9" in "Head Office"; it holds: Floor 1, Floor 2',
  });
  await assert.rejects(folderKeyOfPath(client, sb.instanceKey, 'Warehouse/Aisle 3'), { message: 'There is no folder "Aisle 3" in "Warehouse"; it holds none' });
});
