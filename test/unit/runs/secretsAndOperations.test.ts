/**
 * Apply (Dry Run) prints an engage site's SiteKeyBase64 only as a placeholder; the bulk operations
 * registry checks an operation given as a command argument, and a tag as it is typed.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHttp } from '../../../src/api/http';
import { OmsClient } from '../../../src/api/client';
import { dryRun } from '../../../src/changes/code/apply';
import { makePlan } from '../../../src/changes/code/plan';
import { bindingOf, pull } from '../../../src/changes/code/pull';
import { applyOperation, describeOperation, operationFromArgument, operations, tagProblem } from '../../../src/changes/operations';
import { newObject } from '../../../src/model/templates';
import { kind } from '../../../src/model/kinds';
import type { BaseInfo } from '../../../src/model/types';
import { Api, start } from '../sandbox/harness';

let api: Api;
before(async () => {
  api = await start({ seed: 'empty' });
});
after(() => api.sb.close());

test('Apply (Dry Run) shows no engage site key: its field holds a placeholder, as the token does', async () => {
  const secret = 'ZHJ5LXJ1bi1zaXRlLWtleS0wMDE=';
  const site = kind('engageSite');
  await api.post(`/api/f/${api.instanceKey}/engagesites`, { ...newObject(site, 'Dry Lobby'), SiteKeyBase64: secret });
  const client = new OmsClient(createHttp({ baseUrl: api.sb.url, token: () => api.sb.token }));
  const binding = await bindingOf(client, 'Sandbox', api.sb.url);
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'oms-dry-'));
  await pull(client, root, binding, { scope: { folderKey: api.instanceKey, recursive: false, kinds: ['engageSite'] } });
  const dir = path.join(
    root,
    (await fs.readdir(root)).find((d) => !d.startsWith('.') && !d.endsWith('.json'))!,
    'engagesites',
  );
  const [file] = await fs.readdir(dir);
  const object = JSON.parse(await fs.readFile(path.join(dir, file), 'utf8')) as BaseInfo;
  // A new site key typed into the file: the update would send it.
  await fs.writeFile(path.join(dir, file), JSON.stringify({ ...object, SiteKeyBase64: 'bmV3LWRyeS1ydW4ta2V5LTAwMg==', SiteReference: 'moved' }));
  const { plan } = await makePlan(client, root, binding);
  const { commands } = await dryRun(client, root, binding, plan);
  const text = commands.join('\n');
  assert.equal(commands.filter((c) => !c.startsWith('#')).length, 1, text);
  for (const s of [secret, 'bmV3LWRyeS1ydW4ta2V5LTAwMg==']) assert.ok(!text.includes(s), `${s} in\n${text}`);
  assert.match(text, /"SiteKeyBase64":"\(secret left out/);
  assert.match(text, /"SiteReference":"moved"/);
  await fs.rm(root, { recursive: true, force: true });
});

test('an operation as a command argument: checked against the registry, with the answers it needs', () => {
  assert.deepEqual(operationFromArgument({ type: 'addTag', tag: 'x' }), { type: 'addTag', tag: 'x' });
  assert.throws(() => operationFromArgument({ type: 'renameAll' }), /Not a bulk operation: "renameAll" \(one of setRow, set, replace, addTag, removeTag\)/);
  assert.throws(() => operationFromArgument({ type: 'setRow', min: 1, field: 'Priority', value: 2 }), /setRow needs max/);
  assert.throws(() => operationFromArgument({ type: 'addTag', tag: 'Reviewed Q3' }), /lower case without spaces/);
  assert.equal(describeOperation({ type: 'set', field: 'Tags', value: [] }), 'set Tags = []');
  for (const [type, entry] of Object.entries(operations)) assert.ok(entry.label() && entry.questions.length, type);
});

test('the tag box says "Reviewed Q3" is invalid as it is typed; the effect of a tag is a set', () => {
  assert.match(tagProblem('Reviewed Q3') ?? '', /lower case without spaces/);
  assert.equal(tagProblem('reviewed-q3'), undefined);
  const o = { $type: 'x', Tags: ['a'] } as BaseInfo;
  assert.equal(applyOperation(o, { type: 'addTag', tag: 'a' }), o);
  assert.deepEqual((applyOperation(o, { type: 'removeTag', tag: 'a' }) as BaseInfo).Tags, []);
});
